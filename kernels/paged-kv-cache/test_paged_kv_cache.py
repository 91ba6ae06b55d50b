"""Hidden tests for the paged-kv-cache drill (block allocator, block tables, gather)."""

from __future__ import annotations

import pytest
import torch

H, D = 2, 3
DTYPES = [torch.float32, pytest.param(torch.bfloat16, id="bf16")]


def kv(n, device, dtype=torch.float32):
    return (torch.randn(n, H, D, device=device).to(dtype), torch.randn(n, H, D, device=device).to(dtype))


def append(cache, seq, k, v):
    k0, v0 = k.clone(), v.clone()
    cache.append(seq, k, v)
    assert torch.equal(k, k0) and torch.equal(v, v0), "append must not modify the caller's k / v"


def check_state(cache, want: dict, num_blocks: int, bs: int):
    used = set()
    for seq, (k, v) in want.items():
        n = k.shape[0]
        assert cache.seq_len(seq) == n, f"seq {seq}: seq_len should be {n}, got {cache.seq_len(seq)}"
        table = cache.block_table(seq)
        assert isinstance(table, list) and all(isinstance(b, int) for b in table), "block_table must be a list of ints"
        assert len(table) == -(-n // bs), f"seq {seq} with {n} tokens must hold ceil({n}/{bs}) blocks, holds {table}"
        assert not used & set(table), f"seq {seq} shares blocks {used & set(table)} with another sequence"
        used |= set(table)
        gk, gv = cache.gather(seq)
        assert gk.shape == (n, H, D) and gv.shape == (n, H, D), f"seq {seq}: gather must return ({n}, {H}, {D}) tensors"
        assert torch.equal(gk, k) and torch.equal(gv, v), f"seq {seq}: gathered K/V differ from what was appended"
        pos = torch.arange(n)
        blocks = torch.tensor(table)[pos // bs].to(cache.k_cache.device)
        offs = (pos % bs).to(cache.k_cache.device)
        assert torch.equal(cache.k_cache[blocks, offs], k) and torch.equal(cache.v_cache[blocks, offs], v), (
            f"seq {seq}: token i must live at k_cache[table[i // block_size], i % block_size]")
    assert cache.num_free_blocks() == num_blocks - len(used), \
        f"num_free_blocks should be {num_blocks - len(used)}, got {cache.num_free_blocks()}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_interleaved_appends(candidate, device, seed, dtype):
    num_blocks, bs = 24, 4
    cache = candidate.PagedKVCache(num_blocks, bs, H, D, dtype=dtype, device=device)
    assert cache.k_cache.shape == (num_blocks, bs, H, D) and cache.v_cache.shape == (num_blocks, bs, H, D), \
        "k_cache / v_cache must be (num_blocks, block_size, num_heads, head_dim)"
    assert cache.k_cache.dtype == dtype and cache.k_cache.device.type == device, "cache must use the given dtype/device"
    want = {}
    for _ in range(12):
        seq = int(torch.randint(0, 3, ()))
        k, v = kv(int(torch.randint(1, 7, ())), device, dtype)
        append(cache, seq, k, v)
        pk, pv = want.get(seq, (k[:0], v[:0]))
        want[seq] = (torch.cat([pk, k]), torch.cat([pv, v]))
        check_state(cache, want, num_blocks, bs)


def test_lowest_free_block_and_reuse(candidate, device):
    bs = 4
    cache = candidate.PagedKVCache(8, bs, H, D, device=device)
    a1, b1, a2, c1 = kv(5, device), kv(3, device), kv(4, device), kv(9, device)
    append(cache, 10, *a1)
    assert cache.block_table(10) == [0, 1], f"5 tokens, block_size 4: blocks [0, 1], got {cache.block_table(10)}"
    append(cache, 20, *b1)
    assert cache.block_table(20) == [2], f"next sequence takes the lowest free block 2, got {cache.block_table(20)}"
    append(cache, 10, *a2)
    assert cache.block_table(10) == [0, 1, 3], \
        f"9 tokens: fill block 1's 3 free slots, then take block 3; got {cache.block_table(10)}"
    cache.free(10)
    assert cache.num_free_blocks() == 7, f"after freeing seq 10 only block 2 is in use; free = {cache.num_free_blocks()}"
    with pytest.raises(KeyError):
        cache.gather(10)
    append(cache, 30, *c1)
    assert cache.block_table(30) == [0, 1, 3], f"freed blocks are reused lowest first: want [0, 1, 3], got {cache.block_table(30)}"
    check_state(cache, {20: b1, 30: c1}, 8, bs)


def test_out_of_blocks_changes_nothing(candidate, device):
    bs = 4
    cache = candidate.PagedKVCache(3, bs, H, D, device=device)
    a = kv(8, device)
    append(cache, 0, *a)
    with pytest.raises(RuntimeError):
        cache.append(1, *kv(5, device))  # needs 2 blocks, 1 free
    with pytest.raises(KeyError):
        cache.seq_len(1)  # a failed first append must not register the sequence
    with pytest.raises(RuntimeError):
        cache.append(0, *kv(5, device))  # 13 tokens need 4 blocks, holds 2, 1 free
    check_state(cache, {0: a}, 3, bs)
    more = kv(4, device)
    append(cache, 0, *more)  # 12 tokens exactly fill 3 blocks
    check_state(cache, {0: (torch.cat([a[0], more[0]]), torch.cat([a[1], more[1]]))}, 3, bs)
    assert cache.num_free_blocks() == 0
    with pytest.raises(RuntimeError):
        cache.append(0, *kv(1, device))


def test_copies_not_views(candidate, device, seed):
    cache = candidate.PagedKVCache(4, 4, H, D, device=device)
    k, v = kv(6, device)
    cache.append(7, k, v)
    k_saved = k.clone()
    k.add_(100.0)  # caller reuses its buffer
    gk, gv = cache.gather(7)
    assert torch.equal(gk, k_saved), "append must copy k into the cache, not keep a reference"
    gk.zero_()
    gk2, _ = cache.gather(7)
    assert torch.equal(gk2, k_saved), "gather must return new tensors, not views of the cache"
    table = cache.block_table(7)
    table.append(99)
    assert cache.block_table(7) != table, "block_table must return a new list"


def test_freed_sequence_is_forgotten(candidate, device):
    cache = candidate.PagedKVCache(4, 4, H, D, device=device)
    append(cache, 5, *kv(3, device))
    cache.free(5)
    for method in (cache.gather, cache.free, cache.block_table, cache.seq_len):
        with pytest.raises(KeyError):
            method(5)
    assert cache.num_free_blocks() == 4
    a = kv(2, device)
    append(cache, 5, *a)  # the id can start again from empty
    check_state(cache, {5: a}, 4, 4)


def test_gather_copies_single_block(candidate, device):
    cache = candidate.PagedKVCache(4, 8, H, D, device=device)
    k, v = kv(3, device)
    append(cache, 1, k, v)  # fits in one block: a view would be tempting
    gk, gv = cache.gather(1)
    gk.fill_(7.0)
    gv.fill_(7.0)
    gk2, gv2 = cache.gather(1)
    assert torch.equal(gk2, k) and torch.equal(gv2, v), "gather must return new tensors, not views of the cache"


def test_independent_instances(candidate, device):
    """Two caches share nothing: free lists, tables and pools are per instance."""
    c1 = candidate.PagedKVCache(3, 2, H, D, device=device)
    c2 = candidate.PagedKVCache(5, 2, H, D, device=device)
    a, b = kv(3, device), kv(4, device)
    append(c1, 0, *a)
    assert c2.num_free_blocks() == 5, "appending to one cache changed another cache's free blocks"
    with pytest.raises(KeyError):
        c2.seq_len(0)
    append(c2, 0, *b)
    assert c2.block_table(0) == [0, 1], f"a fresh cache starts at block 0, got {c2.block_table(0)}"
    check_state(c1, {0: a}, 3, 2)
    check_state(c2, {0: b}, 5, 2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_random_ops_against_model(candidate, device, seed, dtype):
    """Random appends and frees over several sequences, checked after every step against a model of
    the allocator (lowest free block first; RuntimeError and no change when blocks run out)."""
    gen = torch.Generator().manual_seed(400 + seed)
    rnd = lambda lo, hi: int(torch.randint(lo, hi, (), generator=gen))  # noqa: E731
    num_blocks, bs, h, d = rnd(3, 10), rnd(1, 6), rnd(1, 4), rnd(1, 5)
    cache = candidate.PagedKVCache(num_blocks, bs, h, d, dtype=dtype, device=device)
    free, tables, data = set(range(num_blocks)), {}, {}
    for _ in range(25):
        seq = rnd(0, 4)
        if seq in tables and rnd(0, 4) == 0:
            cache.free(seq)
            free |= set(tables.pop(seq))
            del data[seq]
        else:
            n = rnd(1, 2 * bs + 2)
            k = torch.randn(n, h, d, generator=gen).to(device=device, dtype=dtype)
            v = torch.randn(n, h, d, generator=gen).to(device=device, dtype=dtype)
            old = data[seq][0].shape[0] if seq in data else 0
            need = -(-(old + n) // bs) - len(tables.get(seq, []))
            if need > len(free):
                with pytest.raises(RuntimeError):
                    cache.append(seq, k, v)
            else:
                append(cache, seq, k, v)
                new = sorted(free)[:need]
                free -= set(new)
                tables[seq] = tables.get(seq, []) + new
                pk, pv = data.get(seq, (k[:0], v[:0]))
                data[seq] = (torch.cat([pk, k]), torch.cat([pv, v]))
        assert cache.num_free_blocks() == len(free), f"num_free_blocks {cache.num_free_blocks()}, want {len(free)}"
        for s_id, table in tables.items():
            assert cache.block_table(s_id) == table, (
                f"seq {s_id}: block table {cache.block_table(s_id)}, want {table} (lowest free block first, "
                "fill the last block before taking a new one)")
            assert cache.seq_len(s_id) == data[s_id][0].shape[0]
            gk, gv = cache.gather(s_id)
            assert torch.equal(gk, data[s_id][0]) and torch.equal(gv, data[s_id][1]), f"seq {s_id}: gathered K/V differ"
            pos = torch.arange(gk.shape[0])
            blocks = torch.tensor(table, dtype=torch.long)[pos // bs].to(cache.k_cache.device)
            assert torch.equal(cache.k_cache[blocks, (pos % bs).to(cache.k_cache.device)], data[s_id][0]), (
                f"seq {s_id}: token i must live at k_cache[table[i // block_size], i % block_size]")


def test_unknown_sequence(candidate, device):
    cache = candidate.PagedKVCache(4, 4, H, D, device=device)
    for method in (cache.gather, cache.free, cache.block_table, cache.seq_len):
        with pytest.raises(KeyError):
            method(123)


def benchmark_case(module, device):
    torch.manual_seed(0)
    h, d = 8, 64
    ks = [torch.randn(16, h, d, device=device) for _ in range(32)]

    def run():
        cache = module.PagedKVCache(1024, 16, h, d, device=device)
        for i, k in enumerate(ks):
            cache.append(i % 8, k, k)
        return [cache.gather(s) for s in range(8)]

    return run

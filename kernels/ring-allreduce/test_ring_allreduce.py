"""Hidden tests for the ring-allreduce drill (simulated reduce-scatter + all-gather).

Besides the sums, the byte counts and the summation order, the tests pass their own send(src, dst,
payload) link: every message is recorded and compared with the schedule's (sender, receiver, chunk
size, contents), and an altering link checks that receivers build their buffers from what they receive.
"""

from __future__ import annotations

from collections import Counter

import pytest
import torch

SHAPES = [(4, 6), (3, 5, 7), (2,)]  # numel 24 (divisible by most N), 105, 2 (< N for N > 2)


def make_inputs(n_ranks: int, shape, dtype: torch.dtype, device: str) -> list[torch.Tensor]:
    if dtype.is_floating_point and dtype != torch.bfloat16:
        return [torch.randn(shape, device=device, dtype=dtype) for _ in range(n_ranks)]
    # integers (and small integers stored as bf16) make every sum exact
    return [torch.randint(-8, 9, shape, device=device).to(dtype) for _ in range(n_ranks)]


def expected_bytes(n_ranks: int, numel: int, elem: int) -> list[int]:
    sizes = [c.numel() for c in torch.tensor_split(torch.empty(numel), n_ranks)]
    return [(2 * numel - sizes[(r + 1) % n_ranks] - sizes[(r + 2) % n_ranks]) * elem for r in range(n_ranks)]


@pytest.mark.parametrize("n_ranks", range(1, 9))
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.bfloat16])
def test_every_rank_gets_the_sum(candidate, device, seed, n_ranks, shape, dtype):
    xs = make_inputs(n_ranks, shape, dtype, device)
    before = [x.clone() for x in xs]
    results, sent = candidate.ring_allreduce(xs)
    for x, b in zip(xs, before):
        assert torch.equal(x, b), "ring_allreduce must not modify its input tensors"
    assert len(results) == n_ranks, f"expected {n_ranks} results, got {len(results)}"
    want = torch.stack([x.double() for x in xs]).sum(0)
    for r, res in enumerate(results):
        assert res.shape == xs[0].shape and res.dtype == dtype and res.device == xs[0].device, (
            f"rank {r}: result must keep shape/dtype/device {tuple(shape)}/{dtype}/{device}, "
            f"got {tuple(res.shape)}/{res.dtype}/{res.device}")
        torch.testing.assert_close(res, want.to(dtype), msg=lambda m: f"rank {r} does not hold the sum:\n{m}")
        assert torch.equal(res, results[0]), f"rank {r} differs from rank 0: all-gather must copy chunks"
        if res.numel():
            ptrs = {x.untyped_storage().data_ptr() for x in xs}
            assert res.untyped_storage().data_ptr() not in ptrs, f"rank {r}'s result aliases an input"


@pytest.mark.parametrize("n_ranks", range(1, 9))
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64])
def test_bytes_sent(candidate, device, n_ranks, shape, dtype):
    xs = make_inputs(n_ranks, shape, dtype, device)
    numel, elem = xs[0].numel(), xs[0].element_size()
    _, sent = candidate.ring_allreduce(xs)
    want = expected_bytes(n_ranks, numel, elem)
    assert list(sent) == want and all(isinstance(b, int) for b in sent), (
        f"N={n_ranks}, numel={numel}, {elem} B/elem: bytes_sent should be {want} (python ints), got {sent}")
    if numel % n_ranks == 0:
        assert all(b == 2 * (n_ranks - 1) * numel * elem // n_ranks for b in sent), \
            "when N divides numel every rank sends exactly 2(N-1)/N of the buffer"


@pytest.mark.parametrize("n_ranks", [2, 3, 5, 8])
def test_ring_summation_order(candidate, device, seed, n_ranks):
    xs = [torch.randn(37, device=device) * 10 ** torch.randint(-3, 4, (37,), device=device)
          for _ in range(n_ranks)]
    results, _ = candidate.ring_allreduce(xs)
    chunks = [torch.tensor_split(x, n_ranks) for x in xs]
    want = []
    for c in range(n_ranks):
        acc = chunks[c][c].clone()
        for i in range(1, n_ranks):
            acc = acc + chunks[(c + i) % n_ranks][c]
        want.append(acc)
    want = torch.cat(want)
    assert torch.equal(results[0], want), (
        "float32 sums are not in ring order: chunk c must accumulate as ((x_c + x_{c+1}) + x_{c+2}) + ..., "
        "i.e. at reduce-scatter step s rank r sends chunk (r - s) mod N to rank r + 1")


class Link:
    """A send() for the candidate: records every message; `alter` changes what the receiver gets."""

    def __init__(self, alter=None):
        self.messages, self.alter = [], alter

    def __call__(self, src, dst, payload):
        assert isinstance(payload, torch.Tensor), f"send's payload must be a tensor, got {type(payload).__name__}"
        p = payload.detach().clone()
        self.messages.append((int(src), int(dst), p))
        delivered = p.clone()
        return self.alter(int(src), delivered) if self.alter else delivered


def simulate(xs, link):
    """The schedule of the prompt, run through `link`; returns every rank's final flat buffer."""
    n_ranks = len(xs)
    bufs = [x.reshape(-1).clone() for x in xs]
    chunks = [torch.tensor_split(b, n_ranks) for b in bufs]
    for phase in ("reduce-scatter", "all-gather"):
        for s in range(n_ranks - 1):
            msgs = []
            for r in range(n_ranks):
                c = (r - s) % n_ranks if phase == "reduce-scatter" else (r + 1 - s) % n_ranks
                msgs.append((r, c, link(r, (r + 1) % n_ranks, chunks[r][c].clone())))
            for r, c, got in msgs:
                mine = chunks[(r + 1) % n_ranks][c]
                mine.add_(got) if phase == "reduce-scatter" else mine.copy_(got)
    return bufs


def key(message):
    src, dst, p = message
    return src, dst, p.dtype, p.numel(), p.reshape(-1).cpu().contiguous().view(torch.uint8).numpy().tobytes()


def check_messages(got, want, n_ranks, numel):
    got = [m for m in got if m[2].numel()]
    want = [m for m in want if m[2].numel()]
    for src, dst, p in got:
        assert 0 <= src < n_ranks and dst == (src + 1) % n_ranks, (
            f"N={n_ranks}: rank {src} sent to rank {dst}; a rank may only send to its ring neighbour (r + 1) mod N")
    count = lambda ms: Counter(m[0] for m in ms)  # noqa: E731
    assert count(got) == count(want), (
        f"N={n_ranks}, numel={numel}: messages (of >= 1 element) per sender should be {dict(count(want))}, "
        f"got {dict(count(got))}: 2(N-1) steps, one chunk per rank per step")
    sizes = lambda ms: sorted((m[0], m[2].numel()) for m in ms)  # noqa: E731
    assert sizes(got) == sizes(want), (
        f"N={n_ranks}, numel={numel}: message sizes (sender, elements) should be {sizes(want)}, got {sizes(got)}: "
        "each message is one whole chunk of torch.tensor_split(flat, N)")
    assert Counter(map(key, got)) == Counter(map(key, want)), (
        f"N={n_ranks}, numel={numel}: the messages carry the wrong values (or dtype): at reduce-scatter step s "
        "rank r sends its current chunk (r - s) mod N, at all-gather step s its chunk (r + 1 - s) mod N")


@pytest.mark.parametrize("n_ranks", range(1, 9))
@pytest.mark.parametrize("shape", [(4, 6), (3, 5, 7), (2,), (0,), (1, 1)])
def test_messages_follow_the_ring(candidate, device, seed, n_ranks, shape):
    xs = make_inputs(n_ranks, shape, torch.float32, device)
    link = Link()
    results, sent = candidate.ring_allreduce(xs, link)
    want = Link()
    simulate(xs, want)
    numel = xs[0].numel()
    check_messages(link.messages, want.messages, n_ranks, numel)
    by_sender = [sum(p.numel() * p.element_size() for s, _, p in link.messages if s == r) for r in range(n_ranks)]
    assert list(sent) == by_sender, (
        f"bytes_sent {list(sent)} does not match the bytes each rank passed to send() {by_sender}")
    assert list(sent) == expected_bytes(n_ranks, numel, 4), (
        f"N={n_ranks}, numel={numel}: bytes_sent should be {expected_bytes(n_ranks, numel, 4)}, got {list(sent)}")
    total = torch.stack([x.double() for x in xs]).sum(0).float() if xs[0].numel() else xs[0]
    for r, res in enumerate(results):
        torch.testing.assert_close(res, total, msg=lambda m: f"rank {r} does not hold the sum:\n{m}")


@pytest.mark.parametrize("n_ranks", [2, 3, 5, 8])
@pytest.mark.parametrize("shape", [(4, 6), (3, 5, 7)])
def test_receivers_use_what_they_receive(candidate, device, seed, n_ranks, shape):
    """An altering link: every message from rank r arrives with 1000 * (r + 1) added to it."""
    xs = make_inputs(n_ranks, shape, torch.int32, device)
    alter = lambda src, t: t + 1000 * (src + 1)  # noqa: E731
    link = Link(alter)
    results, _ = candidate.ring_allreduce(xs, link)
    want = simulate(xs, Link(alter))
    assert len(results) == n_ranks, f"expected {n_ranks} results, got {len(results)}"
    for r, res in enumerate(results):
        assert torch.equal(res.reshape(-1), want[r]), (
            f"N={n_ranks}: with a link that alters what it delivers, rank {r} must end with the values built from "
            "the tensors send() returned (add them in reduce-scatter, copy them in all-gather); it does not, so "
            "the result was not built from the messages")


def test_default_link_copies(candidate, device):
    xs = [torch.arange(6, device=device, dtype=torch.float32) * (i + 1) for i in range(3)]
    results, sent = candidate.ring_allreduce(xs, None)
    want = torch.arange(6, device=device, dtype=torch.float32) * 6
    assert all(torch.equal(r, want) for r in results), "send=None must deliver copies and give every rank the sum"
    assert list(sent) == expected_bytes(3, 6, 4)


def test_invalid_inputs(candidate, device):
    with pytest.raises(ValueError):
        candidate.ring_allreduce([])
    with pytest.raises(ValueError):
        candidate.ring_allreduce([torch.zeros(4, device=device), torch.zeros(5, device=device)])
    with pytest.raises(ValueError):
        candidate.ring_allreduce([torch.zeros(4, device=device), torch.zeros(2, 2, device=device)])
    with pytest.raises(ValueError):
        candidate.ring_allreduce([torch.zeros(4, device=device), torch.zeros(4, device=device, dtype=torch.float64)])


def benchmark_case(module, device):
    xs = [torch.randn(1 << 20, device=device) for _ in range(8)]
    return lambda: module.ring_allreduce(xs)

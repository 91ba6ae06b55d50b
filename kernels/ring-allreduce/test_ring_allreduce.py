"""Hidden tests for the ring-allreduce drill (simulated reduce-scatter + all-gather)."""

from __future__ import annotations

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


def test_invalid_inputs(candidate, device):
    with pytest.raises(ValueError):
        candidate.ring_allreduce([])
    with pytest.raises(ValueError):
        candidate.ring_allreduce([torch.zeros(4, device=device), torch.zeros(5, device=device)])


def benchmark_case(module, device):
    xs = [torch.randn(1 << 20, device=device) for _ in range(8)]
    return lambda: module.ring_allreduce(xs)

"""Hidden tests for the moe-router drill (top-k routing with capacity and dropping)."""

from __future__ import annotations

import math

import pytest
import torch


def reference(logits: torch.Tensor, k: int, cf: float):
    """Choice-by-choice loop, straight from the rules."""
    T, E = logits.shape
    C = math.ceil(cf * T * k / E)
    top, experts = logits.cpu().topk(k, dim=-1)
    gates = top.softmax(-1)
    dispatch = torch.zeros(T, E, C, dtype=torch.bool)
    combine = torch.zeros(T, E, C, dtype=logits.dtype)
    fill = [0] * E
    for j in range(k):
        for t in range(T):
            e = int(experts[t, j])
            if fill[e] < C:
                dispatch[t, e, fill[e]] = True
                combine[t, e, fill[e]] = gates[t, j]
            fill[e] += 1
    return dispatch, combine


def call(candidate, logits, k, cf):
    before = logits.clone()
    out = candidate.route(logits, k, cf)
    assert torch.equal(logits, before), "route must not modify the logits"
    assert isinstance(out, tuple) and len(out) == 2, "return (dispatch, combine)"
    dispatch, combine = out
    T, E = logits.shape
    C = math.ceil(cf * T * k / E)
    assert dispatch.shape == (T, E, C) and combine.shape == (T, E, C), (
        f"T={T}, E={E}, k={k}, capacity_factor={cf}: C = ceil(cf*T*k/E) = {C}, so outputs must be "
        f"{(T, E, C)}; got {tuple(dispatch.shape)} and {tuple(combine.shape)}")
    assert dispatch.dtype == torch.bool, f"dispatch must be bool, got {dispatch.dtype}"
    assert combine.dtype == logits.dtype, f"combine must have the logits' dtype {logits.dtype}, got {combine.dtype}"
    assert dispatch.device == logits.device and combine.device == logits.device, "outputs must be on the logits' device"
    return dispatch.cpu(), combine.cpu()


def check_against_reference(candidate, logits, k, cf, what):
    dispatch, combine = call(candidate, logits, k, cf)
    w_dispatch, w_combine = reference(logits, k, cf)
    if not torch.equal(dispatch, w_dispatch):
        got = dispatch.nonzero().tolist()
        want = w_dispatch.nonzero().tolist()
        raise AssertionError(f"{what}: wrong dispatch [token, expert, slot] entries\nwant {want}\ngot  {got}")
    torch.testing.assert_close(combine, w_combine, msg=lambda m: f"{what}: combine weights differ:\n{m}")


def test_prompt_example(candidate, device):
    logits = torch.tensor([[2.0, 0.0], [3.0, 1.0], [1.0, 0.0], [5.0, -1.0]], device=device)
    dispatch, combine = call(candidate, logits, 1, 1.0)
    want = torch.zeros(4, 2, 2, dtype=torch.bool)
    want[0, 0, 0] = want[1, 0, 1] = True
    assert torch.equal(dispatch, want), \
        f"tokens 0, 1 take expert 0's slots 0, 1; tokens 2, 3 are dropped. got {dispatch.nonzero().tolist()}"
    torch.testing.assert_close(combine, want.float(), msg=lambda m: "k = 1: a kept token's gate is 1.0:\n" + m)


def test_rank0_choices_win_over_earlier_rank1(candidate, device):
    # C = ceil(0.5 * 3 * 2 / 3) = 1. Rank-0 choices fill every expert; all rank-1 choices are dropped.
    logits = torch.tensor([[2.0, 1.0, -5.0], [-5.0, 2.0, 0.5], [0.0, -5.0, 3.0]], device=device)
    check_against_reference(candidate, logits, 2, 0.5,
                            "priority is (rank, token): token 1's first choice (expert 1) must beat "
                            "token 0's second choice (expert 1)")
    dispatch, combine = call(candidate, logits, 2, 0.5)
    assert torch.equal(dispatch.sum((1, 2)), torch.ones(3, dtype=torch.long)), "each token keeps exactly its first choice"
    first_gate = logits.cpu().topk(2, dim=-1).values.softmax(-1)[:, 0]
    torch.testing.assert_close(combine.sum((1, 2)), first_gate,
                               msg=lambda m: "dropped second choices must not be renormalised into the first:\n" + m)


def test_slots_fill_in_priority_order(candidate, device):
    # k = E = 2, C = ceil(0.5 * 4 * 2 / 2) = 2.
    logits = torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 0.5], [3.0, 1.0]], device=device)
    dispatch, combine = call(candidate, logits, 2, 0.5)
    want = {(0, 0, 0), (2, 0, 1), (1, 1, 0), (0, 1, 1)}
    got = {tuple(x) for x in dispatch.nonzero().tolist()}
    assert got == want, (f"rank 0: t0->e0 slot 0, t1->e1 slot 0, t2->e0 slot 1, t3 dropped; rank 1: t0->e1 slot 1, "
                         f"rest dropped. want {sorted(want)}, got {sorted(got)}")
    g0 = torch.tensor([1.0, 0.0]).softmax(0)
    torch.testing.assert_close(combine[0, :, :].sum(-1), g0, msg=lambda m: "token 0 keeps both gates:\n" + m)


@pytest.mark.parametrize("T, E, k", [(16, 4, 2), (33, 8, 1), (24, 8, 3), (10, 3, 3)])
@pytest.mark.parametrize("cf", [0.5, 1.0, 1.25])
def test_random_against_reference(candidate, device, seed, T, E, k, cf):
    logits = torch.randn(T, E, device=device) * 2
    check_against_reference(candidate, logits, k, cf, f"T={T}, E={E}, k={k}, cf={cf}")


@pytest.mark.parametrize("cf", [0.25, 1.0, 2.0])
def test_invariants(candidate, device, seed, cf):
    T, E, k = 40, 6, 2
    logits = torch.randn(T, E, device=device)
    dispatch, combine = call(candidate, logits, k, cf)
    C = dispatch.shape[-1]
    assert (dispatch.sum(0) <= 1).all(), "a slot of an expert holds at most one token"
    used = dispatch.any(0)  # (E, C)
    n = used.sum(-1)
    assert torch.equal(used, torch.arange(C)[None, :] < n[:, None]), "each expert fills its slots 0, 1, 2, ... in order"
    assert (n <= C).all(), f"no expert may exceed its capacity {C}"
    assert (dispatch.sum((1, 2)) <= k).all(), f"a token is dispatched at most k={k} times"
    assert (dispatch.sum(-1) <= 1).all(), "a token sits in at most one slot per expert"
    assert (combine[~dispatch] == 0).all(), "dropped / unused slots must carry zero combine weight"
    assert (combine[dispatch] > 0).all(), "every kept choice carries its (positive) gate"
    assert (combine.sum((1, 2)) <= 1 + 1e-6).all(), "a token's kept gates sum to at most 1"
    if cf * T * k / E >= T * k:  # capacity for everything: nothing dropped
        assert int(dispatch.sum()) == T * k


@pytest.mark.parametrize("T, E, k, cf", [(10, 1, 1, 1.1), (25, 5, 3, 2.2), (50, 10, 6, 1.1)])
def test_capacity_rounding(candidate, device, T, E, k, cf):
    # 1.1 * 10 * 1 / 1 == 11.000000000000002 and 2.2 * 25 * 3 / 5 == 33.00000000000001 in Python floats, so
    # C = 12 and 34; any other order of operations (cf * (T * k / E), ...) or a float32 ceil gives 11 / 33.
    logits = torch.randn(T, E, device=device)
    check_against_reference(candidate, logits, k, cf, f"T={T}, E={E}, k={k}, cf={cf}")


def test_single_token(candidate, device):
    logits = torch.tensor([[0.3, -1.0, 2.0, 0.1]], device=device)
    for k, cf in ((1, 1.0), (2, 0.5), (4, 1.0), (3, 0.1)):
        check_against_reference(candidate, logits, k, cf, f"T=1, E=4, k={k}, cf={cf}")


@pytest.mark.parametrize("dtype", [torch.float64, torch.bfloat16, torch.float16], ids=["f64", "bf16", "f16"])
def test_other_dtypes(candidate, device, seed, dtype):
    """Gates are softmaxed in the logits' dtype and combine has that dtype (float64: to ~1e-12)."""
    T, E = 37, 6
    # distinct values in every row (no ties even after rounding to 16 bits)
    logits = (torch.rand(T, E).argsort(-1).double() * 0.75 + 0.1 * torch.rand(T, E)).to(device=device, dtype=dtype)
    for k, cf in ((2, 1.25), (3, 0.5)):
        dispatch, combine = call(candidate, logits, k, cf)
        w_dispatch, w_combine = reference(logits, k, cf)
        assert torch.equal(dispatch, w_dispatch), f"{dtype} logits, k={k}, cf={cf}: wrong dispatch entries"
        tol = dict(rtol=1e-12, atol=1e-12) if dtype == torch.float64 else dict(rtol=1e-2, atol=1e-2)
        torch.testing.assert_close(combine, w_combine, **tol, msg=lambda m: (
            f"{dtype} logits: combine must hold the gates computed in {dtype} (softmax over the k chosen logits):\n" + m))


def test_many_tokens_low_precision(candidate, device):
    """Slot counters must be exact past 256 choices per expert (count in an integer dtype, not in bf16)."""
    T = 700
    g = torch.Generator().manual_seed(7)
    a = (0.5 + torch.rand(T, generator=g)) * torch.where(torch.rand(T, generator=g) < 0.8, 1.0, -1.0)
    logits = torch.stack([a, -a], dim=1).to(device=device, dtype=torch.bfloat16)
    check_against_reference(candidate, logits, 1, 1.0, "T=700 bf16 logits, E=2, k=1, C=350")


def test_non_contiguous_logits(candidate, device, seed):
    logits = (torch.randn(8, 30, device=device) * 2).T  # (30, 8), strides (1, 30)
    check_against_reference(candidate, logits, 2, 1.0, "non-contiguous (transposed) logits, T=30, E=8, k=2")


@pytest.mark.parametrize("k", [0, -1, 5, 9])
def test_invalid_k(candidate, device, k):
    with pytest.raises(ValueError):
        candidate.route(torch.randn(4, 4, device=device), k, 1.0)
        pytest.fail(f"E = 4: k = {k} must raise ValueError (need 1 <= k <= E)")


def benchmark_case(module, device):
    torch.manual_seed(0)
    logits = torch.randn(4096, 64, device=device)
    return lambda: module.route(logits, 2, 1.25)

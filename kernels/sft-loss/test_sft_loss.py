"""Hidden tests for the sft-loss drill (shifted next-token cross-entropy on response tokens only)."""

from __future__ import annotations

import math

import pytest
import torch

MASK_DTYPES = [torch.bool, torch.int64, torch.int32]


def expected(logits, input_ids, prompt_lengths, attention_mask):
    """float64 reference, target by target: (loss, number counted, list of counted (b, t))."""
    logp = torch.log_softmax(logits.detach().double().cpu(), -1)
    ids, P, mask = input_ids.cpu(), prompt_lengths.cpu(), attention_mask.cpu()
    total, counted = 0.0, []
    for b in range(ids.shape[0]):
        for t in range(1, ids.shape[1]):
            if t >= int(P[b]) and bool(mask[b, t]):
                total -= float(logp[b, t - 1, ids[b, t]])
                counted.append((b, t))
    return (total / len(counted) if counted else float("nan")), counted


def make_batch(g, B, T, V, device, dtype=torch.float32, mask_dtype=torch.bool, layout="contiguous",
               scale=3.0, empty_row=False):
    """Right-padded rows of random real lengths L_b in [1, T] (one row full), prompts 1 <= P_b <= L_b,
    padding holding random valid ids; layout: contiguous, sliced (a slice of a wider vocab) or transposed."""
    L = torch.randint(1, T + 1, (B,), generator=g)
    P = (torch.rand(B, generator=g) * L).long() + 1  # uniform in [1, L_b]
    full = int(torch.randint(1 if empty_row else 0, B, (), generator=g))  # a full row with a response
    L[full] = T
    P[full] = int(torch.randint(1, max(T, 2), (), generator=g))
    if empty_row:
        P[0] = L[0]
    ids = torch.randint(0, V, (B, T), generator=g)
    mask = (torch.arange(T)[None, :] < L[:, None]).to(mask_dtype)
    if layout == "sliced":  # a slice of a wider vocabulary
        base = (scale * torch.randn(B, T, V + 5, generator=g)).to(device=device, dtype=dtype)
        logits = base[:, :, 2:V + 2]
    elif layout == "transposed":  # produced time-major
        logits = (scale * torch.randn(T, B, V, generator=g)).to(device=device, dtype=dtype).transpose(0, 1)
    else:
        logits = (scale * torch.randn(B, T, V, generator=g)).to(device=device, dtype=dtype)
    return logits, ids.to(device), P.to(device), mask.to(device)


def call(candidate, logits, ids, P, mask):
    before = [t.detach().clone() for t in (logits, ids, P, mask)]
    out = candidate.sft_loss(logits, ids, P, mask)
    for name, t, b in zip(("logits", "input_ids", "prompt_lengths", "attention_mask"), (logits, ids, P, mask), before):
        assert torch.equal(t.detach(), b), f"sft_loss must not modify its inputs ({name} changed)"
    assert isinstance(out, torch.Tensor), f"return a tensor, got {type(out)}"
    assert out.dim() == 0, f"the loss must be a 0-dim tensor, got shape {tuple(out.shape)}"
    assert out.dtype == torch.float32, f"the loss must be float32 whatever the logits dtype, got {out.dtype}"
    assert out.device == logits.device, f"the loss must be on {logits.device}, got {out.device}"
    return out


def test_hand_computed(candidate, device):
    ln = math.log
    logits = torch.zeros(3, 4, 3)
    logits[0, 0] = torch.tensor([9.0, -9.0, 0.0])  # predicts a prompt token: must not count
    logits[0, 1] = torch.tensor([0.0, ln(3), 0.0])  # target id 1: p = 3/5
    logits[1, 0] = torch.tensor([0.0, 0.0, ln(2)])  # target id 2: p = 2/4
    logits[1, 1] = torch.tensor([ln(4), 0.0, 0.0])  # target id 0: p = 4/6
    logits[1, 2] = torch.tensor([0.0, ln(5), 0.0])  # target id 1: p = 5/7
    logits[2] = torch.tensor([[-9.0, 9.0, 0.0]] * 4)  # a row with an empty response: nothing counts
    logits[:, 3] = torch.tensor([7.0, -7.0, 3.0])  # the last position predicts nothing
    ids = torch.tensor([[2, 0, 1, 2], [1, 2, 0, 1], [0, 1, 2, 2]])
    P = torch.tensor([2, 1, 3])
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 0]], dtype=torch.bool)
    # counted: row 0 targets t=2,3 (nll log 5/3, log 3), row 1 t=1,2,3 (log 2, log 3/2, log 7/5), row 2 none
    want = math.log(21) / 5
    out = call(candidate, logits.to(device), ids.to(device), P.to(device), mask.to(device))
    assert out.item() == pytest.approx(want, rel=1e-6), (
        f"want log(21)/5 = {want:.6f} (5 response tokens over the batch, one token-level mean), got {out.item():.6f}; "
        f"a per-row mean gives {(math.log(5) / 2 + math.log(21 / 5) / 3) / 2:.6f}, no shift or a shifted mask other values")


@pytest.mark.parametrize("mask_dtype", MASK_DTYPES, ids=["bool", "int64", "int32"])
def test_random_batches(candidate, device, seed, mask_dtype):
    g = torch.Generator().manual_seed(10 * seed + MASK_DTYPES.index(mask_dtype))
    cases = [(1, 2, 5), (1, 9, 1), (3, 17, 33), (5, 24, 50), (4, 31, 7), (6, 12, 128)]
    for i, (B, T, V) in enumerate(cases):
        layout = ["contiguous", "sliced", "transposed"][i % 3]
        batch = make_batch(g, B, T, V, device, mask_dtype=mask_dtype, layout=layout, empty_row=(i % 2 == 1 and B > 1))
        want, counted = expected(*batch)
        out = call(candidate, *batch)
        assert out.item() == pytest.approx(want, rel=1e-5, abs=1e-6), (
            f"B={B}, T={T}, V={V}, prompt_lengths={batch[2].tolist()}, real lengths="
            f"{batch[3].long().sum(1).tolist()}, {layout} logits: want {want:.6f} (token-level mean over the "
            f"{len(counted)} response targets), got {out.item():.6f}")


def test_bfloat16_logits_computed_in_float32(candidate, device, seed):
    """Large bf16 logits: a log-softmax or sum done in bf16 is off by ~1e-3 relative, float32 by ~1e-7."""
    g = torch.Generator().manual_seed(100 + seed)
    for B, T, V in ((3, 16, 257), (1, 6, 1000), (2, 5, 64)):  # few counted tokens: rounding errors do not average out
        batch = make_batch(g, B, T, V, device, dtype=torch.bfloat16, scale=25.0,
                           layout=["contiguous", "sliced", "transposed"][seed])
        want, counted = expected(*batch)
        out = call(candidate, *batch)
        assert out.item() == pytest.approx(want, rel=1e-5), (
            f"bf16 logits (B={B}, T={T}, V={V}): want {want:.6f} (float64 of the same bf16 values), got "
            f"{out.item():.6f}: upcast to float32 before the log-softmax and the sum, not after")


def test_gradient(candidate, device, seed):
    g = torch.Generator().manual_seed(200 + seed)
    logits, ids, P, mask = make_batch(g, 4, 10, 11, device, empty_row=True)
    logits = logits.detach().clone().requires_grad_(True)
    out = call(candidate, logits, ids, P, mask)
    assert out.requires_grad, "the loss must be differentiable w.r.t. logits"
    out.backward()
    _, counted = expected(logits, ids, P, mask)
    soft = torch.softmax(logits.detach().double(), -1)
    want = torch.zeros_like(soft)
    for b, t in counted:
        want[b, t - 1] = soft[b, t - 1]
        want[b, t - 1, ids[b, t]] -= 1.0
    want /= len(counted)
    assert logits.grad is not None, "no gradient reached logits"
    wrong = (logits.grad.double() - want).abs().amax(-1) > 1e-6
    assert not wrong.any(), (
        f"dloss/dlogits must be (softmax - one_hot(target)) / N at each counted position t-1 (N = {len(counted)} "
        f"counted targets) and 0 elsewhere; wrong at (b, position) {wrong.nonzero().tolist()[:5]}")


@pytest.mark.parametrize("case", ["empty responses", "T == 1"])
def test_no_counted_token_raises(candidate, device, case):
    if case == "T == 1":
        logits, ids = torch.randn(2, 1, 5), torch.tensor([[1], [3]])
        P, mask = torch.tensor([1, 1]), torch.ones(2, 1, dtype=torch.bool)
    else:  # every row's prompt fills its real length: only prompt and padding targets
        logits, ids = torch.randn(2, 6, 5), torch.randint(0, 5, (2, 6))
        P, mask = torch.tensor([4, 6]), torch.tensor([[1, 1, 1, 1, 0, 0], [1] * 6], dtype=torch.bool)
    with pytest.raises(ValueError):
        out = candidate.sft_loss(logits.to(device), ids.to(device), P.to(device), mask.to(device))
        pytest.fail(f"{case}: no target counts, so sft_loss must raise ValueError, not return {out!r}")


def _benchmark_inputs(device):
    """Seeded bf16 logits (4, 512, 32000), ids, prompt lengths and right-padding mask for benchmark_case."""
    torch.manual_seed(0)
    B, T, V = 4, 512, 32000
    logits = torch.randn(B, T, V, device=device, dtype=torch.bfloat16)
    ids = torch.randint(0, V, (B, T), device=device)
    P = torch.randint(16, 256, (B,), device=device)
    L = torch.randint(256, T + 1, (B,), device=device)
    mask = torch.arange(T, device=device)[None, :] < L[:, None]
    return logits, ids, P, mask


def benchmark_case(module, device):
    logits, ids, P, mask = _benchmark_inputs(device)
    return lambda: module.sft_loss(logits, ids, P, mask)

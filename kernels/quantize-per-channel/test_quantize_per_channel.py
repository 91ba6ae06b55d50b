"""Hidden tests for the quantize-per-channel drill."""

from __future__ import annotations

import pytest
import torch

DTYPES = [torch.float32, torch.bfloat16, torch.float16]


def row_scale(w32: torch.Tensor, qmax: int) -> torch.Tensor:
    """(rows, 1) float32: row abs-max / qmax, 1.0 for an all-zero row."""
    absmax = w32.abs().amax(dim=1, keepdim=True)
    return torch.where(absmax > 0, absmax / qmax, torch.ones_like(absmax))


def reference(w: torch.Tensor, bits: int) -> tuple[torch.Tensor, torch.Tensor]:
    qmax = 2 ** (bits - 1) - 1
    w32 = w.float()
    scale = row_scale(w32, qmax)
    return torch.round(w32 / scale).clamp(-qmax, qmax).to(torch.int8), scale


def run(candidate, w: torch.Tensor, bits: int) -> tuple[torch.Tensor, torch.Tensor]:
    original = w.clone()
    out = candidate.quantize_per_channel(w, bits=bits)
    assert torch.equal(w, original), "quantize_per_channel modified its input w in place"
    assert isinstance(out, tuple) and len(out) == 2, "return a tuple (q, scale)"
    return out


def check_codes(q: torch.Tensor, w: torch.Tensor, scale: torch.Tensor, bits: int) -> None:
    """Codes must equal clamp(round(w/scale)); near a .5 tie either neighbour is accepted."""
    ref_q, _ = reference(w, bits)
    x = w.float() / scale
    near_tie = ((x - x.floor()) - 0.5).abs() < 1e-3
    diff = (q.long() - ref_q.long()).abs()
    bad = (diff > 0) & ~near_tie
    assert not bad.any(), (
        f"{int(bad.sum())} codes differ from clamp(round(w / scale), -qmax, qmax); "
        f"first at {tuple(bad.nonzero()[0].tolist())}"
    )
    assert (diff <= 1).all(), "codes differ by more than one step from round(w / scale)"


def check_bound(q: torch.Tensor, w: torch.Tensor, scale: torch.Tensor) -> None:
    err = (w.float() - q.float() * scale).abs()
    limit = scale * (0.5 + 1e-4) + 1e-30
    worst = (err / limit).max().item()
    assert worst <= 1.0, f"dequantization error exceeds scale/2 (worst ratio {worst:.4f})"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("bits", [8, 4])
def test_values_dtypes_shapes(candidate, device, seed, dtype, bits):
    w = (torch.randn(48, 200) * torch.rand(48, 1) * 3).to(device=device, dtype=dtype)
    q, scale = run(candidate, w, bits)
    qmax = 2 ** (bits - 1) - 1
    assert q.dtype == torch.int8, f"q must be int8, got {q.dtype}"
    assert scale.dtype == torch.float32, f"scale must be float32, got {scale.dtype}"
    assert q.shape == w.shape, f"q must have w's shape {tuple(w.shape)}, got {tuple(q.shape)}"
    assert scale.shape == (w.shape[0], 1), f"scale must have shape (rows, 1), got {tuple(scale.shape)}"
    assert q.device == w.device and scale.device == w.device, "outputs must be on w's device"
    _, ref_scale = reference(w, bits)
    torch.testing.assert_close(scale, ref_scale, msg=lambda m: "scale must be row abs-max / qmax (float32)\n" + m)
    assert int(q.min()) >= -qmax and int(q.max()) <= qmax, f"codes must lie in [-{qmax}, {qmax}]"
    check_codes(q, w, scale, bits)
    check_bound(q, w, scale)


def test_absmax_hits_qmax(candidate, device, seed):
    w = torch.randn(16, 64, device=device)
    q, _ = run(candidate, w, 8)
    idx = w.abs().argmax(dim=1, keepdim=True)
    assert (q.gather(1, idx).abs() == 127).all(), "the largest |w| in each row must map to code +-127"


def test_per_row_not_per_tensor(candidate, device, seed):
    mags = 10.0 ** torch.linspace(-3, 3, 7)
    w = (torch.randn(7, 128) * mags[:, None]).to(device)
    q, scale = run(candidate, w, 8)
    assert scale.shape == (7, 1), f"expected one scale per row, shape (7, 1); got {tuple(scale.shape)}"
    assert (q[0] != 0).sum() > 64, (
        "the 1e-3-magnitude row collapsed to zeros: one scale for the whole tensor? "
        "each row needs its own abs-max"
    )
    assert (q.abs().amax(dim=1) == 127).all(), "every row must use the full code range (its abs-max -> 127)"
    check_bound(q, w, scale)
    rel = (w - q.float() * scale).abs().amax(dim=1) / w.abs().amax(dim=1)
    assert (rel < 1 / 250).all(), f"relative error per row too large: {rel.tolist()}"


def test_zero_rows(candidate, device):
    w = torch.randn(6, 32, device=device)
    w[1] = 0.0
    w[4] = 0.0
    q, scale = run(candidate, w, 8)
    assert torch.isfinite(scale).all(), "all-zero rows produced a non-finite scale (0/0)"
    assert scale[1].item() == 1.0 and scale[4].item() == 1.0, "an all-zero row must get scale 1.0"
    assert (q[1] == 0).all() and (q[4] == 0).all(), "an all-zero row must get all-zero codes"
    check_codes(q, w, scale, 8)


@pytest.mark.parametrize("bits", [4, 2])
def test_low_bits(candidate, device, seed, bits):
    qmax = 2 ** (bits - 1) - 1
    w = torch.randn(32, 96, device=device)
    q, scale = run(candidate, w, bits)
    assert int(q.abs().max()) == qmax, f"with bits={bits} the codes must reach +-{qmax} and not exceed it"
    torch.testing.assert_close(
        scale, w.abs().amax(dim=1, keepdim=True) / qmax, msg=lambda m: f"bits={bits}: scale = absmax / {qmax}\n" + m
    )
    check_codes(q, w, scale, bits)
    check_bound(q, w, scale)


def test_exact_ties_round_half_to_even(candidate, device):
    """Rows with power-of-two scales whose values sit exactly on .5 ties: torch.round sends them to even."""
    w = torch.zeros(3, 10, device=device)
    w[0] = torch.tensor([127.0, -127.0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 126.5, -126.5])  # scale 1
    w[1] = torch.tensor([63.5, -63.5, 0.25, 0.75, 1.25, -0.25, -0.75, 62.25, 3.0, -1.0])  # scale 0.5
    q, scale = run(candidate, w, 8)
    assert scale.flatten().tolist() == [1.0, 0.5, 1.0], (
        f"scales should be [1.0, 0.5, 1.0] (abs-max / 127; 1.0 for the all-zero row), got {scale.flatten().tolist()}")
    want = torch.round(w / torch.tensor([[1.0], [0.5], [1.0]], device=device)).to(torch.int8)
    bad = (q != want).nonzero()
    assert not len(bad), (
        f"exact .5 ties must round half to even like torch.round: w[{tuple(bad[0].tolist())}] = "
        f"{w[tuple(bad[0])].item()} got code {int(q[tuple(bad[0])])}, want {int(want[tuple(bad[0])])}")
    w4 = torch.tensor([[7.0, -7.0, 6.5, -6.5, 3.5, -3.5, 0.5, -0.5, 2.5, 1.0]], device=device)  # 4 bits, scale 1
    q4, s4 = run(candidate, w4, 4)
    assert s4.item() == 1.0 and q4.tolist() == [[7, -7, 6, -6, 4, -4, 0, 0, 2, 1]], (
        f"4 bits, abs-max 7: scale 1 and ties to even [7, -7, 6, -6, 4, -4, 0, 0, 2, 1], got {s4.item()}, {q4.tolist()}")


@pytest.mark.parametrize("bits", [3, 5])
def test_noncontiguous_other_bits(candidate, device, seed, bits):
    """A transposed (non-contiguous) weight of odd shape, other bit widths."""
    g = torch.Generator().manual_seed(seed)
    w = (torch.randn(37, 11, generator=g) * (torch.rand(1, 11, generator=g) * 5 + 0.01)).to(device).t()
    q, scale = run(candidate, w, bits)
    qmax = 2 ** (bits - 1) - 1
    assert q.shape == w.shape and scale.shape == (11, 1), (
        f"q must have w's shape {tuple(w.shape)} and scale (11, 1); got {tuple(q.shape)}, {tuple(scale.shape)}")
    _, ref_scale = reference(w, bits)
    torch.testing.assert_close(scale, ref_scale, msg=lambda m: f"scale must be row abs-max / {qmax} per row\n" + m)
    assert int(q.abs().max()) <= qmax and (q.abs().amax(dim=1) == qmax).all(), (
        f"bits={bits}: every row's abs-max must map to +-{qmax} and no code may exceed it")
    check_codes(q, w, scale, bits)
    check_bound(q, w, scale)


def test_default_bits_is_8(candidate, device):
    w = torch.randn(4, 16, device=device)
    q, scale = candidate.quantize_per_channel(w)
    assert int(q.abs().max()) == 127, "the default must be bits=8 (qmax = 127)"


BENCH_N = {"cuda": 4096, "cpu": 1024}


def bench_inputs(device):
    """The seeded (n, n) float32 weight that benchmark_case and builtin_case both quantize."""
    torch.manual_seed(0)
    return torch.randn(BENCH_N[device], BENCH_N[device], device=device)


def benchmark_case(module, device):
    w = bench_inputs(device)
    return lambda: module.quantize_per_channel(w, 8)


def builtin_case(device):
    """The same 8-bit codes and scales: the abs-max reduction, then torch's fused per-channel quantizer.

    qint8 clamps to [-128, 127]; with scale = abs-max / 127 no code goes below -127. torch's quantizer
    multiplies by 1 / scale, so a value exactly halfway between two codes may round one code apart.
    """
    w = bench_inputs(device)
    zero_points = torch.zeros(w.shape[0], dtype=torch.long, device=device)

    def run():
        scale = row_scale(w, 127)
        q = torch.quantize_per_channel(w, scale.squeeze(1), zero_points, 0, torch.qint8)
        return q.int_repr(), scale

    return run


def bytes_moved(device):
    """Read w (4 bytes an element), write the int8 codes (1 byte) and one float32 scale a row."""
    n = BENCH_N[device]
    return n * n * (4 + 1) + n * 4

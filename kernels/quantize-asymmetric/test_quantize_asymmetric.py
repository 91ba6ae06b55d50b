"""Hidden tests for the quantize-asymmetric drill."""

from __future__ import annotations

import pytest
import torch

DTYPES = [torch.float32, torch.bfloat16, torch.float16]


def ref_params(w: torch.Tensor, bits: int, gs: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Reference (scale, exact unrounded -lo/scale) per group."""
    rows, cols = w.shape
    g = w.float().reshape(rows, cols // gs, gs)
    return group_params(g.amin(-1), g.amax(-1), 2**bits - 1)


def group_params(lo: torch.Tensor, hi: torch.Tensor, qmax: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(scale, exact unrounded -lo/scale) from each group's min and max, the range widened to hold 0."""
    lo, hi = lo.clamp(max=0.0), hi.clamp(min=0.0)
    span = hi - lo
    scale = torch.where(span > 0, span / qmax, torch.ones_like(span))
    return scale, -lo / scale


def expand(t: torch.Tensor, gs: int) -> torch.Tensor:
    return t.repeat_interleave(gs, dim=1)


def ref_dequant(q, scale, zp, gs):
    return (q.float() - expand(zp.float(), gs)) * expand(scale.float(), gs)


def run(candidate, w, bits, gs):
    original = w.clone()
    out = candidate.quantize_asymmetric(w, bits=bits, group_size=gs)
    assert torch.equal(w, original), "quantize_asymmetric modified its input w in place"
    assert isinstance(out, tuple) and len(out) == 3, "return a tuple (q, scale, zero_point)"
    return out


def check_all(w, q, scale, zp, bits, gs):
    rows, cols = w.shape
    qmax = 2**bits - 1
    assert q.dtype == torch.uint8, f"q must be uint8, got {q.dtype}"
    assert scale.dtype == torch.float32, f"scale must be float32, got {scale.dtype}"
    assert zp.dtype == torch.uint8, f"zero_point must be uint8, got {zp.dtype}"
    assert q.shape == (rows, cols), f"q must have shape {(rows, cols)}, got {tuple(q.shape)}"
    n_groups = cols // gs
    assert scale.shape == (rows, n_groups), f"scale must have shape {(rows, n_groups)}, got {tuple(scale.shape)}"
    assert zp.shape == (rows, n_groups), f"zero_point must have shape {(rows, n_groups)}, got {tuple(zp.shape)}"
    assert q.device == w.device and scale.device == w.device and zp.device == w.device, "outputs on w's device"
    assert int(q.max()) <= qmax, (
        f"codes above qmax = {qmax}: clamp round(w / scale) + zero_point to [0, qmax] (the group max can round "
        "one past it on a tie)")
    assert int(zp.max()) <= qmax, f"zero_points above qmax = {qmax}"
    ref_scale, zp_exact = ref_params(w, bits, gs)
    torch.testing.assert_close(
        scale, ref_scale, msg=lambda m: "scale must be (max(hi,0) - min(lo,0)) / (2**bits - 1) per group\n" + m
    )
    zp_ref = torch.round(zp_exact).clamp(0, qmax)
    zp_tie = ((zp_exact - zp_exact.floor()) - 0.5).abs() < 1e-3
    zd = (zp.float() - zp_ref).abs()
    assert not ((zd > 0) & ~zp_tie).any() and (zd <= 1).all(), "zero_point must be clamp(round(-lo / scale), 0, qmax)"
    x = w.float() / expand(scale, gs)
    ref_q = (torch.round(x) + expand(zp.float(), gs)).clamp(0, qmax)
    tie = ((x - x.floor()) - 0.5).abs() < 1e-3
    d = (q.float() - ref_q).abs()
    bad = (d > 0) & ~tie
    assert not bad.any(), (
        f"{int(bad.sum())} codes differ from clamp(round(w / scale) + zero_point, 0, qmax); "
        f"first at {tuple(bad.nonzero()[0].tolist())}"
    )
    assert (d <= 1).all(), "codes off by more than one step"
    err = (w.float() - ref_dequant(q, scale, zp, gs)).abs()
    worst = (err / (expand(scale, gs) * (0.5 + 1e-4))).max().item()
    assert worst <= 1.0, f"reconstruction error exceeds scale / 2 (worst ratio {worst:.4f})"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("bits,gs", [(4, 32), (8, 64), (4, 128), (3, 16)])
def test_values(candidate, device, seed, dtype, bits, gs):
    w = (torch.randn(24, 256) * torch.rand(24, 1) * 2 + torch.randn(24, 1) * 0.3).to(device=device, dtype=dtype)
    q, scale, zp = run(candidate, w, bits, gs)
    check_all(w, q, scale, zp, bits, gs)


@pytest.mark.parametrize("bits,gs", [(2, 8), (5, 48)])
def test_other_bits_and_noncontiguous(candidate, device, seed, bits, gs):
    """A transposed (non-contiguous) weight, bits and group sizes other than the defaults."""
    g = torch.Generator().manual_seed(seed)
    base = torch.randn(gs * 4, 10, generator=g) * (torch.rand(1, 10, generator=g) * 3 + 0.1)
    w = base.to(device).t()  # (10, gs * 4), strides (1, 10)
    q, scale, zp = run(candidate, w, bits, gs)
    check_all(w, q, scale, zp, bits, gs)
    deq = candidate.dequantize_asymmetric(q, scale, zp, gs)
    assert deq.dtype == torch.float32 and deq.shape == w.shape, "dequantize returns float32 (rows, cols)"
    torch.testing.assert_close(deq, ref_dequant(q, scale, zp, gs), msg=lambda m: (
        "dequantize must be (q - zero_point) * scale per group, computed in float32 (uint8 q - zero_point "
        "wraps around)\n" + m))


def test_exact_ties_round_half_to_even(candidate, device):
    """Groups with power-of-two scales whose values sit exactly on .5: torch.round sends ties to the even
    code (for the zero-point too), and the group max can round one past qmax before the clamp."""
    rows = [
        # bits=4: lo=-2.5, hi=12.5 -> scale 1, zero_point round(2.5) = 2
        [-2.5, 12.5, 0.5, 1.5, 2.5, 3.5, -0.5, -1.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5],
        # lo=-7.5, hi=7.5 -> scale 1, zero_point round(7.5) = 8; 7.5 -> 8 + 8 = 16, clamped to 15
        [-7.5, 7.5, -6.5, -5.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 0.0, -1.5, -2.5, -3.5],
        # lo=-1.25, hi=6.25 -> scale 0.5, zero_point round(2.5) = 2
        [-1.25, 6.25, 0.25, 0.75, 1.25, 1.75, -0.25, -0.75, 2.25, 3.25, 4.75, 5.25, 5.75, 0.0, 1.0, 2.0],
    ]
    w = torch.tensor(rows, device=device)
    q, scale, zp = run(candidate, w, 4, 16)
    want_scale = torch.tensor([[1.0], [1.0], [0.5]], device=device)
    assert torch.equal(scale, want_scale), f"scales should be exactly {want_scale.flatten().tolist()}, got {scale.flatten().tolist()}"
    assert zp.flatten().tolist() == [2, 8, 2], (
        f"zero_points should be [2, 8, 2] (torch.round(2.5) = 2, torch.round(7.5) = 8: ties go to even), "
        f"got {zp.flatten().tolist()}")
    want_q = (torch.round(w / want_scale) + torch.tensor([[2.0], [8.0], [2.0]], device=device)).clamp(0, 15)
    bad = (q.float() != want_q).nonzero()
    assert not len(bad), (
        f"exact .5 ties must round half to even (torch.round), then clamp to [0, 15]: at {tuple(bad[0].tolist())} "
        f"w={w[tuple(bad[0])].item()} got code {int(q[tuple(bad[0])])}, want {int(want_q[tuple(bad[0])])}")
    w8 = torch.tensor([[-127.5, 127.5] + [0.5 * k for k in range(-20, 18)]], device=device)  # scale 1, zp 128
    q8, s8, z8 = run(candidate, w8, 8, 40)
    assert s8.item() == 1.0 and z8.item() == 128, f"8 bits, range +-127.5: scale 1, zero_point 128; got {s8.item()}, {z8.item()}"
    want8 = (torch.round(w8) + 128).clamp(0, 255)
    assert torch.equal(q8.float(), want8), (
        "8 bits: codes must be clamp(round(w / scale) + zero_point, 0, 255) with ties to even; 127.5 -> 256 must "
        "clamp to 255 (not wrap to 0 in uint8)")


def test_one_sided_groups(candidate, device, seed):
    w = torch.rand(8, 128, device=device) + 0.5
    w[4:] = -w[4:]
    q, scale, zp = run(candidate, w, 4, 32)
    check_all(w, q, scale, zp, 4, 32)
    assert (zp[:4] == 0).all(), "all-positive groups: lo = min(min, 0) = 0, so zero_point must be 0"
    assert (zp[4:] == 15).all(), "all-negative groups: hi = max(max, 0) = 0, so zero_point must be qmax"


def test_constant_groups(candidate, device):
    w = torch.randn(4, 64, device=device)
    w[0, :16] = 0.37
    w[1, 16:32] = -2.0
    w[2, 32:48] = 0.0
    w[3, :] = 0.0
    q, scale, zp = run(candidate, w, 4, 16)
    assert torch.isfinite(scale).all() and (scale > 0).all(), "constant groups must give finite, positive scales"
    assert scale[2, 2].item() == 1.0 and scale[3].eq(1.0).all(), "an all-zero group must get scale 1.0"
    assert zp[2, 2].item() == 0 and (q[2, 32:48] == 0).all(), "an all-zero group must get zero_point 0 and codes 0"
    check_all(w, q, scale, zp, 4, 16)
    deq = candidate.dequantize_asymmetric(q, scale, zp, 16)
    torch.testing.assert_close(deq[0, :16], w[0, :16], msg=lambda m: "constant 0.37 group must round-trip\n" + m)
    torch.testing.assert_close(deq[1, 16:32], w[1, 16:32], msg=lambda m: "constant -2 group must round-trip\n" + m)
    assert (deq[2, 32:48] == 0).all() and (deq[3] == 0).all(), "all-zero groups must dequantize to 0"


def test_zero_is_exact(candidate, device, seed):
    w = torch.randn(16, 128, device=device) + 0.5
    mask = torch.rand(16, 128, device=device) < 0.2
    w[mask] = 0.0
    q, scale, zp = run(candidate, w, 4, 32)
    deq = candidate.dequantize_asymmetric(q, scale, zp, 32)
    assert (deq[mask] == 0).all(), "exact zeros must dequantize to exactly 0.0 (the range must include 0)"


def test_groups_are_independent(candidate, device, seed):
    w = torch.randn(8, 128, device=device)
    w[:, 5] = 1000.0
    q, scale, zp = run(candidate, w, 8, 32)
    check_all(w, q, scale, zp, 8, 32)
    ref_scale, _ = ref_params(w, 8, 32)
    assert (scale[:, 1:] < 0.1).all(), (
        "an outlier in group 0 changed the scale of other groups: groups are consecutive "
        "runs of group_size elements within a row"
    )
    torch.testing.assert_close(scale, ref_scale)


@pytest.mark.parametrize("bits,gs", [(4, 16), (8, 32)])
def test_dequantize_any_codes(candidate, device, seed, bits, gs):
    qmax = 2**bits - 1
    q = torch.randint(0, qmax + 1, (6, 96), device=device, dtype=torch.uint8)
    zp = torch.randint(0, qmax + 1, (6, 96 // gs), device=device, dtype=torch.uint8)
    scale = torch.rand(6, 96 // gs, device=device) + 0.01
    args = [t.clone() for t in (q, scale, zp)]
    out = candidate.dequantize_asymmetric(q, scale, zp, gs)
    assert all(torch.equal(a, b) for a, b in zip(args, (q, scale, zp))), "dequantize modified its inputs"
    assert out.dtype == torch.float32 and out.shape == q.shape, "dequantize returns float32 with q's shape"
    torch.testing.assert_close(
        out, ref_dequant(q, scale, zp, gs), msg=lambda m: "dequantize must be (q - zero_point) * scale per group\n" + m
    )


def test_bad_group_size(candidate, device):
    with pytest.raises(ValueError):
        candidate.quantize_asymmetric(torch.randn(4, 100, device=device), bits=4, group_size=32)


def test_defaults(candidate, device):
    w = torch.randn(4, 256, device=device)
    q, scale, zp = candidate.quantize_asymmetric(w)
    assert scale.shape == (4, 2), "default group_size must be 128"
    assert int(q.max()) <= 15, "default bits must be 4"


BENCH_N = {"cuda": 4096, "cpu": 1024}
BENCH_GROUP = 128


def bench_inputs(device):
    """The seeded (n, n) float32 weight that benchmark_case and builtin_case both quantize."""
    torch.manual_seed(0)
    return torch.randn(BENCH_N[device], BENCH_N[device], device=device)


def benchmark_case(module, device):
    w = bench_inputs(device)

    def run_once():
        q, s, z = module.quantize_asymmetric(w, 4, BENCH_GROUP)
        return q, s, z, module.dequantize_asymmetric(q, s, z, BENCH_GROUP)

    return run_once


def builtin_case(device):
    """The same 4-bit codes, scales, zero-points and dequantized weight through torch's quantizer.

    One aminmax pass gives every group's range; torch's fused per-channel quantizer (a group is a
    channel of the (groups, group_size) view) writes the codes, and dequantize() reads them back.
    quint8 clamps to [0, 255], not [0, 15]: a code passes 15 only if both roundings fall on exact ties.
    """
    w = bench_inputs(device)
    rows, cols = w.shape

    def run_once():
        groups = w.reshape(-1, BENCH_GROUP)
        scale, zero_exact = group_params(*torch.aminmax(groups, dim=1), 15)
        zero_point = zero_exact.round().clamp(0, 15)
        q = torch.quantize_per_channel(groups, scale, zero_point.long(), 0, torch.quint8)
        return (q.int_repr().reshape(rows, cols), scale.reshape(rows, -1),
                zero_point.to(torch.uint8).reshape(rows, -1), q.dequantize().reshape(rows, cols))

    return run_once


def bytes_moved(device):
    """quantize then dequantize, as benchmark_case runs them.

    quantize reads w (4 bytes an element) and writes the uint8 codes (1) plus a float32 scale and a
    uint8 zero-point per group (5); dequantize reads the codes (1) and the group parameters (5) and
    writes the float32 weight (4): 10 bytes an element and 10 a group.
    """
    n = BENCH_N[device]
    return n * n * 10 + (n * n // BENCH_GROUP) * 10

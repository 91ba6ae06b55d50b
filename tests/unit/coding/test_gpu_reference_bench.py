"""benchmarks/bench_gpu_references.py: its JSON, the weak-answer rule, and proof that every drill's
builtin_case does the same work as its benchmark_case (the same output from the same inputs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drill.coding.drills import find_drill
from drill.coding.sandbox.plugin import load_module

torch = pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[3]
BENCH = load_module(ROOT / "benchmarks" / "bench_gpu_references.py", "bench_gpu_references")
CUDA = torch.cuda.is_available()
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(not CUDA, reason="CUDA is not available"))]
MEMORY_BOUND = {
    "triton-vector-add",
    "triton-fused-softmax",
    "online-softmax",
    "quantize-per-channel",
    "quantize-asymmetric",
    "kv-cache-decode",
}
WITH_BUILTIN = MEMORY_BOUND | {"tiled-attention", "gqa-attention", "checkpoint-wrapper", "decoder-block"}
FAST = {"warmup": 1, "repeats": 3, "budget_s": 0.2}
# Every hidden-test module, imported at collection as pytest collects kernels/ (see BENCH.collect: the
# Triton ones set TRITON_INTERPRET without CUDA, for this process, as they do in any test run).
COLLECTED, NOT_IMPORTED = BENCH.collect()
HIDDEN = {drill.id: tests for drill, tests in COLLECTED}


def assert_same_output(reference, builtin, where: str = "output") -> None:
    """Floats within 1e-4 relative, or 1e-5 of the output's largest magnitude (softmax probabilities are
    tiny); integer codes equal but for a rare tie rounded one code apart."""
    if isinstance(reference, (tuple, list)):
        assert isinstance(builtin, (tuple, list)) and len(builtin) == len(reference), f"{where}: structure differs"
        for i, (a, b) in enumerate(zip(reference, builtin, strict=True)):
            assert_same_output(a, b, f"{where}[{i}]")
        return
    assert (builtin.shape, builtin.dtype) == (reference.shape, reference.dtype), f"{where}: shape or dtype differs"
    if reference.is_floating_point():
        atol = 1e-5 * reference.abs().max().item()
        torch.testing.assert_close(builtin, reference, atol=atol, rtol=1e-4, msg=lambda m: f"{where}: {m}")
    else:
        apart = (builtin.long() - reference.long()).abs()
        assert apart.max() <= 1 and (apart > 0).float().mean() <= 1e-4, f"{where}: integer codes differ"


def test_the_drills_with_a_builtin_are_the_expected_ones() -> None:
    assert all(
        drill_id.startswith("triton-") and row["error"].startswith("Skipped") for drill_id, row in NOT_IMPORTED.items()
    ), f"only Triton's absence may stop an import: {NOT_IMPORTED}"
    missing = set(NOT_IMPORTED)
    assert {drill_id for drill_id, tests in HIDDEN.items() if hasattr(tests, "builtin_case")} == WITH_BUILTIN - missing
    assert {drill_id for drill_id, tests in HIDDEN.items() if hasattr(tests, "bytes_moved")} == MEMORY_BOUND - missing


@pytest.mark.slow
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("drill_id", sorted(WITH_BUILTIN))
def test_builtin_case_does_the_same_work(drill_id: str, device: str) -> None:
    if drill_id in NOT_IMPORTED:
        pytest.skip(NOT_IMPORTED[drill_id]["error"])
    tests = HIDDEN[drill_id]
    if device == "cpu" and getattr(tests, "INTERPRET", True) is False:
        pytest.skip("compiled Triton kernels need CUDA tensors")
    solution = find_drill(ROOT / "kernels", drill_id).solution
    reference = load_module(solution, f"agreement_{drill_id.replace('-', '_')}")
    assert_same_output(tests.benchmark_case(reference, device)(), tests.builtin_case(device)())


def test_peak_bandwidth_by_gpu_name() -> None:
    assert BENCH.peak_hbm_bandwidth("NVIDIA H100 80GB HBM3") == 3.35e12
    assert BENCH.peak_hbm_bandwidth("NVIDIA H100 PCIe") == 2.0e12
    assert BENCH.peak_hbm_bandwidth("NVIDIA H200") == 4.8e12
    assert BENCH.peak_hbm_bandwidth("NVIDIA A100-SXM4-80GB") == 2.039e12
    assert BENCH.peak_hbm_bandwidth("NVIDIA A100 80GB PCIe") == 1.935e12
    assert BENCH.peak_hbm_bandwidth("NVIDIA A100-PCIE-40GB") == 1.555e12
    assert BENCH.peak_hbm_bandwidth("NVIDIA GeForce RTX 4090") is None


def test_the_weak_answer_rule() -> None:
    assert not BENCH.is_weak(1.0, None) and not BENCH.is_weak(0.85, 0.75)
    assert BENCH.is_weak(0.8, None), "slower than 1.2 x the built-in"
    assert BENCH.is_weak(1.5, 0.65), "memory-bound under 70 % of peak"


def test_a_cpu_report_has_times_and_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRILL_DEVICE", "cpu")
    result = BENCH.report("cpu", ["quantize-per-channel", "gqa-attention"], **FAST)
    json.dumps(result)
    assert result["cuda"] is False and set(result["drills"]) == {"quantize-per-channel", "gqa-attention"}
    memory_bound, compute = result["drills"]["quantize-per-channel"], result["drills"]["gqa-attention"]
    for row in (memory_bound, compute):
        assert row["reference_s"] > 0 and row["builtin_s"] > 0 and row["weak"] is None
        assert row["speed_vs_builtin"] == pytest.approx(row["builtin_s"] / row["reference_s"])
    assert memory_bound["fraction_of_peak"] is None
    achieved = memory_bound["bytes_moved"] / memory_bound["reference_s"] / 1e9
    assert memory_bound["achieved_GBps"] == pytest.approx(achieved)
    assert "achieved_GBps" not in compute
    table = BENCH.markdown(result)
    assert "| quantize-per-channel |" in table and "| gqa-attention |" in table


@pytest.mark.slow
@pytest.mark.skipif(CUDA, reason="checks the no-CUDA answer")
def test_without_cuda_it_says_so_and_exits_0(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("DRILL_DEVICE", "cpu")
    assert BENCH.main([]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["cuda"] is False and result["reason"] and "drills" not in result
    assert BENCH.main(["--cpu", "--drills", "quantize-per-channel"]) == 0
    assert set(json.loads(capsys.readouterr().out)["drills"]) == {"quantize-per-channel"}


@pytest.mark.skipif(not CUDA, reason="CUDA is not available")
def test_a_cuda_report_gives_bandwidth_and_a_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRILL_DEVICE", "cuda")
    result = BENCH.report("cuda", ["triton-vector-add", "tiled-attention"], **FAST)
    assert result["gpu"] and all(isinstance(row["weak"], bool) for row in result["drills"].values())
    if result["peak_hbm_Bps"] is not None:
        assert 0 < result["drills"]["triton-vector-add"]["fraction_of_peak"] < 1.5

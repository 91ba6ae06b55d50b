"""The model answers on a GPU: each drill's reference against the torch built-in doing the same work.

    python benchmarks/bench_gpu_references.py [--drills a,b,c] [--cpu] [--markdown]

For every drill whose hidden-test module defines builtin_case(device) (the same work as
benchmark_case, on the same seeded inputs, done by torch built-ins), on cuda:
  reference_s        median time of solution.py through benchmark_case (CUDA events)
  builtin_s          median time of builtin_case
  speed_vs_builtin   builtin_s / reference_s                     (> 1: the reference is faster)
and for the memory-bound drills (their test module defines bytes_moved(device), the fewest
bytes one call must read and write):
  achieved_GBps      bytes_moved / reference_s / 1e9
  fraction_of_peak   achieved bandwidth / the GPU's peak HBM bandwidth (null: a GPU not in PEAK_HBM)
  weak               speed_vs_builtin < 1 / 1.2, or fraction_of_peak < 0.7: tune the model answer,
                     or say in the drill's notes why it cannot get there
Without CUDA it prints {"cuda": false, "reason": ...} and exits 0; --cpu then runs the same on
the CPU to test the script (times only: no bandwidth verdict, weak is null). --markdown prints
the README table instead of JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from drill.coding.drills import Drill, load_drills  # noqa: E402
from drill.coding.sandbox.plugin import load_module  # noqa: E402
from drill.coding.sandbox.timing import median_seconds  # noqa: E402

# Peak HBM bandwidth in bytes/s by the words in torch.cuda.get_device_name(), first match wins
# (NVIDIA datasheets; the H100 SXM reports itself as "NVIDIA H100 80GB HBM3").
PEAK_HBM = (
    (("H200",), 4.8e12),
    (("H100", "PCIe"), 2.0e12),
    (("H100", "NVL"), 3.9e12),
    (("H100", "HBM3"), 3.35e12),
    (("H100", "SXM"), 3.35e12),
    (("A100", "80GB", "PCIe"), 1.935e12),
    (("A100", "80GB"), 2.039e12),
    (("A100", "40GB"), 1.555e12),
)
SLOWER_THAN_BUILTIN = 1.2  # a reference slower than 1.2 x the built-in is weak
MIN_FRACTION_OF_PEAK = 0.7  # a memory-bound reference below 70 % of peak HBM bandwidth is weak


def peak_hbm_bandwidth(gpu_name: str) -> float | None:
    """Peak HBM bytes/s of the GPU called `gpu_name`, or None for one not in PEAK_HBM."""
    name = gpu_name.lower()
    return next((peak for words, peak in PEAK_HBM if all(word.lower() in name for word in words)), None)


def is_weak(speed_vs_builtin: float, fraction_of_peak: float | None) -> bool:
    """The weak-model-answer rule: slower than 1.2 x the built-in, or memory-bound under 70 % of peak."""
    too_slow = speed_vs_builtin < 1 / SLOWER_THAN_BUILTIN
    return too_slow or (fraction_of_peak is not None and fraction_of_peak < MIN_FRACTION_OF_PEAK)


def collect(ids: list[str] | None = None) -> tuple[list[tuple[Drill, ModuleType]], dict[str, dict]]:
    """(drill, hidden-test module) of every chosen drill, and {"error": ...} for each that fails to import.

    All are imported before anything runs, as pytest collects: a Triton test module sets TRITON_INTERPRET
    on import (without CUDA), and that must come before any torch op (a checkpoint, say) imports triton.
    """
    collected, errors = [], {}
    for drill in load_drills(ROOT / "kernels"):
        if ids is None or drill.id in ids:
            try:
                collected.append((drill, load_module(drill.tests, f"gpu_bench_tests_{drill.id.replace('-', '_')}")))
            except (Exception, pytest.skip.Exception) as error:  # noqa: BLE001 - recorded; the others still run
                errors[drill.id] = {"error": f"{type(error).__name__}: {error}"}
    return collected, errors


def measure(tests: ModuleType, reference: ModuleType, device: str, peak: float | None, **timing) -> dict:
    """One drill's row; `timing` goes to median_seconds (warmup, repeats, budget_s)."""
    row = {
        "reference_s": median_seconds(tests.benchmark_case(reference, device), device, **timing),
        "builtin_s": median_seconds(tests.builtin_case(device), device, **timing),
    }
    row["speed_vs_builtin"] = row["builtin_s"] / row["reference_s"]
    fraction = None
    if hasattr(tests, "bytes_moved"):
        moved = tests.bytes_moved(device)
        fraction = moved / row["reference_s"] / peak if peak else None
        row.update(bytes_moved=moved, achieved_GBps=moved / row["reference_s"] / 1e9, fraction_of_peak=fraction)
    row["weak"] = is_weak(row["speed_vs_builtin"], fraction) if device == "cuda" else None
    return row


def report(device: str, ids: list[str] | None = None, **timing) -> dict:
    """The row of every drill with builtin_case on `device`; one that fails to run gets {"error": ...}."""

    header: dict = {"cuda": device == "cuda", "device": device}
    peak = None
    if device == "cuda":
        gpu = torch.cuda.get_device_name()
        peak = peak_hbm_bandwidth(gpu)
        header.update(gpu=gpu, peak_hbm_Bps=peak)
    collected, drills = collect(ids)
    for drill, tests in collected:
        if not hasattr(tests, "builtin_case"):
            continue
        try:
            reference = load_module(drill.solution, f"gpu_bench_reference_{drill.id.replace('-', '_')}")
            drills[drill.id] = measure(tests, reference, device, peak, **timing)
        except (Exception, pytest.skip.Exception) as error:  # noqa: BLE001 - one broken drill must not hide the others
            drills[drill.id] = {"error": f"{type(error).__name__}: {error}"}
        if device == "cuda":
            torch.cuda.empty_cache()
    return {**header, "drills": dict(sorted(drills.items()))}


def markdown(result: dict) -> str:
    """The README table of a report."""
    lines = [
        f"{result.get('gpu', result['device'])}:",
        "",
        "| drill | reference | torch built-in | speed vs built-in | achieved GB/s | of peak HBM | weak |",
        "|---|---|---|---|---|---|---|",
    ]
    for drill_id, row in result["drills"].items():
        if "error" in row:
            lines.append(f"| {drill_id} | {row['error']} | | | | | |")
            continue
        gbps = f"{row['achieved_GBps']:.0f}" if "achieved_GBps" in row else "–"
        fraction = f"{row['fraction_of_peak']:.0%}" if row.get("fraction_of_peak") is not None else "–"
        weak = {True: "**weak**", False: "no", None: "–"}[row["weak"]]
        lines.append(
            f"| {drill_id} | {row['reference_s'] * 1e3:.3f} ms | {row['builtin_s'] * 1e3:.3f} ms "
            f"| {row['speed_vs_builtin']:.2f}× | {gbps} | {fraction} | {weak} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drills", help="comma-separated drill ids (default: every drill with builtin_case)")
    parser.add_argument("--cpu", action="store_true", help="without CUDA, run the same on the CPU")
    parser.add_argument("--markdown", action="store_true", help="print the README table instead of JSON")
    args = parser.parse_args(argv)

    result: dict = {}
    device = "cuda"
    if not torch.cuda.is_available():
        result = {
            "cuda": False,
            "reason": f"torch sees no CUDA device (torch {torch.__version__}, CUDA build {torch.version.cuda})",
        }
        device = "cpu"
    if device == "cuda" or args.cpu:
        os.environ["DRILL_DEVICE"] = device  # what the runner sets: the Triton tests read it on import
        result.update(report(device, args.drills.split(",") if args.drills else None))
    print(markdown(result) if args.markdown and "drills" in result else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

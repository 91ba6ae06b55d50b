"""benchmarks/sim_readiness.py at a small size: simulated candidates study through drill's queue and
graders, sit a mock interview drawn as drill draws it, and the summary's figures are those of the
runs it prints (the full size is the benchmark: README, "Readiness that predicts the interview")."""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SPEC = importlib.util.spec_from_file_location("sim_readiness", ROOT / "benchmarks" / "sim_readiness.py")
assert SPEC is not None and SPEC.loader is not None
SIM = sys.modules.setdefault("sim_readiness", importlib.util.module_from_spec(SPEC))  # its dataclasses look it up
SPEC.loader.exec_module(SIM)


def figures(runs: list[dict], predicted: str, actual: str) -> dict:
    differences = [run[predicted] - run[actual] for run in runs]
    return {
        "n": len(runs),
        "mae": round(100 * statistics.fmean(abs(d) for d in differences), 2),
        "bias": round(100 * statistics.fmean(differences), 2),
        "within_5": round(sum(abs(d) <= 0.05 + 1e-9 for d in differences) / len(runs), 4),
    }


@pytest.mark.slow
def test_a_small_simulation_prints_its_runs_and_the_figures_they_give(capsys) -> None:
    assert SIM.main(["--candidates", "3", "--seed", "4", "--days", "14", "14"]) == 0  # both checkpoints one day
    result = json.loads(capsys.readouterr().out)
    assert list(result) == ["summary", "seconds", "runs"]
    runs = result["runs"]
    assert [run["candidate"] for run in runs] == [0, 1, 2]
    for run in runs:
        assert run["habit"] in SIM.HABITS and run["scheduler"] in SIM.SCHEDULERS and run["days"] == 14
        assert run["grades"] > 0  # they studied through the queue
        assert 0 <= run["low"] <= run["predicted"] <= run["high"] <= 1
        assert 0 <= run["expected"] <= 1 and 0 <= run["sitting"] <= 1
        assert {step["section"] for step in run["steps"]} <= {"grill", "pitch", "estimate", "coding"}
        for section, pair in run["sections"].items():  # the interview's figures are its steps' means
            steps = [step for step in run["steps"] if step["section"] == section]
            assert pair["expected"] == pytest.approx(statistics.fmean(step["expected"] for step in steps), abs=1e-3)
            assert pair["predicted"] == pytest.approx(statistics.fmean(step["predicted"] for step in steps), abs=1e-3)
        assert run["expected"] == pytest.approx(
            statistics.fmean(p["expected"] for p in run["sections"].values()), abs=1e-3
        )
    summary = result["summary"]
    assert summary["candidates"] == 3
    assert summary["interview"] == figures(runs, "predicted", "expected")
    assert summary["readiness"] == figures(runs, "readiness_predicted", "readiness_expected")
    sitting = figures(runs, "predicted", "sitting")
    covered = statistics.fmean(run["low"] <= run["sitting"] <= run["high"] for run in runs)
    assert summary["sitting"] == sitting | {"range_coverage": round(covered, 4)}
    for when in ("halfway", "week_before"):
        projection = summary["projection"][when]
        assert {key: projection[key] for key in ("n", "mae", "bias", "within_5")} == figures(
            runs, f"projected_{when}", "readiness_expected"
        )
    habits = {run["habit"] for run in runs}
    assert set(summary["by_habit"]) == habits
    for habit in habits:
        assert summary["by_habit"][habit] == figures([r for r in runs if r["habit"] == habit], "predicted", "expected")


def test_the_ground_truth_is_not_drills_memory_model() -> None:
    person = SIM.Person(0.0, 0.5, -1.0, 0.0, 20.0, 30.0, "daily", 14, "sm2")
    memory = SIM.Memory(person)
    assert memory.recall("grill-x", 0, bad=False) == pytest.approx(memory.first_sight("grill-x"))
    memory.learn("grill-x", 0, 0.2, recalled=False)
    strength = memory.strength["grill-x"]
    # Power-law forgetting: (1 + t / S) ** -k, k the person's decay; a bad day takes a quarter off.
    assert memory.recall("grill-x", 10, bad=False) == pytest.approx((1 + 10 / strength) ** -0.5)
    assert memory.recall("grill-x", 10, bad=True) == pytest.approx(0.75 * (1 + 10 / strength) ** -0.5)
    memory.learn("grill-x", 10, 0.5, recalled=True)
    assert memory.strength["grill-x"] > strength  # a pass after a gap strengthens it

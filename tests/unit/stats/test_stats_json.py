"""`drill stats --json`: the spine's keys unchanged, then every figure; and the human summary."""

from __future__ import annotations

import json

import pytest
from helpers.stats_history import TODAY, make_history, open_history

from drill.cli import main

SPINE = ["today", "items", "reviews_total", "due_today", "new_available", "interview_date", "days_left", "by_block"]
FIGURES = [
    "period",
    "period_label",
    "period_start",
    "block",
    "readiness",
    "load",
    "activity",
    "retention",
    "estimation",
    "mock_rounds",
    "mock_interviews",
    "coding",
    "pitch",
    "steering",
]


@pytest.fixture
def history(drill_home, tmp_path, clock, monkeypatch):
    paths = make_history(drill_home, tmp_path, clock)
    # `drill stats` opens the study itself: give it the history's content folders and clock.
    import drill.study

    real_open = drill.study.Study.open.__func__
    monkeypatch.setattr(drill.study.Study, "open", classmethod(lambda cls, *a, **k: real_open(cls, paths, clock)))
    return paths


def run(capsys, *argv: str) -> dict:
    assert main(["stats", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_spine_keys_come_first_and_unchanged(history, clock, capsys) -> None:
    figures = run(capsys)
    assert list(figures)[: len(SPINE)] == SPINE
    assert list(figures)[len(SPINE) :] == FIGURES
    study = open_history(history, clock)
    try:
        spine = json.loads(json.dumps(study.browsing.home().model_dump(mode="json"), default=str))
    finally:
        study.close()
    assert {key: figures[key] for key in SPINE} == spine
    assert figures["reviews_total"] == 12 and figures["today"] == TODAY.isoformat()
    assert set(figures["by_block"]) == {"memory", "compute", "inference", "training", "communication"}
    assert all({"items", "due", "reviews"} <= set(block) for block in figures["by_block"].values())


def test_every_figure_is_there(history, capsys) -> None:
    figures = run(capsys)
    assert figures["period"] == "30" and figures["block"] is None and figures["period_start"] == "2026-10-24"
    ready = figures["readiness"]
    assert ready["target_day"] == "2026-11-22" and (ready["items"], ready["seen"], ready["mature"]) == (13, 7, 2)
    assert ready["by_block"]["inference"] == {
        "items": 3,
        "seen": 1,
        "mature": 0,
        "due": 1,
        "recall": round(0.9**10, 4),
        "expected": 0.1162,
        "coverage": 0.3333,  # 0.9^10 / 3 = 0.11622…, shares rounded down
        "weakest": [
            {"topic": "Batching", "seen": 0, "items": 1, "recall": None, "expected": 0.0},
            {"topic": "KV cache size", "seen": 0, "items": 1, "recall": None, "expected": 0.0},
            {"topic": "Decoding", "seen": 1, "items": 1, "recall": 0.3487, "expected": 0.3486},  # 0.34867…
        ],
    }
    assert 0 < ready["expected"] < ready["recall"] and ready["coverage"] == 0.5384  # 7/13 = 0.53846…, rounded down
    assert [t["topic"] for t in ready["weakest_topics"]][:2] == ["Arithmetic intensity of a matmul", "online softmax"]
    calibration = ready["calibration"]  # R1, R2, R3, R5, R9: each on its due day, predicted 0.9; R2 failed
    assert (calibration["reviews"], calibration["passed"], calibration["brier"]) == (
        5,
        4,
        round((4 * 0.01 + 0.81) / 5, 4),
    )
    assert [b["reviews"] for b in calibration["bins"]] == [0, 0, 0, 0, 5]
    assert calibration["bins"][-1] == {"low": 0.9, "high": 1.0, "reviews": 5, "predicted": 0.9, "actual": 0.8}
    load = figures["load"]
    assert load["today"] == {
        "due": 3,
        "overdue": 1,
        "brought_forward": 0,
        "new": 4,
        "done": 1,
        "seconds_done": 12.0,
        "minutes_left": 2.6,
    }
    assert load["plan"] is None  # no interview date
    assert len(load["forecast"]) == 30 and load["forecast"][0] == {"day": "2026-11-22", "due": 3}
    assert load["unseen"] == 4
    activity = figures["activity"]
    assert activity["heatmap"]["start"] == "2025-11-23" and sum(activity["heatmap"]["reviews"]) == 11
    assert activity["streak"] == {
        "current": 4,
        "longest": 4,
        "longest_start": "2026-11-19",
        "longest_end": "2026-11-22",
        "days_studied": 7,
    }
    assert (activity["reviews"], activity["seconds"], activity["active_days"]) == (10, 227.0, 5)
    assert len(activity["per_day"]["reviews"]) == len(activity["per_day"]["seconds"]) == 30
    assert figures["retention"]["30"] == {
        "young": {"reviews": 2, "passed": 2, "rate": 1.0},
        "mature": {"reviews": 3, "passed": 2, "rate": 0.6667},
    }
    assert set(figures["retention"]) == {"7", "30", "365"}
    estimation = figures["estimation"]
    assert estimation["attempts"] == 7 and estimation["median_log_error"] == 0.3
    assert estimation["families"][0]["family"] == "kv-cache" and estimation["families"][0]["slips"][0]["count"] == 2
    assert estimation["trend"]["bucket_days"] == 1 and len(estimation["trend"]["points"]) == 30
    assert figures["mock_rounds"]["count"] == 2 and figures["mock_rounds"]["rounds"][0]["abandoned"] is True
    assert figures["coding"]["pass_rate"] == round(2 / 3, 4)
    assert figures["coding"]["drills"][1] == {
        "drill": "online-softmax",
        "block": "compute",
        "topic": "online softmax",
        "budget_s": 900,
        "attempts": 2,
        "runs": 5,
        "passed": 1,
        "pass_rate": 0.5,
        "best_s": 700.0,
        "last_s": 400.0,
        "last_passed": False,
        "hints": 3,
    }
    assert [rung["target_s"] for rung in figures["pitch"]] == [30, 120, 300]
    assert figures["pitch"][0]["within_target"] == 1 and figures["pitch"][0]["median_s"] == 32.5


def test_period_and_block_options(history, capsys) -> None:
    figures = run(capsys, "--period", "all", "--block", "memory")
    assert figures["period"] == "all" and figures["block"] == "memory"
    assert list(figures["readiness"]["by_block"]) == ["memory"]
    assert figures["period_start"] == "2026-10-13"  # the first review of a memory item
    assert figures["activity"]["reviews"] == 7  # R7, R5, R1, R2 and three pitches
    assert figures["estimation"]["attempts"] == 0
    assert run(capsys, "--period", "7")["activity"]["reviews"] == 8


def test_a_bad_period_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["stats", "--period", "12"])


def test_the_human_summary(history, capsys) -> None:
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("13 items, 12 reviews, 3 due today, 4 new available\nlast 30 days · all blocks\n")
    assert "streak 4 days (longest 4)" in out
    assert "inference          3     1      0     1     35%       12%" in out
    assert "all               13     7      2     3     87%       47%" in out
    assert "weakest: Arithmetic intensity of a matmul (compute) unseen, online softmax (compute) unseen" in out
    assert (
        "calibration (last 30 days, sm2): 5 reviews, Brier 0.170 (0 perfect, 0.25 a coin flip); "
        "predicted 90%, passed 80%"
    ) in out
    assert "true retention (mature): 7d 50% of 2 · 30d 67% of 3 · 365d 75% of 4" in out
    assert "coding: 2 of 2 drills tried, 2/3 attempts passed, 3 hints" in out
    assert "pitch: 0:30 50% in time (median 0:32)" in out


def test_the_human_summary_of_a_fresh_home(capsys) -> None:
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "0 reviews" in out and "streak 0 days" in out

"""benchmarks/bench_scale.py runs end to end on a small store: drill and the same history in a real
Anki collection, each figure with its same-run baseline and ratio, as JSON."""

from __future__ import annotations

import importlib
import json
import os
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from drill.config import Config
from drill.days import study_day, utc_now

pytest.importorskip("anki")

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_scale.py"
FIGURES = (  # each drill figure, its baseline and their ratio
    ("queue_build_drill_ms_median", "queue_build_anki_ms_median", "queue_build_ratio_to_anki"),
    ("answer_drill_ms_median", "answer_anki_ms_median", "answer_ratio_to_anki"),
    ("optimize_drill_s", "optimize_anki_s", "optimize_ratio_to_anki"),
    ("stats_json_process_ms_median", "baseline_import_sqlalchemy_ms_median", "stats_json_ratio_to_baseline"),
    ("stats_json_process_ms_median", "stats_json_process_fresh_home_ms_median", "stats_json_ratio_to_fresh_home"),
    ("home_counts_drill_ms_median", "home_counts_fresh_home_ms_median", "home_counts_ratio_to_fresh_home"),
)


@pytest.mark.slow
def test_a_small_run_prints_every_figure_with_its_baseline_and_ratio(tmp_path) -> None:
    home = tmp_path / "home"
    command = [sys.executable, str(BENCH), "--items", "200", "--reviews", "6000", "--runs", "2", "--answers", "3"]
    result = subprocess.run(
        command, env={**os.environ, "DRILL_BENCH_HOME": str(home)}, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["anki_revlog"] == figures["reviews"] == 6000 and figures["anki_cards"] > 200
    assert figures["queue_drill_items"] > 0 and figures["queue_anki_cards"] > 0
    assert figures["answers_drill"] == figures["answers_anki"] == 3
    assert figures["answer_floor_reviews_written"] == 3 and figures["answer_floor_ms_median"] > 0  # the same writes
    assert figures["answer_anki_synchronous"] == 2  # FULL, as drill's: both commits reach the disk
    assert figures["optimize_drill_optimizer"] == "fsrs-rs" and figures["optimize_drill_reviews"] > 0
    assert figures["optimize_drill_log_loss_fitted"] <= figures["optimize_drill_log_loss_default"]
    for drill, baseline, ratio in FIGURES:
        assert figures[drill] > 0 and figures[baseline] > 0, (drill, baseline)
        assert figures[ratio] == pytest.approx(figures[drill] / figures[baseline], rel=0.1), ratio  # unrounded


def test_the_recent_only_baseline_keeps_the_last_days_and_their_counters(tmp_path, monkeypatch) -> None:
    """bench_scale's second baseline: the store cut to its last days, whose day counters still add up."""
    monkeypatch.syspath_prepend(str(BENCH.parent))
    bench_scale = importlib.import_module("bench_scale")
    large_home = importlib.import_module("large_home")
    home = tmp_path / "home"
    large_home.build(home, items=60, reviews=3000)
    store = sqlite3.connect(home / "drill.db")
    before = store.execute("SELECT COUNT(*), MIN(study_day) FROM review").fetchone()
    reviewed = [date.fromisoformat(day) for (day,) in store.execute("SELECT DISTINCT study_day FROM review ORDER BY 1")]
    keep = (study_day(utc_now(), Config().rollover_hour) - reviewed[len(reviewed) // 2]).days + 1  # about half
    bench_scale.keep_recent(home, keep)
    first = store.execute("SELECT MIN(study_day) FROM review").fetchone()[0]
    kept = store.execute("SELECT COUNT(*) FROM review").fetchone()[0]
    days = store.execute("SELECT study_day, SUM(reviews) FROM review_day GROUP BY study_day ORDER BY 1").fetchall()
    recount = store.execute("SELECT study_day, COUNT(*) FROM review GROUP BY study_day ORDER BY 1").fetchall()
    store.close()
    assert 0 < kept < before[0] and first > before[1]
    assert date.fromisoformat(first) == reviewed[len(reviewed) // 2]
    assert days == recount  # the cut days' counters went with their reviews, the kept ones untouched

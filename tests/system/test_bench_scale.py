"""benchmarks/bench_scale.py runs end to end on a small store: drill and the same history in a real
Anki collection, each figure with its same-run baseline and ratio, as JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("anki")

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_scale.py"
FIGURES = {  # each drill figure → its baseline
    "queue_build_drill_ms_median": "queue_build_anki_ms_median",
    "answer_drill_ms_median": "answer_anki_ms_median",
    "optimize_drill_s": "optimize_anki_s",
    "stats_json_process_ms_median": "baseline_import_sqlalchemy_ms_median",
}
RATIOS = ("queue_build_ratio_to_anki", "answer_ratio_to_anki", "optimize_ratio_to_anki", "stats_json_ratio_to_baseline")


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
    for drill, baseline in FIGURES.items():
        assert figures[drill] > 0 and figures[baseline] > 0, (drill, baseline)
    for ratio, (drill, baseline) in zip(RATIOS, FIGURES.items(), strict=True):  # of the figures before rounding
        assert figures[ratio] == pytest.approx(figures[drill] / figures[baseline], rel=0.1), ratio

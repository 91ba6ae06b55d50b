"""benchmarks/bench_scale_open.py runs end to end on a small store: the same rows in an older drill's
schema, opened by the app to home's counts, against the up-to-date store, as JSON."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.slow
def test_a_small_run_opens_the_older_store_to_home_and_gives_the_ratio(tmp_path) -> None:
    home = tmp_path / "home"
    command = [sys.executable, str(BENCHMARKS / "bench_scale_open.py"), "--items", "100", "--reviews", "3000"]
    result = subprocess.run(
        [*command, "--runs", "1"],
        env={**os.environ, "DRILL_BENCH_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["old_reviews"] == figures["reviews"] > 0 and figures["old_items"] >= 100
    assert 0 < figures["old_store_home_first_paint_s_median"] < figures["old_store_home_counts_shown_s_median"]
    ratio = figures["old_store_home_counts_shown_s_median"] / figures["current_store_home_counts_shown_s_median"]
    assert figures["old_store_open_ratio_to_current"] == pytest.approx(ratio, rel=0.05)


def test_the_older_store_has_the_rows_in_the_older_schema(tmp_path, monkeypatch) -> None:
    """What the benchmark opens is an older drill's store: its revision, without the FSRS memory
    before each review (the backfill left to do), with every item and review of the store."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_scale_open
    import large_home

    current, old = tmp_path / "current", tmp_path / "old"
    large_home.build(current, items=20, reviews=300)
    figures = bench_scale_open.build_old(current, old)
    database = sqlite3.connect(old / "drill.db")
    try:
        assert database.execute("SELECT version_num FROM alembic_version").fetchone() == (
            bench_scale_open.OLD_REVISION,
        )
        review_columns = {row[1] for row in database.execute("PRAGMA table_info(review)")}
        assert "fsrs_stability_before" not in review_columns and "item_id" in review_columns
        assert figures["old_reviews"] == database.execute("SELECT COUNT(*) FROM review").fetchone()[0] == 300
        items = database.execute("SELECT COUNT(*) FROM item").fetchone()[0]
    finally:
        database.close()
    with sqlite3.connect(current / "drill.db") as database:
        assert items == figures["old_items"] == database.execute("SELECT COUNT(*) FROM item").fetchone()[0]

"""Opening a store an older drill wrote, at a million reviews: `drill` to home's counts. Prints JSON.

The store is bench_scale's (10,000 items, about a million reviews; DRILL_BENCH_HOME keeps it
between runs). The older store holds the same rows in the schema of revision OLD_REVISION, the
last before the FSRS memory before each review was stored: opening it runs every later revision
and leaves the memory of every review to fill in (the backfill, which the app does after home
shows). Each run opens a fresh copy of it in a fresh `drill` process (bench_startup's timed app)
and is set against the same app opening the up-to-date store, alternately, with the ratio; the
time until home first says a step of the open (its backup before the upgrade) is given too.

`--items N --reviews N` builds a small store instead, for the smoke test
(tests/system/test_bench_scale_open.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import bench_scale
import bench_startup

OLD_REVISION = "0006"  # 0007 added the FSRS memory before each review
# bench_startup's timed app, which also prints the time once home's first step of the open is on
# screen (between its first paint and its counts)
SAYS_STEPS = (
    """
import os, time
from drill.tui.screens.home import HomeScreen

show_step = HomeScreen.show_opening_step
def show_first_step_then_report(screen, words):
    show_step(screen, words)
    HomeScreen.show_opening_step = show_step
    screen.app.call_after_refresh(lambda: print(time.time() - float(os.environ["T0"]), flush=True))
HomeScreen.show_opening_step = show_first_step_then_report
"""
    + bench_startup.DRILL
)


def build_old(current: Path, old: Path) -> dict[str, int]:
    """A home at `old` whose database has `current`'s rows in the schema of OLD_REVISION (same
    content files and config): what an older drill left."""
    from alembic import command
    from sqlalchemy import create_engine

    from drill.store.migrations import alembic_config

    old.mkdir(parents=True)
    shutil.copytree(current / "decks", old / "decks")
    if (current / "config.toml").exists():
        shutil.copy(current / "config.toml", old / "config.toml")
    engine = create_engine(f"sqlite:///{old / 'drill.db'}")
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), OLD_REVISION)
    engine.dispose()
    database = sqlite3.connect(old / "drill.db")
    database.execute("ATTACH DATABASE ? AS current", (str(current / "drill.db"),))
    copied = {}
    tables = database.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'alembic_version'")
    for (table,) in tables.fetchall():
        columns = [row[1] for row in database.execute(f"PRAGMA main.table_info({table})")]
        kept = {row[1] for row in database.execute(f"PRAGMA current.table_info({table})")}
        names = ", ".join(column for column in columns if column in kept)
        copied[table] = database.execute(
            f"INSERT INTO main.{table} ({names}) SELECT {names} FROM current.{table}"
        ).rowcount
    database.execute(f"PRAGMA user_version = {int(OLD_REVISION)}")
    database.commit()
    database.close()
    return {"old_items": copied["item"], "old_reviews": copied["review"]}


def open_figures(current: Path, old: Path, runs: int) -> dict[str, Any]:
    """Home's counts shown (and home's first paint, and its first step of the open said) on a
    fresh copy of the older store, against the up-to-date store, `runs` times each, alternately
    (medians)."""
    counts, paints, steps, baseline = [], [], [], []
    work = Path(tempfile.mkdtemp(prefix="drill-bench-open-"))
    try:
        for run in range(runs):
            copy = work / f"old-{run}"
            shutil.copytree(old, copy)
            paint, step, shown = bench_startup.timed(SAYS_STEPS, str(copy))[:3]
            shutil.rmtree(copy)
            paints.append(paint)
            steps.append(step)
            counts.append(shown)
            baseline.append(bench_startup.timed(bench_startup.DRILL, str(current))[1])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    median = statistics.median
    return {
        "old_store_revision": OLD_REVISION,
        "old_store_home_first_paint_s_median": round(median(paints), 3),
        "old_store_first_progress_s_median": round(median(steps), 3),
        "old_store_home_counts_shown_s_median": round(median(counts), 3),
        "old_store_home_counts_shown_s_max": round(max(counts), 3),
        "current_store_home_counts_shown_s_median": round(median(baseline), 3),
        "old_store_open_ratio_to_current": round(median(counts) / median(baseline), 2),
        "target_old_store_home_counts_shown_s": 1.0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=bench_scale.FULL[0])
    parser.add_argument("--reviews", type=int, default=bench_scale.FULL[1])
    parser.add_argument("--runs", type=int, default=5, help="opens of each store")
    args = parser.parse_args(argv)
    keep = os.environ.get("DRILL_BENCH_HOME")
    home = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="drill-bench-scale-")) / "home"
    figures: dict[str, Any] = {"items": args.items}
    if not (home / "drill.db").exists():
        start = time.perf_counter()
        bench_scale.build(home, args.items, args.reviews)
        figures["build_drill_s"] = round(time.perf_counter() - start, 1)
    from drill.paths import Paths
    from drill.study import Study

    Study.open(Paths(home)).close()  # the current store up to date, its history work done
    store = sqlite3.connect(home / "drill.db")
    figures["reviews"] = store.execute("SELECT COUNT(*) FROM review").fetchone()[0]
    store.close()
    old = Path(tempfile.mkdtemp(prefix="drill-bench-old-")) / "home"
    try:
        start = time.perf_counter()
        figures.update(build_old(home, old))
        figures["build_old_s"] = round(time.perf_counter() - start, 1)
        figures.update(open_figures(home, old, args.runs))
    finally:
        shutil.rmtree(old.parent, ignore_errors=True)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

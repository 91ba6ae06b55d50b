"""Stats speed on 10,000 items and 1,000,000 reviews: the stats screen's data load and
`drill stats --json`, for each period and with a block filter. Prints JSON medians; the
`drill stats --json` process is set against a same-run baseline, a process that only imports
sqlalchemy, with the ratio (machines here differ about 3× in speed).

The items and the million reviews come from large_home.build; its reviews are then spread
over the last 1,000 days (large_home lays them 5 minutes apart from a year ago, which would put
most of them in the future) with realistic intervals, durations and buttons, and the history
gets estimation attempts, mock rounds, coding attempts and pitch reviews, all in SQL; each
review's quality, counted flag and the day of its before-state are then set as drill writes
them.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import large_home

SPREAD_DAYS = 1000
REVIEWS = 1_000_000


def build(home: Path, today: date | None = None) -> Path:
    """large_home's 10,000 items and 1,000,000 reviews, made into a plausible history."""
    import sqlite3

    today = today or datetime.now(UTC).astimezone().date()  # local on purpose: drill's due dates are local days
    large_home.build(home, reviews=REVIEWS * 17 // 16, today=today)  # a 17th of the days is then emptied
    now = datetime.now(UTC)
    step = SPREAD_DAYS * 86_400 / REVIEWS
    connection = sqlite3.connect(home / "drill.db")
    last_id = connection.execute("SELECT MAX(id) FROM review").fetchone()[0]
    # Every review moves into the past, in order; a day is skipped now and then (streaks end).
    connection.execute(
        """UPDATE review SET
            reviewed_at = strftime('%Y-%m-%dT%H:%M:%S+00:00', :now - (:last - id) * :step, 'unixepoch'),
            interval_before = abs(random()) % 70,
            duration_ms = 2000 + abs(random()) % 28000""",
        {"now": now.timestamp(), "last": last_id, "step": step},
    )
    connection.execute("UPDATE review SET study_day = date(reviewed_at, 'localtime', '-4 hours')")
    connection.execute("DELETE FROM review WHERE CAST(julianday(study_day) AS INTEGER) % 17 = 0")
    shipped = dict(connection.execute("SELECT id, kind FROM item WHERE id NOT LIKE 'bench-%'").fetchall())
    estimates = [i for i, kind in shipped.items() if kind == "estimate"]
    drills = [i for i, kind in shipped.items() if kind == "coding"]
    pitches = [i for i, kind in shipped.items() if kind == "pitch"]
    _history(connection, now, estimates, drills, pitches)
    _as_drill_writes_them(connection)
    connection.commit()
    connection.close()
    return home


def _history(connection, now: datetime, estimates: list[str], drills: list[str], pitches: list[str]) -> None:
    import random

    rng = random.Random(11)
    slips = [None, None, None, "forgot the 2 for K and V", "bits for bytes", "GB for GiB", "off by 1000"]
    rounds = []
    for n in range(300):
        started = now - timedelta(days=SPREAD_DAYS * (1 - n / 300))
        rounds.append(
            (
                started.isoformat(),
                (started + timedelta(minutes=12)).isoformat(),
                10,
                900,
                json.dumps(["memory", "compute"]),
                rng.random(),
                0,
            )
        )
    connection.executemany(
        """INSERT INTO mock_round (started_at, finished_at, problems, time_limit_s, blocks, score, abandoned)
        VALUES (?,?,?,?,?,?,?)""",
        rounds,
    )
    attempts = []
    for n in range(12_000):
        when = now - timedelta(seconds=rng.random() * SPREAD_DAYS * 86_400)
        log_error = abs(rng.gauss(0, 0.4))
        attempts.append(
            (
                rng.choice(estimates),
                rng.randint(1, 300) if n % 3 == 0 else None,
                when.isoformat(),
                "{}",
                "1 GB",
                1e9,
                1e9,
                "B",
                max(0.0, 1 - log_error),
                log_error,
                rng.choice(slips),
                None,
                rng.uniform(20, 200),
            )
        )
    connection.executemany(
        """INSERT INTO estimate_attempt (item_id, mock_round_id, attempted_at, params, answer, parsed, truth,
        unit, score, log_error, slip, error, seconds) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)""",
        attempts,
    )
    coding = []
    for n in range(3_000):
        when = now - timedelta(seconds=rng.random() * SPREAD_DAYS * 86_400)
        status = rng.choice(["pass", "fail", "fail", "error"])
        coding.append(
            (
                rng.choice(drills),
                when.isoformat(),
                when.isoformat(),
                status,
                3,
                1,
                "cpu",
                rng.randint(0, 3),
                rng.uniform(60, 1800),
                f"/tmp/w/{n // 3}",
            )
        )
    connection.executemany(
        """INSERT INTO coding_attempt (item_id, started_at, finished_at, status, passed, failed, device,
        hints_used, seconds, workspace) VALUES (?,?,?,?,?,?,?,?,?,?)""",
        coding,
    )
    pitch_reviews = []
    for _ in range(5_000):
        when = now - timedelta(seconds=rng.random() * SPREAD_DAYS * 86_400)
        day = (when.astimezone() - timedelta(hours=4)).date().isoformat()
        pitch_reviews.append(
            (
                rng.choice(pitches),
                when.isoformat(),
                day,
                rng.randint(1, 4),
                4,
                rng.randint(10_000, 400_000),
                1,
                2,
                10,
                2.5,
                3,
                25,
                2.5,
            )
        )
    connection.executemany(
        """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
        reps_before, interval_before, ease_before, reps_after, interval_after, ease_after)
        VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)""",
        pitch_reviews,
    )
    connection.execute("""UPDATE coding_attempt SET review_id = (SELECT MIN(id) FROM review) WHERE id % 2 = 0""")


def _as_drill_writes_them(connection) -> None:
    """Each review's quality, counted flag and the day of its before-state as drill writes them:
    the quality its button gives (sm2.BUTTON_QUALITY: the button plus one), counted when it is
    the item's first review of its study day, and a before-state with the day of the item's
    previous review (a same-day repeat's own day). Calibration measures the elapsed time of a
    prediction from that day; FSRS's memory moves by the quality's button."""
    connection.execute(
        """WITH ordered AS (
            SELECT id, LAG(study_day) OVER (PARTITION BY item_id ORDER BY reviewed_at, id) AS previous FROM review)
        UPDATE review SET quality = review.button + 1, last_day_before = ordered.previous,
            counted = (ordered.previous IS NULL OR ordered.previous != review.study_day)
        FROM ordered WHERE ordered.id = review.id"""
    )


def load_timings(home: Path, runs: int = 15) -> dict[str, float]:
    """The stats screen's worker load (drill.stats.load_report) for each period and a block."""
    from drill.paths import Paths
    from drill.stats.report import PERIODS, load_report
    from drill.store.stats.scope import period_key
    from drill.study import Study

    start = time.perf_counter()
    study = Study.open(Paths(home))  # the first open of a store an older drill wrote migrates it
    figures: dict[str, float] = {"first_open_s": round(time.perf_counter() - start, 1)}
    try:
        for period in PERIODS:
            for block in (None, "memory"):
                load_report(study, period, block)  # warm the page cache once
                times = []
                for _ in range(runs):
                    start = time.perf_counter()
                    load_report(study, period, block)
                    times.append((time.perf_counter() - start) * 1000)
                figures[f"screen_load_ms_median_{period_key(period)}_{block or 'all_blocks'}"] = round(
                    statistics.median(times), 1
                )
        figures.update(calibration_timing(study, runs))
        # Predicted recall and its calibration from FSRS (scheduler = "fsrs") instead of the SM-2
        # proxy: the whole load, and the calibration alone.
        study.config = study.config.model_copy(update={"scheduler": "fsrs"})
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            load_report(study)
            times.append((time.perf_counter() - start) * 1000)
        figures["screen_load_ms_median_30_all_blocks_fsrs_recall"] = round(statistics.median(times), 1)
        figures.update(calibration_timing(study, runs))
    finally:
        study.close()
    return figures


def calibration_timing(study, runs: int) -> dict[str, float]:
    """The readiness calibration alone (last 30 days, all blocks) with the study's scheduler, and
    what it found (the same whichever way the predictions are computed)."""
    from drill.stats.report import scope_for
    from drill.store.stats.calibration import calibration
    from drill.store.stats.sql import ensure_math

    scope = scope_for(study)
    times = []
    with study.engine.connect() as connection:
        ensure_math(connection)
        for _ in range(runs):
            start = time.perf_counter()
            found = calibration(connection, scope)
            times.append((time.perf_counter() - start) * 1000)
        connection.rollback()
    model = scope.scheduler
    return {
        f"calibration_ms_median_{model}": round(statistics.median(times), 1),
        f"calibration_{model}_reviews": found.reviews,
        f"calibration_{model}_brier": None if found.brier is None else round(found.brier, 9),
    }


def json_timings(home: Path, runs: int = 7) -> dict[str, float]:
    """`drill stats --json`: its parts in process (the figures, the spine's home counts, opening
    the study with its content sync), and the whole command in a fresh process."""
    from drill.paths import Paths
    from drill.stats.report import Stats, load_report
    from drill.study import Study

    opened, home_ms, figures_ms = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        study = Study.open(Paths(home))
        middle = time.perf_counter()
        summary = study.browsing.home()
        after_home = time.perf_counter()
        json.dumps(Stats(summary, load_report(study)).model_dump(mode="json"), default=str)
        end = time.perf_counter()
        study.close()
        opened.append((middle - start) * 1000)
        home_ms.append((after_home - middle) * 1000)
        figures_ms.append((end - after_home) * 1000)
    env = {**os.environ, "DRILL_HOME": str(home)}
    whole, baseline = [], []
    for _ in range(runs):  # interleaved, so both see the same machine load
        whole.append(_process_ms([sys.executable, "-m", "drill", "stats", "--json"], env))
        baseline.append(_process_ms([sys.executable, "-c", "import sqlalchemy"], env))
    whole_ms, baseline_ms = statistics.median(whole), statistics.median(baseline)
    return {
        "cli_json_figures_ms_median": round(statistics.median(figures_ms), 1),
        "cli_json_spine_home_ms_median": round(statistics.median(home_ms), 1),
        "cli_study_open_and_sync_ms_median": round(statistics.median(opened), 1),
        "cli_stats_json_process_ms_median": round(whole_ms, 1),
        "baseline_import_sqlalchemy_process_ms_median": round(baseline_ms, 1),
        "cli_stats_json_ratio_to_baseline": round(whole_ms / baseline_ms, 2),
    }


def _process_ms(command: list[str], env: dict[str, str]) -> float:
    """Wall time of one process, start to exit, in milliseconds."""
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    keep = os.environ.get("DRILL_BENCH_HOME")
    home = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="drill-bench-stats-")) / "home"
    figures: dict[str, object] = {"items": 10_000, "reviews": REVIEWS}
    if not (home / "drill.db").exists():
        start = time.perf_counter()
        build(home)
        figures["build_fixture_s"] = round(time.perf_counter() - start, 1)
    import sqlite3

    connection = sqlite3.connect(home / "drill.db")
    figures["reviews"] = connection.execute("SELECT COUNT(*) FROM review").fetchone()[0]
    connection.close()
    figures.update(load_timings(home))
    figures.update(json_timings(home))
    figures["target_ms"] = 300
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

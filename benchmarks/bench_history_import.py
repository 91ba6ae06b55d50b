"""History import speed: `drill import --history` of a review log of 1,000,000 rows (`--rows N`)
over the shipped content's items, into a fresh DRILL_HOME. Prints JSON.

The import runs as the real command in a child process, so its peak RSS is its own (os.wait4).
Its baseline, measured in the same run on a copy of the same fresh database: the floor any
import has to pay, a csv.reader over the same file and one sqlite3 executemany of its rows into
the review table (no checks, no schedules), with the ratio of the two times.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

DAYS = 3 * 365  # the log spans the last three years
BASELINE_INSERT = """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
    reps_before, interval_before, ease_before, reps_after, interval_after, ease_after, cram)
    VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0, 2.5, 0, 0, 2.5, ?)"""


def write_log(target: Path, item_ids: list[str], rows: int) -> None:
    """`rows` reviews of random items, oldest first, spread evenly over the last DAYS days."""
    from drill.interop.history_format import COLUMNS, CRAM, card_id

    rng = random.Random(21)
    cards = [card_id(item_id) for item_id in item_ids]
    end = int(datetime.now(UTC).timestamp() * 1000)
    start = end - DAYS * 86_400_000
    step = (end - start) / rows
    with target.open("w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow((*COLUMNS, CRAM))
        for n in range(rows):
            writer.writerow(
                (
                    rng.choice(cards),
                    start + int(n * step),
                    rng.choices((1, 2, 3, 4), (1, 2, 6, 1))[0],
                    rng.randint(800, 30_000),
                    0,
                )
            )


def baseline_seconds(database: Path, log: Path, item_ids: list[str]) -> float:
    """A csv.reader over `log` and one executemany of its rows into the review table of `database`."""
    from drill.interop.history_format import card_id

    items = {card_id(item_id): item_id for item_id in item_ids}
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    start = time.perf_counter()
    connection = sqlite3.connect(database)
    with log.open(newline="") as handle:
        reader = csv.reader(handle)
        next(reader)
        rows = []
        for card, ms, button, duration, cram in reader:
            moment = epoch + timedelta(milliseconds=int(ms))
            rows.append(
                (
                    items[int(card)],
                    moment.isoformat(),
                    moment.date().isoformat(),
                    int(button),
                    int(button) + 1,
                    int(duration),
                    int(cram),
                )
            )
    connection.executemany(BASELINE_INSERT, rows)
    connection.commit()
    connection.close()
    return time.perf_counter() - start


def grade_meanwhile(home: Path, child: subprocess.Popen, latencies: list[float]) -> None:
    """Grade a card every quarter second through the study layer, as the app does, while the
    import runs; each grade's time to commit goes into `latencies`."""
    from drill.paths import Paths
    from drill.study import Study
    from drill.study.writes import write_grade

    study = Study.open(Paths(home))
    try:
        ids = study.reviews.queue()
        while child.poll() is None and ids:
            started = time.perf_counter()
            card = study.reviews.cards([ids[len(latencies) % len(ids)]])[0]  # as stored now (the import moves it)
            write_grade(study, study.reviews.grade(card, 3, 1_000))
            latencies.append(time.perf_counter() - started)
            time.sleep(0.25)
    finally:
        study.close()


def timed_import(home: Path, log: Path, latencies: list[float] | None) -> tuple[float, float, dict]:
    """`drill import --history log --json` in a child: (seconds, peak RSS in MiB, its report); with
    `latencies`, grades are given meanwhile and their commit times kept there."""
    env = {**os.environ, "DRILL_HOME": str(home)}
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "drill", "import", "--history", str(log), "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    grader = None
    if latencies is not None:
        grader = threading.Thread(target=grade_meanwhile, args=(home, child, latencies))
        grader.start()
    out, err = child.stdout.read(), child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if grader is not None:
        grader.join()
    if child.returncode != 0:
        raise SystemExit(f"drill import failed ({child.returncode}): {err.decode()}")
    return seconds, usage.ru_maxrss / 1024, json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="reviews in the log (default 1,000,000)")
    parser.add_argument(
        "--grade-meanwhile",
        action="store_true",
        help="grade a card every 0.25 s through the study layer while the import runs",
    )
    arguments = parser.parse_args()
    rows = arguments.rows
    latencies: list[float] | None = [] if arguments.grade_meanwhile else None
    os.environ.setdefault("TZ", "UTC")
    folder = Path(tempfile.mkdtemp(prefix="drill-bench-history-"))
    try:
        home, log = folder / "home", folder / "history.csv"
        os.environ["DRILL_HOME"] = str(home)
        from drill.paths import Paths
        from drill.store import review_log
        from drill.study import Study

        study = Study.open(Paths(home))
        item_ids = review_log.item_ids(study.engine)
        study.close()
        write_log(log, item_ids, rows)
        fresh = folder / "fresh.db"
        shutil.copyfile(home / "drill.db", fresh)

        seconds, peak_mib, report = timed_import(home, log, latencies)
        floor = baseline_seconds(fresh, log, item_ids)
        print(
            json.dumps(
                {
                    "rows": rows,
                    "items": len(item_ids),
                    "log_mib": round(log.stat().st_size / 2**20, 1),
                    "added": report["added"],
                    "items_rebuilt": report["items_rebuilt"],
                    "import_s": round(seconds, 2),
                    "import_rows_per_s": round(rows / seconds),
                    "baseline_csv_executemany_s": round(floor, 2),
                    "baseline_rows_per_s": round(rows / floor),
                    "import_to_baseline_ratio": round(seconds / floor, 2),
                    "import_peak_rss_mib": round(peak_mib, 1),
                    "targets": {"import_rows_per_s": 50_000},
                    **(
                        {}
                        if latencies is None
                        else {
                            "grades_meanwhile": {
                                "given": len(latencies),
                                "median_commit_s": round(statistics.median(latencies), 3) if latencies else None,
                                "slowest_commit_s": round(max(latencies), 3) if latencies else None,
                            }
                        }
                    ),
                },
                indent=2,
            )
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

"""History import speed: `drill import --history` of a review log of 1,000,000 rows (`--rows N`)
over the shipped content's items, into a fresh DRILL_HOME. Prints JSON.

The import runs as the real command in a child process, so its peak RSS is its own: each child
is started and waited for (os.wait4) by a small process of this script (`--measure`), as a child
spawned by this large one would count this one's RSS as its own. Its baseline, measured in the
same run on a copy of the same fresh database, also in a child process of its own (`--baseline`,
which imports nothing of drill): the floor any import has to
pay, a csv.reader over the same file and one sqlite3 executemany of its rows into the review
table (no checks, no schedules), with the ratios of the two times and of the two peak RSS.
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


def baseline(database: Path, log: Path, cards: Path) -> None:
    """A csv.reader over `log` and one executemany of its rows into the review table of `database`
    (`cards`: JSON of card id to item id); run in a child process, so its peak RSS is its own."""
    items = {int(card): item_id for card, item_id in json.loads(cards.read_text()).items()}
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
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


def measure(usage: Path, command: list[str]) -> int:
    """Run `command` and write its peak RSS (MiB) and CPU seconds to `usage` as JSON; its exit code."""
    child = subprocess.Popen(command)
    _, status, used = os.wait4(child.pid, 0)
    usage.write_text(json.dumps({"rss_mib": used.ru_maxrss / 1024, "cpu_s": used.ru_utime + used.ru_stime}))
    return os.waitstatus_to_exitcode(status)


def measured(usage: Path, command: list[str], **popen: object) -> subprocess.Popen:
    """`command` started under `measure` (which writes its figures to `usage` once it ends)."""
    return subprocess.Popen([sys.executable, __file__, "--measure", str(usage), *command], **popen)


def figures(child: subprocess.Popen, usage: Path, what: str) -> tuple[float, float]:
    """(peak RSS in MiB, CPU seconds) of a `measured` child, waited for; a failure ends the benchmark."""
    err = child.stderr.read() if child.stderr else b""
    if child.wait() != 0:
        raise SystemExit(f"{what} failed ({child.returncode}): {err.decode()}")
    used = json.loads(usage.read_text())
    return used["rss_mib"], used["cpu_s"]


def timed_baseline(database: Path, log: Path, item_ids: list[str]) -> tuple[float, float, float]:
    """`baseline` in a child process: (seconds, peak RSS in MiB, CPU seconds)."""
    from drill.interop.history_format import card_id

    cards, usage = log.with_name("cards.json"), log.with_name("baseline-usage.json")
    cards.write_text(json.dumps({card_id(item_id): item_id for item_id in item_ids}))
    start = time.perf_counter()
    child = measured(
        usage, [sys.executable, __file__, "--baseline", str(database), str(log), str(cards)], stderr=subprocess.PIPE
    )
    rss, cpu = figures(child, usage, "the baseline")
    return time.perf_counter() - start, rss, cpu


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


def timed_import(home: Path, log: Path, latencies: list[float] | None) -> tuple[float, float, float, dict]:
    """`drill import --history log --json` in a child: (seconds, peak RSS in MiB, CPU seconds, its report); with
    `latencies`, grades are given meanwhile and their commit times kept there."""
    usage = log.with_name("import-usage.json")
    start = time.perf_counter()
    child = measured(
        usage,
        [sys.executable, "-m", "drill", "import", "--history", str(log), "--json"],
        env={**os.environ, "DRILL_HOME": str(home)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    grader = None
    if latencies is not None:
        grader = threading.Thread(target=grade_meanwhile, args=(home, child, latencies))
        grader.start()
    assert child.stdout is not None
    out = child.stdout.read()
    rss, cpu = figures(child, usage, "drill import")
    seconds = time.perf_counter() - start
    if grader is not None:
        grader.join()
    return seconds, rss, cpu, json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="reviews in the log (default 1,000,000)")
    parser.add_argument(
        "--grade-meanwhile",
        action="store_true",
        help="grade a card every 0.25 s through the study layer while the import runs",
    )
    parser.add_argument("--baseline", nargs=3, type=Path, metavar=("DB", "LOG", "CARDS"), help=argparse.SUPPRESS)
    parser.add_argument("--measure", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.measure:
        raise SystemExit(measure(Path(arguments.measure[0]), arguments.measure[1:]))
    if arguments.baseline:
        baseline(*arguments.baseline)
        return
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

        seconds, peak_mib, cpu, report = timed_import(home, log, latencies)
        floor, floor_mib, floor_cpu = timed_baseline(fresh, log, item_ids)
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
                    "import_cpu_s": round(cpu, 2),
                    "baseline_cpu_s": round(floor_cpu, 2),
                    "import_to_baseline_cpu_ratio": round(
                        cpu / floor_cpu, 2
                    ),  # steadier than wall time on a busy machine
                    "import_peak_rss_mib": round(peak_mib, 1),
                    "baseline_peak_rss_mib": round(floor_mib, 1),
                    "import_to_baseline_rss_ratio": round(peak_mib / floor_mib, 2),
                    "targets": {"import_to_baseline_ratio": 2.0, "import_to_baseline_rss_ratio": 2.0},
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

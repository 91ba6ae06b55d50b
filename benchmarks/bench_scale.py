"""Drill against Anki's own engine on the same collection at a million reviews. Prints JSON.

The store is bench_stats' (large_home's 10,000 cards and the shipped content, about a million
reviews spread over 1,000 days; DRILL_BENCH_HOME keeps it between runs); the same items and
history are then written into a real Anki collection with the `anki` library (AGPL: a test and
benchmark dependency only, never imported by drill): one Basic note per drill item, each reviewed
item's schedule into the cards table and every review into the revlog, with SQL. Each figure
comes with a same-run baseline and the ratio (drill / baseline; below 1 is faster than it):

- due queue build: drill's Study.reviews.queue() against Anki's get_queued_cards(), with its
  cached queues cleared before each build (both: 200 reviews and 15 new cards a day);
- answer one card (Good, on the card at the head of the queue): drill's grade and its write,
  until the writer has committed it (also: the grade alone, and until the write is journalled,
  when the app goes on), against Anki's scheduling states and answer_card (also committed: both
  databases run with synchronous = FULL; nothing listens to drill's engine while it is timed); and
  drill's floor: the statements drill sends for the same answers (made again, untimed, on a copy
  of the store), through sqlite3 alone on another copy, each answer one committed transaction;
- `drill scheduler optimize`, the whole process (with its peak memory), against Anki's FSRS
  optimizer (compute_fsrs_params, the same fsrs-rs) over the whole collection, the call alone;
  Anki's parameters are scored as drill scores its own (the log loss over every scored review);
- `drill stats --json`, the whole process, against a process that only imports sqlalchemy and
  against the same command on a fresh home (the same items, no history);
- the stats screen's period switch (its worker's load, drill.stats.report.load_report, given the
  figures shown before it, as the screen gives them) for each period, and home's counts
  (Study.browsing.home), each against the same on a fresh home (the same items, no history) and on
  the same store cut to its last 30 days of history (what the history before them costs).

`--items N --reviews N` builds a small store with large_home alone instead (reviews five
minutes apart within the last year), for the smoke test (tests/system/test_bench_scale.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).parent))

import bench_stats
import large_home

FULL = (10_000, bench_stats.REVIEWS)
NEW_PER_DAY, REVIEWS_PER_DAY = 15, 200  # drill's defaults, given to Anki's deck too
RECENT_DAYS = 30  # the second baseline of the stats figures: the same store with its last month of history only
ELSEWHERE = "Elsewhere"  # an empty deck: choosing it, then Default, clears Anki's cached queues


def build(home: Path, items: int, reviews: int) -> None:
    """The drill store: bench_stats' at full size, else a small large_home; either way with
    nothing reviewed today yet, so today's queue is a whole day's."""
    if (items, reviews) == FULL:
        bench_stats.build(home)
    else:
        large_home.build(home, items=items, reviews=reviews)
    leave_today_open(home)


def leave_today_open(home: Path) -> None:
    """Remove today's reviews (bench_stats lays a thousand a day up to now: the day's 200 would be done)."""
    from drill.config import Config
    from drill.days import study_day, utc_now

    today = study_day(utc_now(), Config().rollover_hour)
    store = sqlite3.connect(home / "drill.db")
    with store:
        store.execute("DELETE FROM review WHERE study_day >= ?", (today.isoformat(),))
    store.close()


def mirror_in_anki(home: Path, collection: Path) -> dict[str, int]:
    """Write the store's items and reviews into a new Anki collection at `collection`."""
    from anki.collection import AddNoteRequest, Collection

    from drill.config import Config
    from drill.days import study_day, utc_now

    store = sqlite3.connect(home / "drill.db")
    items = store.execute(
        "SELECT id, prompt, due_day, interval, easiness, repetitions FROM item ORDER BY id"
    ).fetchall()
    col: Any = Collection(str(collection))
    col.decks.id(ELSEWHERE)
    deck = col.decks.id("Default")
    config = col.decks.config_dict_for_deck_id(deck)
    config["new"]["perDay"], config["rev"]["perDay"] = NEW_PER_DAY, REVIEWS_PER_DAY
    col.decks.update_config(config)
    basic = col.models.by_name("Basic")
    requests = []
    for item_id, prompt, *_state in items:
        note = col.new_note(basic)
        note.fields[0], note.fields[1] = item_id, prompt
        requests.append(AddNoteRequest(note, deck))
    col.add_notes(requests)
    card_of = dict(col.db.all("SELECT n.flds, c.id FROM cards c JOIN notes n ON n.id = c.nid"))
    card_of = {fields.split("\x1f")[0]: card for fields, card in card_of.items()}
    anki_today = col.sched.today
    col.close()

    drill_today = study_day(utc_now(), Config().rollover_hour)
    lapses = dict(
        store.execute("SELECT item_id, COUNT(*) FROM review WHERE counted AND button = 1 GROUP BY item_id").fetchall()
    )
    reps = dict(store.execute("SELECT item_id, COUNT(*) FROM review GROUP BY item_id").fetchall())
    scheduled = [
        (
            anki_today + (date.fromisoformat(due_day) - drill_today).days,
            interval,
            int(easiness * 1000),
            reps.get(item_id, repetitions),
            lapses.get(item_id, 0),
            card_of[item_id],
        )
        for item_id, _prompt, due_day, interval, easiness, repetitions in items
        if due_day is not None
    ]
    revlog, last_id, seen = [], 0, set()
    for item_id, reviewed_at, button, interval, interval_before, duration in store.execute(
        "SELECT item_id, reviewed_at, button, interval_after, interval_before, duration_ms FROM review "
        "ORDER BY reviewed_at, id"
    ):
        last_id = max(last_id + 1, int(datetime.fromisoformat(reviewed_at).timestamp() * 1000))
        kind = 1 if item_id in seen else 0  # Anki's optimizer starts a card's history at its first learning step
        seen.add(item_id)
        revlog.append((last_id, card_of[item_id], button, interval or 0, interval_before or 0, duration or 0, kind))
    store.close()
    anki = sqlite3.connect(collection)
    anki.executemany(
        "UPDATE cards SET type = 2, queue = 2, due = ?, ivl = ?, factor = ?, reps = ?, lapses = ? WHERE id = ?",
        scheduled,
    )
    anki.executemany(
        "INSERT INTO revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) "
        "VALUES (?, ?, -1, ?, ?, ?, 2500, ?, ?)",
        revlog,
    )
    anki.commit()
    anki.close()
    return {"anki_cards": len(card_of), "anki_cards_in_review": len(scheduled), "anki_revlog": len(revlog)}


def _ratio(drill: float, baseline: float) -> float:
    return round(drill / baseline, 2)


def queue_figures(home: Path, collection: Path, runs: int) -> dict[str, Any]:
    """Building today's queue, drill's and Anki's, each `runs` times (medians)."""
    from anki.collection import Collection

    from drill.paths import Paths
    from drill.study import Study

    study = Study.open(Paths(home))
    drill_ms = []
    try:
        for _ in range(runs):
            start = time.perf_counter()
            ids = study.reviews.queue()
            drill_ms.append((time.perf_counter() - start) * 1000)
    finally:
        study.close()
    col: Any = Collection(str(collection))
    anki_ms = []
    try:
        deck, elsewhere = col.decks.id("Default"), col.decks.id(ELSEWHERE)
        for _ in range(runs):
            col.decks.set_current(elsewhere)
            col.decks.set_current(deck)  # another current deck: Anki drops its cached queues
            start = time.perf_counter()
            queued = col.sched.get_queued_cards(fetch_limit=1)
            anki_ms.append((time.perf_counter() - start) * 1000)
    finally:
        col.close()
    drill, anki = statistics.median(drill_ms), statistics.median(anki_ms)
    return {
        "queue_drill_items": len(ids),
        "queue_anki_cards": queued.new_count + queued.learning_count + queued.review_count,
        "queue_build_drill_ms_median": round(drill, 2),
        "queue_build_anki_ms_median": round(anki, 2),
        "queue_build_ratio_to_anki": _ratio(drill, anki),
    }


def answer_figures(home: Path, collection: Path, answers: int) -> dict[str, Any]:
    """Answering `answers` cards at the head of each queue, one at a time, the same buttons on both
    sides: Again every fifth answer from the first (a lapse: drill reads the item's leech standing
    around its write), Good otherwise (medians, and the Agains' alone). drill's answers are timed
    with nothing listening to its engine; the floor's statements come from the same answers made
    again, untimed, on a copy of the store as they found it."""
    from anki.collection import Collection
    from anki.scheduler_pb2 import CardAnswer

    work = Path(tempfile.mkdtemp(prefix="drill-bench-scale-floor-"))
    try:
        recorded, replayed = _copied_home(home, work / "recorded"), _copied_home(home, work / "replayed")
        graded, handed, stored = _answered(home, answers)
        sent: list[list[tuple[str, Any]]] = []
        _answered(recorded, answers, sent)
        floor, floor_reviews = _replayed(replayed / "drill.db", sent)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    col: Any = Collection(str(collection))
    anki_ms = []
    try:
        anki_synchronous = col.db.scalar("PRAGMA synchronous")
        for answer in range(answers):
            queued = col.sched.get_queued_cards(fetch_limit=1).cards
            if not queued:
                break
            card_id = queued[0].card.id
            start = time.perf_counter()
            states = col._backend.get_scheduling_states(card_id)
            failed = _again(answer)
            col.sched.answer_card(
                CardAnswer(
                    card_id=card_id,
                    current_state=states.current,
                    new_state=states.again if failed else states.good,
                    rating=CardAnswer.AGAIN if failed else CardAnswer.GOOD,
                    answered_at_millis=int(time.time() * 1000),
                    milliseconds_taken=8000,
                )
            )
            anki_ms.append((time.perf_counter() - start) * 1000)
    finally:
        col.close()
    drill, anki = statistics.median(stored), statistics.median(anki_ms)
    drill_again = statistics.median(ms for answer, ms in enumerate(stored) if _again(answer))
    anki_again = statistics.median(ms for answer, ms in enumerate(anki_ms) if _again(answer))
    return {
        "answers_drill": len(stored),
        "answers_anki": len(anki_ms),
        "answer_drill_grade_ms_median": round(statistics.median(graded), 3),
        "answer_drill_acknowledged_ms_median": round(statistics.median(handed), 3),
        "answer_drill_ms_median": round(drill, 3),
        "answer_anki_ms_median": round(anki, 3),
        "answer_ratio_to_anki": _ratio(drill, anki),
        "answer_floor_ms_median": round(statistics.median(floor), 3),
        "answer_floor_ratio_to_anki": _ratio(statistics.median(floor), anki),
        "answer_floor_reviews_written": floor_reviews,
        "answer_anki_synchronous": anki_synchronous,
        "answer_drill_again_ms_median": round(drill_again, 3),
        "answer_anki_again_ms_median": round(anki_again, 3),
        "answer_again_ratio_to_anki": _ratio(drill_again, anki_again),
    }


def _again(answer: int) -> bool:
    """Whether the answer numbered `answer` (from 0) is an Again."""
    return answer % 5 == 0


def _copied_home(home: Path, into: Path) -> Path:
    """A copy of drill's home as it is now: its database (through SQLite's backup), decks and
    settings; not its backups or journals."""
    shutil.copytree(home, into, ignore=shutil.ignore_patterns("backups", "pending-writes", "drill.db*"))
    with sqlite3.connect(home / "drill.db") as source, sqlite3.connect(into / "drill.db") as copy:
        source.backup(copy)
    return into


def _answered(
    home: Path, answers: int, sent: list[list[tuple[str, Any]]] | None = None
) -> tuple[list[float], list[float], list[float]]:
    """Answer the first `answers` cards of drill's queue in `home`: ms per answer until graded,
    journalled (acknowledged) and committed; with `sent`, each answer's statements kept in it."""
    from drill.paths import Paths
    from drill.study import Study

    study = Study.open(Paths(home))
    graded, handed, stored = [], [], []
    answering: list[tuple[str, Any]] | None = None  # the statements of the answer being made

    def keep(_connection: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        if answering is not None and not statement.lstrip().upper().startswith(
            ("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA")
        ):
            answering.append((statement, parameters))

    if sent is not None:
        event.listen(study.engine, "before_cursor_execute", keep)
    try:
        queue = study.reviews.queue()
        if not queue:
            raise SystemExit("nothing is due today in the drill store: nothing to answer")
        for answer, item_id in enumerate(queue[:answers]):
            card = study.reviews.cards([item_id])[0]
            if sent is not None:
                answering = []
                sent.append(answering)
            start = time.perf_counter()
            grade = study.reviews.grade(card, 1 if _again(answer) else 3, 8000)
            middle = time.perf_counter()
            written = study.reviews.save_grade(grade)  # journalled: acknowledged
            handed_over = time.perf_counter()
            written.result()  # committed by the writer
            end = time.perf_counter()
            answering = None  # the next card's read is not the answer's
            graded.append((middle - start) * 1000)
            handed.append((handed_over - start) * 1000)
            stored.append((end - start) * 1000)
    finally:
        study.close()
    return graded, handed, stored


def _replayed(database: Path, sent: list[list[tuple[str, Any]]]) -> tuple[list[float], int]:
    """drill's floor: each answer's statements sent again through sqlite3 alone, on a copy of the store
    as the answers found it, each answer one committed transaction (synchronous = FULL, as drill's): no
    grading, no SQLAlchemy, no writer thread, no last-review note. Returns ms per answer, and the
    reviews the copy gained (one per answer when the statements made the same writes)."""
    connection = sqlite3.connect(database, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = FULL")
    connection.execute("PRAGMA foreign_keys = ON")
    times = []
    try:
        reviews = connection.execute("SELECT COUNT(*) FROM review").fetchone()[0]
        for statements in sent:
            start = time.perf_counter()
            connection.execute("BEGIN IMMEDIATE")
            for statement, parameters in statements:
                connection.execute(statement, parameters).fetchall()
            connection.execute("COMMIT")
            times.append((time.perf_counter() - start) * 1000)
        reviews = connection.execute("SELECT COUNT(*) FROM review").fetchone()[0] - reviews
    finally:
        connection.close()
    return times, reviews


def _process(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, peak memory in MB, stdout) of one process, start to exit."""
    start = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None
    out = child.stdout.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"{' '.join(command)} exited with status {status}")
    return wall, usage.ru_maxrss / 1024, out


def optimize_figures(home: Path, collection: Path) -> dict[str, Any]:
    """`drill scheduler optimize` (a process) against Anki's optimizer over the whole collection,
    whose fit is scored as drill scores its own."""
    from anki.collection import Collection
    from sqlalchemy import create_engine

    from drill.schedule.fsrs_fit import log_loss
    from drill.schedule.fsrs_model import FSRSSettings
    from drill.schedule.fsrs_optimize import within_bounds
    from drill.store.history import days_and_buttons

    env = {**os.environ, "DRILL_HOME": str(home)}
    seconds, peak_mb, out = _process([sys.executable, "-m", "drill", "scheduler", "optimize", "--json"], env)
    report = json.loads(out)
    col: Any = Collection(str(collection))
    try:
        start = time.perf_counter()
        anki = col._backend.compute_fsrs_params(
            search="", current_params=[], ignore_revlogs_before_ms=0, num_of_relearning_steps=1, health_check=False
        )
        anki_seconds = time.perf_counter() - start
    finally:
        col.close()
    engine = create_engine(f"sqlite:///{home / 'drill.db'}")
    try:
        histories = days_and_buttons(engine)
    finally:
        engine.dispose()
    anki_fit = FSRSSettings(parameters=within_bounds(anki.params))
    return {
        "optimize_drill_s": round(seconds, 2),
        "optimize_drill_peak_mb": round(peak_mb),
        "optimize_drill_optimizer": report["optimizer"],
        "optimize_drill_reviews": report["reviews"],
        "optimize_drill_scored": report["scored"],
        "optimize_drill_fitted_on": report["fitted_on"],
        "optimize_drill_log_loss_default": report["log_loss_default"],
        "optimize_drill_log_loss_fitted": report["log_loss_fitted"],
        "optimize_anki_s": round(anki_seconds, 2),
        "optimize_anki_fsrs_items": anki.fsrs_items,
        "optimize_anki_log_loss_fitted": log_loss(histories, anki_fit),  # drill's measure, every scored review
        "optimize_ratio_to_anki": _ratio(seconds, anki_seconds),
    }


def stats_json_figures(home: Path, fresh: Path, runs: int) -> dict[str, Any]:
    """`drill stats --json` against a process that only imports sqlalchemy and against the same command
    on `fresh` (the same items, no history), interleaved (medians)."""
    command = [sys.executable, "-m", "drill", "stats", "--json"]
    drill, baseline, on_fresh, size = [], [], [], 0
    for _ in range(runs):
        seconds, _peak, out = _process(command, {**os.environ, "DRILL_HOME": str(home)})
        drill.append(seconds * 1000)
        size = len(out.encode())
        baseline.append(_process([sys.executable, "-c", "import sqlalchemy"], dict(os.environ))[0] * 1000)
        on_fresh.append(_process(command, {**os.environ, "DRILL_HOME": str(fresh)})[0] * 1000)
    drill_ms, baseline_ms, fresh_ms = statistics.median(drill), statistics.median(baseline), statistics.median(on_fresh)
    return {
        "stats_json_bytes": size,
        "stats_json_process_ms_median": round(drill_ms, 1),
        "baseline_import_sqlalchemy_ms_median": round(baseline_ms, 1),
        "stats_json_ratio_to_baseline": _ratio(drill_ms, baseline_ms),
        "stats_json_process_fresh_home_ms_median": round(fresh_ms, 1),
        "stats_json_ratio_to_fresh_home": _ratio(drill_ms, fresh_ms),
    }


def _switches_and_home(home: Path, runs: int) -> tuple[dict[str, float], float]:
    """Medians in ms: each period's load after the one before it (the screen's `p`, round the
    periods `runs` times), and home's counts."""
    from drill.paths import Paths
    from drill.stats.report import PERIODS, load_report
    from drill.store.stats.scope import period_key
    from drill.study import Study

    study = Study.open(Paths(home))
    try:
        shown = load_report(study)  # the screen's first load, on opening it
        switches: dict[str, list[float]] = {period_key(period): [] for period in PERIODS}
        for _ in range(runs):
            for period in (*PERIODS[1:], PERIODS[0]):
                start = time.perf_counter()
                shown = load_report(study, period, None, shown)
                switches[period_key(period)].append((time.perf_counter() - start) * 1000)
        counts = []
        for _ in range(runs):
            start = time.perf_counter()
            study.browsing.home()
            counts.append((time.perf_counter() - start) * 1000)
    finally:
        study.close()
    return {key: statistics.median(times) for key, times in switches.items()}, statistics.median(counts)


def keep_recent(home: Path, days: int) -> None:
    """Cut the store at `home` to its last `days` study days of history: older reviews (with their day
    counters), estimation attempts, drill runs and mock rounds deleted; items, their schedules and lapse
    counts kept."""
    from drill.config import Config
    from drill.days import study_day, utc_now
    from drill.store.counters import PAUSED
    from drill.store.stats.scope import day_start, moment_text

    rollover = Config().rollover_hour
    first = study_day(utc_now(), rollover) - timedelta(days=days - 1)
    since = moment_text(day_start(first, rollover))
    store = sqlite3.connect(home / "drill.db")
    with store:  # the triggers paused: the old days' counters go with them below
        store.execute("INSERT INTO store_fact (key, value) VALUES (?, 'yes')", (PAUSED,))
        store.execute("DELETE FROM estimate_attempt WHERE attempted_at < ?", (since,))
        store.execute("DELETE FROM coding_attempt WHERE finished_at < ?", (since,))
        store.execute("DELETE FROM mock_round WHERE started_at < ?", (since,))
        store.execute("DELETE FROM review WHERE study_day < ?", (first.isoformat(),))
        store.execute("DELETE FROM review_day WHERE study_day < ?", (first.isoformat(),))
        store.execute("DELETE FROM store_fact WHERE key = ?", (PAUSED,))
    store.close()


def screen_figures(home: Path, fresh: Path, runs: int) -> dict[str, Any]:
    """The stats screen's period switches and home's counts, against `fresh` (the same items, no
    history) and against the same store cut to its last RECENT_DAYS days (how much the history before matters)."""
    work = Path(tempfile.mkdtemp(prefix="drill-bench-scale-recent-"))
    try:
        keep_recent(_copied_home(home, work / "recent"), RECENT_DAYS)
        baseline, baseline_home = _switches_and_home(fresh, runs)
        drill, drill_home = _switches_and_home(home, runs)
        recent_switches, recent_home = _switches_and_home(work / "recent", runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    figures: dict[str, Any] = {}
    for key, ms in drill.items():
        figures[f"stats_switch_to_{key}_drill_ms_median"] = round(ms, 1)
        figures[f"stats_switch_to_{key}_fresh_home_ms_median"] = round(baseline[key], 1)
        figures[f"stats_switch_to_{key}_ratio_to_fresh_home"] = _ratio(ms, baseline[key])
        figures[f"stats_switch_to_{key}_recent_only_ms_median"] = round(recent_switches[key], 1)
        figures[f"stats_switch_to_{key}_ratio_to_recent_only"] = _ratio(ms, recent_switches[key])
    figures["home_counts_drill_ms_median"] = round(drill_home, 1)
    figures["home_counts_fresh_home_ms_median"] = round(baseline_home, 1)
    figures["home_counts_ratio_to_fresh_home"] = _ratio(drill_home, baseline_home)
    figures["home_counts_recent_only_ms_median"] = round(recent_home, 1)
    figures["home_counts_ratio_to_recent_only"] = _ratio(drill_home, recent_home)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=FULL[0])
    parser.add_argument("--reviews", type=int, default=FULL[1])
    parser.add_argument("--runs", type=int, default=15, help="queue builds and stats processes per side")
    parser.add_argument("--answers", type=int, default=40, help="cards answered per side")
    args = parser.parse_args(argv)
    keep = os.environ.get("DRILL_BENCH_HOME")
    home = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="drill-bench-scale-")) / "home"
    figures: dict[str, Any] = {"items": args.items, "reviews": args.reviews}
    if not (home / "drill.db").exists():
        start = time.perf_counter()
        build(home, args.items, args.reviews)
        figures["build_drill_s"] = round(time.perf_counter() - start, 1)
    work = Path(tempfile.mkdtemp(prefix="drill-bench-scale-anki-"))
    try:
        start = time.perf_counter()
        figures.update(mirror_in_anki(home, work / "collection.anki2"))
        figures["build_anki_s"] = round(time.perf_counter() - start, 1)
        store = sqlite3.connect(home / "drill.db")
        figures["reviews"] = store.execute("SELECT COUNT(*) FROM review").fetchone()[0]
        store.close()
        from drill.paths import Paths
        from drill.study import Study

        start = time.perf_counter()
        Study.open(Paths(home)).close()  # a store built in SQL is brought up to date once, not timed below
        figures["first_open_s"] = round(time.perf_counter() - start, 1)
        fresh = work / "fresh"  # the baseline home: the same items, no history
        large_home.build(fresh, items=args.items, reviews=0)
        Study.open(Paths(fresh)).close()
        figures.update(screen_figures(home, fresh, args.runs))
        figures.update(queue_figures(home, work / "collection.anki2", args.runs))
        figures.update(stats_json_figures(home, fresh, args.runs))
        figures.update(optimize_figures(home, work / "collection.anki2"))
        figures.update(answer_figures(home, work / "collection.anki2", args.answers))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

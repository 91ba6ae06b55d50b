"""A hand-built history for the stats tests: items, reviews, estimates, rounds, drills, pitches.

Today is 2026-11-22 (helpers.clock's FIXED_NOW, TZ=UTC, rollover 4 am: a study day starts at 04:00
UTC). Every figure the tests assert is worked out by hand in the comments below.
"""

from __future__ import annotations

import shutil
import sqlite3
from datetime import date, timedelta
from pathlib import Path

import pytest

from helpers.content import TestPaths

REPO = Path(__file__).resolve().parents[2]
TODAY = date(2026, 11, 22)

ITEM = """
[[item]]
id = "{id}"
kind = "{kind}"
block = "{block}"
topic = "{topic}"
prompt = "Prompt of {id}?"
answer = "Answer of {id}."
source = "seed 000 §10"
"""
PITCH = ITEM + 'points = ["one point"]\ntarget_seconds = {target}\n'

CARDS = [  # id, block, topic
    ("m-1", "memory", "KV cache"),
    ("m-2", "memory", "KV cache"),
    ("c-1", "compute", "Roofline"),
    ("c-2", "compute", "Intensity"),
    ("i-1", "inference", "Decoding"),
    ("i-2", "inference", "Batching"),
]
PITCHES = [("p-30", 30), ("p-120", 120), ("p-300", 300)]  # memory, "Flash Attention"
FAMILIES = ("kv-cache", "matmul-intensity")  # inference, compute
DRILLS = ("online-softmax", "lora-linear")  # compute (budget 900 s), training (budget 600 s)


class StatsPaths(TestPaths):
    """The stats deck, two real estimation families and two real coding drills."""

    __test__ = False


def stats_paths(home: Path, root: Path) -> StatsPaths:
    decks = root / "decks"
    decks.mkdir(parents=True, exist_ok=True)
    text = "".join(ITEM.format(id=i, kind="card", block=b, topic=t) for i, b, t in CARDS)
    text += "".join(
        PITCH.format(id=i, kind="pitch", block="memory", topic="Flash Attention", target=s) for i, s in PITCHES
    )
    (decks / "stats.toml").write_text(text)
    paths = StatsPaths(home, decks)
    for name in (*FAMILIES, "models", "gpus"):
        shutil.copy(REPO / "problems" / f"{name}.toml", paths.problems / f"{name}.toml")
    for drill in DRILLS:
        shutil.copytree(REPO / "kernels" / drill, paths.kernels / drill, dirs_exist_ok=True)
    return paths


def day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


def at(offset: int, clock: str = "12:00:00") -> str:
    """A UTC moment on the calendar day `offset` days from today (study day too, after 04:00)."""
    return f"{day(offset)}T{clock}+00:00"


# (item, study-day offset, button, counted, interval_before, duration_ms)
REVIEWS = [
    ("c-2", -400, 3, 1, 50, 7_000),  # R8: mature pass, before the last 365 days
    ("m-2", -40, 3, 1, 21, 6_000),  # R7: mature pass (in 365, not in 30)
    ("m-1", -10, 4, 1, 40, 8_000),  # R5: mature pass
    ("i-1", -10, 2, 1, 0, 4_000),  # R6: first sight (interval 0): neither young nor mature
    ("c-1", -3, 3, 1, 5, 5_000),  # R3: young pass
    ("c-1", -3, 1, 0, 6, 3_000),  # R4: a same-day repeat, not counted
    ("p-30", -2, 3, 1, 0, 25_000),  # pitch in 25 s (target 30)
    ("p-120", -2, 3, 1, 0, 100_000),  # pitch in 100 s (target 120)
    ("m-1", -1, 3, 1, 30, 10_000),  # R1: mature pass
    ("m-2", -1, 1, 1, 25, 20_000),  # R2: mature fail (Again)
    ("p-30", -1, 3, 1, 0, 40_000),  # pitch in 40 s: over its 30 s
    ("c-2", 0, 3, 1, 10, 12_000),  # R9: young pass, today
]

# (item, repetitions, interval, due offset, last review offset); the rest are unseen. Each seen
# item's FSRS memory is set beside it: stability = its interval (days), difficulty 5, FSRS due day
# = the SM-2 one, so FSRS's recall is (1 + F·t/S)^-d with S the interval.
STATES = [
    ("m-1", 4, 30, 29, -1),
    ("m-2", 1, 1, 0, -1),
    ("c-1", 2, 6, 3, -3),
    ("c-2", 5, 25, 25, 0),
    ("i-1", 1, 1, -9, -10),
    ("p-30", 1, 1, 0, -1),
    ("p-120", 2, 6, 4, -2),
]

# (family, moment, score, log_error, slip, mock round, seconds)
ATTEMPTS = [
    ("kv-cache", at(-40), 0.0, None, None, None, 30.0),  # E6: unparsable
    ("kv-cache", at(-8), 0.75, 0.1, None, None, 30.0),  # E5
    ("kv-cache", at(-5), 0.25, 0.6, "bits for bytes", None, 30.0),  # E4
    ("kv-cache", at(-3), 0.0, 1.2, "forgot the 2 for K and V", 2, 50.0),  # E3, in round 2
    ("kv-cache", at(-2), 0.5, 0.3, "forgot the 2 for K and V", 2, 40.0),  # E2, in round 2
    ("kv-cache", at(-1), 1.0, 0.01, None, None, 30.0),  # E1
    ("matmul-intensity", at(0, "03:00:00"), 0.3, 0.5, "off by 1000", None, 30.0),  # E8: study day -1
    ("matmul-intensity", at(0, "05:00:00"), 0.9, 0.02, None, None, 30.0),  # E7: today
]

# (id, started, finished, problems, limit, blocks, score, abandoned)
ROUNDS = [
    (1, at(-50), at(-50, "12:10:00"), 5, 600, '["compute"]', 0.8, 0),
    (2, at(-2), at(-2, "12:10:00"), 5, 600, '["inference"]', 0.6, 0),
    (3, at(-1), None, 5, 600, '["compute", "memory"]', None, 1),
]

# (drill, workspace, finished, status, hints, seconds, ends the attempt)
CODING = [
    ("online-softmax", "A", at(-2, "10:00:00"), "fail", 0, 300.0, False),
    ("online-softmax", "A", at(-2, "10:05:00"), "fail", 1, 500.0, False),
    ("online-softmax", "A", at(-2, "10:10:00"), "pass", 1, 700.0, True),
    ("online-softmax", "B", at(-1, "10:00:00"), "fail", 2, 200.0, False),
    ("online-softmax", "B", at(-1, "10:05:00"), "fail", 2, 400.0, True),  # gave up
    ("lora-linear", "C", at(-5, "10:00:00"), "pass", 0, 450.0, True),
]


def build_history(database: Path) -> None:
    """Write the history above into an opened (synced) database."""
    connection = sqlite3.connect(database)
    try:
        for item, offset, button, counted, interval, ms in REVIEWS:
            connection.execute(
                """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
                reps_before, interval_before, ease_before, due_before, last_day_before, reps_after,
                interval_after, ease_after, due_after) VALUES (?,?,?,?,?,?,?,?,?,2.5,?,?,?,?,2.5,?)""",
                (
                    item,
                    at(offset),
                    day(offset),
                    button,
                    button + 1,
                    ms,
                    counted,
                    1 if interval else 0,
                    interval,
                    day(offset) if interval else None,
                    day(offset - interval) if interval else None,
                    2,
                    max(1, interval),
                    day(offset + max(1, interval)),
                ),
            )
        for item, reps, interval, due, last in STATES:
            connection.execute(
                """UPDATE item SET repetitions = ?, interval = ?, due_day = ?, last_review_day = ?,
                fsrs_stability = ?, fsrs_difficulty = 5.0, fsrs_due_day = ? WHERE id = ?""",
                (reps, interval, day(due), day(last), float(interval), day(due), item),
            )
        for id_, started, finished, problems, limit, blocks, score, abandoned in ROUNDS:
            connection.execute(
                """INSERT INTO mock_round (id, started_at, finished_at, problems, time_limit_s, blocks, score,
                abandoned) VALUES (?,?,?,?,?,?,?,?)""",
                (id_, started, finished, problems, limit, blocks, score, abandoned),
            )
        for family, moment, score, log_error, slip, round_id, seconds in ATTEMPTS:
            connection.execute(
                """INSERT INTO estimate_attempt (item_id, mock_round_id, attempted_at, params, answer, parsed, truth,
                unit, score, log_error, slip, error, seconds) VALUES (?,?,?,'{}','1 GB',?,1e9,'byte',?,?,?,?,?)""",
                (
                    f"estimate:{family}",
                    round_id,
                    moment,
                    None if log_error is None else 1e9,
                    score,
                    log_error,
                    slip,
                    "could not parse" if log_error is None else None,
                    seconds,
                ),
            )
        review_id = connection.execute("SELECT MIN(id) FROM review").fetchone()[0]
        for drill, workspace, finished, status, hints, seconds, ends in CODING:
            connection.execute(
                """INSERT INTO coding_attempt (item_id, review_id, started_at, finished_at, status, passed, failed,
                device, hints_used, seconds, workspace) VALUES (?,?,?,?,?,?,?,'cpu',?,?,?)""",
                (
                    f"kernel:{drill}",
                    review_id if ends else None,
                    finished,
                    finished,
                    status,
                    3 if status == "pass" else 1,
                    0 if status == "pass" else 2,
                    hints,
                    seconds,
                    workspace,
                ),
            )
        connection.commit()
    finally:
        connection.close()


def open_history(paths: Path, clock):
    """The study over the history (synced again, as the app does)."""
    from drill.study import Study

    return Study.open(paths, clock)


def make_history(home: Path, root: Path, clock) -> StatsPaths:
    """Sync the content into a fresh database, then write the history."""
    from drill.study import Study

    paths = stats_paths(home, root)
    Study.open(paths, clock).close()
    build_history(paths.database)
    return paths


@pytest.fixture
def history(drill_home: Path, tmp_path: Path, clock) -> StatsPaths:
    """The history in the test's home (a fixture: import `history` by name)."""
    return make_history(drill_home, tmp_path, clock)

"""Readiness a candidate can trust: `expected` counts unseen items as 0, the weakest topics rank by
it, and calibration sets the predictions of the last 30 days against what happened.

Every figure is worked out by hand below from the formulas (SM-2's proxy 0.9^(t / interval), FSRS's
curve (1 + F·t/S)^-d) on a hand-written history with conftest's fixed clock (today 2026-11-22).
"""

from __future__ import annotations

import json
import math
import sqlite3
from datetime import date, timedelta

import pytest
from helpers.content import TestPaths

import drill.study
from drill.cli import main
from drill.stats.report import load_report
from drill.study import Study
from drill.study.writes import write_grade

TODAY = date(2026, 11, 22)
R = 0.9


def floor4(value: float) -> float:
    """`value` rounded down to 4 places, as `drill stats --json` writes a share."""
    return math.floor(value * 10_000) / 10_000


CARD = """
[[item]]
id = "{id}"
kind = "card"
block = "memory"
topic = "{topic}"
prompt = "Prompt of {id}?"
answer = "Answer of {id}."
source = "seed 000 §10"
"""
# Eight memory cards over three topics; nothing else in the block.
CARDS = [
    ("a-1", "Attention"),
    ("a-2", "Attention"),
    ("a-3", "Attention"),
    ("k-1", "KV cache"),
    ("k-2", "KV cache"),
    ("k-3", "KV cache"),
    ("z-1", "ZeRO"),
    ("z-2", "ZeRO"),
]


def day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


@pytest.fixture
def paths(drill_home, tmp_path, clock) -> TestPaths:
    decks = tmp_path / "content" / "decks"
    decks.mkdir(parents=True)
    (decks / "memory.toml").write_text("".join(CARD.format(id=i, topic=t) for i, t in CARDS))
    paths = TestPaths(drill_home, decks)
    Study.open(paths, clock).close()
    return paths


def execute(paths: TestPaths, sql: str, *rows: tuple) -> None:
    connection = sqlite3.connect(paths.database)
    try:
        for row in rows:
            connection.execute(sql, row)
        connection.commit()
    finally:
        connection.close()


def set_states(paths: TestPaths, *states: tuple[str, int, int]) -> None:
    """(item, interval, last review offset): SM-2 state, and FSRS stability = the interval."""
    execute(
        paths,
        """UPDATE item SET repetitions = 1, interval = ?, due_day = ?, last_review_day = ?, fsrs_stability = ?,
        fsrs_difficulty = 5.0, fsrs_due_day = ? WHERE id = ?""",
        *(
            (interval, day(last + interval), day(last), float(interval), day(last + interval), item)
            for item, interval, last in states
        ),
    )


def add_reviews(paths: TestPaths, *reviews: tuple[str, int, int, int, int | None, int | None]) -> None:
    """(item, study-day offset, button, counted, interval before, last review offset before)."""
    execute(
        paths,
        """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
        reps_before, interval_before, ease_before, due_before, last_day_before, reps_after, interval_after,
        ease_after, due_after) VALUES (?, ?, ?, ?, ?, 5000, ?, ?, ?, 2.5, ?, ?, 1, 1, 2.5, ?)""",
        *(
            (
                item,
                f"{day(offset)}T12:00:00+00:00",
                day(offset),
                button,
                button + 1,
                counted,
                0 if last is None else 1,
                interval or 0,
                None if last is None else day(last + (interval or 0)),
                None if last is None else day(last),
                day(offset + 1),
            )
            for item, offset, button, counted, interval, last in reviews
        ),
    )


def report(paths: TestPaths, clock, config: str = ""):
    if config:
        paths.config.write_text(config)
    study = Study.open(paths, clock)
    try:
        return load_report(study)
    finally:
        study.close()


# -- expected ----------------------------------------------------------------------------------


def test_expected_counts_the_unseen_items_as_zero(paths, clock) -> None:
    # Three of eight seen: a-1 (interval 4, 2 days ago), a-2 (10, 5 days ago), k-1 (1, 3 days ago).
    set_states(paths, ("a-1", 4, -2), ("a-2", 10, -5), ("k-1", 1, -3))
    ready = report(paths, clock).readiness
    memory = next(block for block in ready.blocks if block.block == "memory")
    recalls = [R ** (2 / 4), R ** (5 / 10), R ** (3 / 1)]
    assert (memory.items, memory.seen) == (8, 3)
    assert memory.recall == pytest.approx(sum(recalls) / 3)
    assert memory.expected == pytest.approx(sum(recalls) / 8)
    assert memory.expected <= 3 / 8 and memory.coverage == 3 / 8
    assert ready.expected == pytest.approx(sum(recalls) / 8)  # the only block with items
    # An untouched topic (ZeRO, expected 0) is weaker than any reviewed one; then KV cache
    # (0.9³ / 3 = 0.243) before Attention ((0.9^½ + 0.9^½) / 3 = 0.632).
    assert [t.topic for t in ready.weakest] == ["ZeRO", "KV cache", "Attention"]
    assert [t.topic for t in memory.weakest] == ["ZeRO", "KV cache", "Attention"]
    zero, kv, attention = memory.weakest
    assert (zero.seen, zero.items, zero.expected, zero.recall) == (0, 2, 0.0, None)
    assert kv.expected == pytest.approx(R**3 / 3) and kv.recall == pytest.approx(R**3)
    assert attention.expected == pytest.approx(2 * R**0.5 / 3)


def test_expected_on_the_interview_day(paths, clock) -> None:
    """While the interview is ahead, recall and expected are taken on its day."""
    set_states(paths, ("a-1", 4, -2))
    ready = report(paths, clock, "interview_date = 2026-12-02\n").readiness  # 10 days ahead
    assert ready.target_day == date(2026, 12, 2)
    assert ready.expected == pytest.approx(R ** (12 / 4) / 8)


def test_expected_with_fsrs_is_the_summed_retrievability(paths, clock) -> None:
    from drill.schedule.fsrs_model import forgetting_curve

    set_states(paths, ("a-1", 4, -2), ("k-1", 1, -3))
    factor, decay = forgetting_curve()
    ready = report(paths, clock, 'scheduler = "fsrs"\n').readiness
    expected = ((1 + factor * 2 / 4) ** -decay + (1 + factor * 3 / 1) ** -decay) / 8
    assert ready.expected == pytest.approx(expected)


def test_drill_stats_json_after_three_first_reviews_of_the_shipped_decks(clock, monkeypatch, capsys) -> None:
    """The issue's case: a fresh home on the shipped decks, three memory items reviewed once.
    Recall of the seen items says 100 %; expected says at most 3 of the block's items."""
    study = Study.open(None, clock)
    try:
        with study.engine.connect() as connection:
            from sqlalchemy import text

            ids = [
                row[0]
                for row in connection.execute(
                    text("SELECT id FROM item WHERE block = 'memory' AND kind = 'card' ORDER BY position, id LIMIT 3")
                )
            ]
        for card in study.reviews.cards(ids):
            write_grade(study, study.reviews.grade(card, 3, 4000))
    finally:
        study.close()
    real_open = Study.open.__func__
    monkeypatch.setattr(drill.study.Study, "open", classmethod(lambda cls, *a, **k: real_open(cls, None, clock)))

    assert main(["stats", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    memory = figures["readiness"]["by_block"]["memory"]
    assert memory["seen"] == 3 and memory["items"] >= 44
    assert memory["recall"] == 1.0  # reviewed today: 0.9^0
    assert memory["expected"] <= 3 / 44
    assert memory["expected"] == floor4(3 / memory["items"])  # shares are rounded down: never overstated
    assert figures["readiness"]["expected"] == floor4(3 / figures["readiness"]["items"])
    for block in ("compute", "inference", "training", "communication"):
        assert figures["readiness"]["by_block"][block]["expected"] == 0.0
    # Untouched topics are the weakest; no topic shows 100 %.
    assert all(topic["seen"] == 0 and topic["expected"] == 0.0 for topic in figures["readiness"]["weakest_topics"])
    assert figures["readiness"]["calibration"]["reviews"] == 0 and figures["readiness"]["calibration"]["brier"] is None

    clock.now += timedelta(days=3)  # three days on: interval 1, so recall 0.9³ each
    assert main(["stats", "--json", "--block", "memory"]) == 0
    memory = json.loads(capsys.readouterr().out)["readiness"]["by_block"]["memory"]
    assert memory["recall"] == round(R**3, 4)
    assert memory["expected"] == floor4(3 * R**3 / memory["items"]) < 3 / 44


# -- calibration ---------------------------------------------------------------------------------

HISTORY = [
    # item, day, button, counted, interval before, last review before
    ("a-1", -10, 3, 1, None, None),  # first sight: nothing predicted
    ("a-1", -6, 3, 1, 4, -10),  # P1: elapsed 4 of 4 → 0.9, passed
    ("a-1", -1, 1, 1, 10, -6),  # P2: elapsed 5 of 10 → 0.9^0.5, Again: failed
    ("a-1", -1, 3, 0, 1, -1),  # a same-day repeat, not counted: not scored
    ("k-1", -45, 3, 1, None, None),
    ("k-1", -35, 3, 1, 3, -45),  # before the last 30 days: not scored
    ("k-1", -3, 2, 1, 16, -35),  # P3: elapsed 32 of 16 → 0.9² = 0.81, Hard: passed
]


def test_calibration_with_sm2_brier_and_bins(paths, clock, monkeypatch, capsys) -> None:
    add_reviews(paths, *HISTORY)
    p1, p2, p3 = R, R**0.5, R**2
    brier = ((p1 - 1) ** 2 + (p2 - 0) ** 2 + (p3 - 1) ** 2) / 3  # = (0.01 + 0.9 + 0.0361) / 3

    calibration = report(paths, clock).readiness.calibration
    assert (calibration.model, calibration.first_day) == ("sm2", date(2026, 10, 24))
    assert (calibration.reviews, calibration.passed) == (3, 2)
    assert calibration.brier == pytest.approx(brier) and calibration.brier == pytest.approx(0.315366667)
    assert calibration.predicted == pytest.approx((p1 + p2 + p3) / 3)
    assert calibration.actual == pytest.approx(2 / 3)
    bins = [(b.low, b.high, b.reviews) for b in calibration.bins]
    assert bins == [(0.0, 0.5, 0), (0.5, 0.7, 0), (0.7, 0.8, 0), (0.8, 0.9, 1), (0.9, 1.0, 2)]
    top = calibration.bins[-1]  # 0.9 itself belongs to the top band
    assert top.predicted == pytest.approx((p1 + p2) / 2) and top.actual == 0.5
    assert calibration.bins[3].predicted == pytest.approx(p3) and calibration.bins[3].actual == 1.0
    assert calibration.bins[0].predicted is None and calibration.bins[0].actual is None

    real_open = Study.open.__func__
    monkeypatch.setattr(drill.study.Study, "open", classmethod(lambda cls, *a, **k: real_open(cls, paths, clock)))
    assert main(["stats", "--json", "--period", "7"]) == 0  # the period does not change the 30-day window
    found = json.loads(capsys.readouterr().out)["readiness"]["calibration"]
    assert (found["reviews"], found["brier"]) == (3, round(brier, 4))
    assert found["bins"][3] == {"low": 0.8, "high": 0.9, "reviews": 1, "predicted": 0.81, "actual": 1.0}
    assert found["bins"][4] == {
        "low": 0.9,
        "high": 1.0,
        "reviews": 2,
        "predicted": round((p1 + p2) / 2, 4),
        "actual": 0.5,
    }
    assert main(["stats"]) == 0
    assert (
        "calibration (last 30 days, sm2): 3 reviews, Brier 0.315 (0 perfect, 0.25 a coin flip); "
        "predicted 89%, passed 67%"
    ) in capsys.readouterr().out


def test_calibration_with_fsrs_replays_the_memory_before_each_review(paths, clock) -> None:
    """FSRS's retrievability from the memory just before each review, replayed from every counted
    review (k-1's two reviews before the window shape the memory its third is predicted from)."""
    from drill.schedule import fsrs_model

    add_reviews(paths, *HISTORY)
    factor, decay = fsrs_model.forgetting_curve()
    weights = fsrs_model.scheduler().parameters

    def curve(elapsed: int, stability: float) -> float:
        return (1 + factor * elapsed / stability) ** -decay

    # a-1 after its first Good: stability w[2] (FSRS's initial stability for Good).
    p1 = curve(4, weights[2])
    a1 = fsrs_model.replay([(TODAY - timedelta(days=10), 3), (TODAY - timedelta(days=6), 3)])
    p2 = curve(5, a1.stability)
    k1 = fsrs_model.replay([(TODAY - timedelta(days=45), 3), (TODAY - timedelta(days=35), 3)])
    p3 = curve(32, k1.stability)
    brier = ((p1 - 1) ** 2 + p2**2 + (p3 - 1) ** 2) / 3

    calibration = report(paths, clock, 'scheduler = "fsrs"\n').readiness.calibration
    assert (calibration.model, calibration.reviews, calibration.passed) == ("fsrs", 3, 2)
    assert calibration.brier == pytest.approx(brier)
    assert calibration.predicted == pytest.approx((p1 + p2 + p3) / 3)
    assert sum(b.reviews for b in calibration.bins) == 3


def test_calibration_follows_the_block_filter_and_is_empty_without_history(paths, clock) -> None:
    empty = report(paths, clock).readiness.calibration
    assert (empty.reviews, empty.brier, empty.predicted) == (0, None, None)
    assert [b.reviews for b in empty.bins] == [0] * 5
    add_reviews(paths, *HISTORY)
    study = Study.open(paths, clock)
    try:
        assert load_report(study, block="compute").readiness.calibration.reviews == 0
        assert load_report(study, block="memory").readiness.calibration.reviews == 3
    finally:
        study.close()


def test_band_edges() -> None:
    from drill.store.stats.calibration import band_sql

    connection = sqlite3.connect(":memory:")
    try:
        bands = [
            connection.execute(f"SELECT {band_sql()} FROM (SELECT ? AS p)", (p,)).fetchone()[0]
            for p in (0.0, 0.49, 0.5, 0.7, 0.79, 0.8, 0.9, 1.0)
        ]
    finally:
        connection.close()
    assert bands == [0, 0, 1, 2, 2, 3, 4, 4]


def test_fsrs_calibration_of_a_store_written_before_the_memory_was_kept(paths, clock) -> None:
    """Review rows an older drill wrote have no FSRS memory before them: the next open replays
    them once, and the calibration is what it was."""
    add_reviews(paths, *HISTORY)
    first = report(paths, clock, 'scheduler = "fsrs"\n').readiness.calibration
    execute(paths, "UPDATE review SET fsrs_stability_before = NULL, fsrs_difficulty_before = NULL", ())
    again = report(paths, clock, 'scheduler = "fsrs"\n').readiness.calibration
    assert again == first and first.reviews == 3
    connection = sqlite3.connect(paths.database)
    try:
        assert connection.execute(
            "SELECT COUNT(*) FROM review WHERE last_day_before IS NOT NULL AND fsrs_stability_before IS NULL"
        ).fetchone() == (0,)
    finally:
        connection.close()

"""Siblings: the rungs of one pitch topic and items sharing a `siblings` key never share a study day."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path

from helpers.content import CARD, TestPaths
from sqlalchemy import text

from drill.config import Config
from drill.content.decks import load_decks
from drill.schedule.queue import Candidate, Limits, build
from drill.schedule.siblings import bury, group
from drill.study import Study
from drill.study.writes import write_grade

TODAY = date(2026, 11, 22)

PITCH = """
[[item]]
id = "pitch-{slug}-{rung}"
kind = "pitch"
block = "training"
topic = "{topic}"
prompt = "Pitch {topic} in {rung}."
answer = "An answer."
source = "seed 000 §9"
target_seconds = {seconds}
"""


def pitches(topic: str) -> str:
    return "".join(
        PITCH.format(topic=topic, slug=topic.lower(), rung=rung, seconds=seconds)
        for rung, seconds in (("30s", 30), ("2m", 120), ("5m", 300))
    )


def cards(*entries: tuple[str, str, str | None]) -> str:
    return "".join(
        CARD.format(id=id_, block=block) + (f'siblings = "{key}"\n' if key else "") for id_, block, key in entries
    )


def test_a_group_is_the_siblings_key_else_a_pitchs_topic() -> None:
    assert group("card", "ZeRO", "tp-math") == "tp-math"
    assert group("pitch", "ZeRO", None) == "pitch:ZeRO"
    assert group("pitch", "ZeRO", "zero-story") == "zero-story"
    assert group("card", "ZeRO", None) is None


def test_bury_keeps_the_first_of_a_group_and_leaves_out_siblings_of_todays_reviews() -> None:
    a, b, c = (Candidate(f"p-{n}", "training", siblings="pitch:ZeRO") for n in "abc")
    loner = Candidate("x", "memory")
    other = Candidate("y", "memory", siblings="k")
    assert bury([a, loner, b, other, c]) == [a, loner, other]
    assert bury([a, loner, other], shown=[b]) == [loner, other]
    # An item's own review today (a relearning repeat) does not bury it.
    assert bury([a, loner], shown=[a]) == [a, loner]


def test_the_queue_introduces_one_rung_a_day_and_no_new_sibling_of_a_due_item() -> None:
    rungs = [
        Candidate(f"pitch-zero-{rung}", "training", kind="pitch", siblings="pitch:ZeRO") for rung in ("30s", "2m", "5m")
    ]
    fresh = [Candidate(f"n-{i}", "memory") for i in range(3)]
    order = build([], rungs + fresh, Limits(new_per_day=10))
    assert sorted(order) == ["n-0", "n-1", "n-2", "pitch-zero-30s"]
    due_rung = Candidate("pitch-zero-5m", "training", TODAY, "pitch", "pitch:ZeRO")
    order = build([due_rung], rungs[:2] + fresh, Limits(new_per_day=10))
    assert sorted(order) == ["n-0", "n-1", "n-2", "pitch-zero-5m"]
    # A due sibling of something reviewed today waits for tomorrow; the rest of the queue is whole.
    order = build([due_rung, Candidate("d", "memory", TODAY)], fresh, Limits(new_per_day=10), reviewed_today=[rungs[0]])
    assert sorted(order) == ["d", "n-0", "n-1", "n-2"]


def test_a_deck_may_give_a_siblings_key_and_sync_stores_it(drill_home: Path, deck_dir: Path, clock) -> None:
    deck = deck_dir / "a.toml"
    deck.write_text(cards(("m-1", "memory", "pair"), ("m-2", "memory", "pair"), ("m-3", "memory", None)))
    load = load_decks([deck_dir])
    assert not load.errors
    assert [loaded.item.siblings for loaded in load.items] == ["pair", "pair", None]
    deck.write_text(cards(("m-1", "memory", " ")))
    assert "siblings" in str(load_decks([deck_dir]).errors[0])

    deck.write_text(cards(("m-1", "memory", "pair"), ("m-2", "memory", "pair"), ("m-3", "memory", None)))
    paths = TestPaths(drill_home, deck_dir)
    paths.ensure()
    study = Study(paths, Config(), clock)
    try:
        study.sync()

        def stored() -> dict[str, str | None]:
            with study.engine.connect() as connection:
                return dict(connection.execute(text("SELECT id, siblings FROM item")).all())

        assert stored() == {"m-1": "pair", "m-2": "pair", "m-3": None}
        # Changing only the key is written, and is no edit of the text (no revision kept).
        deck.write_text(cards(("m-1", "memory", None), ("m-2", "memory", "pair"), ("m-3", "memory", "pair")))
        report = study.sync()
        assert stored() == {"m-1": None, "m-2": "pair", "m-3": "pair"} and report.updated == 0
        with study.engine.connect() as connection:
            assert connection.execute(text("SELECT COUNT(*) FROM item_revision")).scalar_one() == 0
    finally:
        study.close()


def test_siblings_never_share_a_day_over_a_simulated_month(drill_home: Path, deck_dir: Path, clock) -> None:
    (deck_dir / "p.toml").write_text(pitches("ZeRO") + pitches("MoE"))
    (deck_dir / "c.toml").write_text(
        cards(
            ("tp-1", "compute", "tp"),
            ("tp-2", "compute", "tp"),
            ("tp-3", "compute", "tp"),
            ("m-1", "memory", None),
            ("m-2", "memory", None),
        )
    )
    paths = TestPaths(drill_home, deck_dir)
    paths.ensure()
    groups = {"tp-1": "tp", "tp-2": "tp", "tp-3": "tp"} | {
        f"pitch-{topic.lower()}-{rung}": topic for topic in ("ZeRO", "MoE") for rung in ("30s", "2m", "5m")
    }
    study = Study(paths, Config(new_mix={"card": 5, "pitch": 6}), clock)
    try:
        study.sync()
        seen: set[str] = set()
        for day in range(30):
            by_group: dict[str, list[str]] = defaultdict(list)
            for card in study.reviews.cards(study.reviews.queue()):
                # Fail some on the first pass (they come back today, relearning) to mix the days up.
                button = 1 if (day + len(card.item_id)) % 4 == 0 else 3
                write_grade(study, study.reviews.grade(card, button, 1000))
                if button == 1:
                    write_grade(study, study.reviews.grade(study.reviews.cards([card.item_id])[0], 3, 1000))
                if card.item_id in groups:
                    by_group[groups[card.item_id]].append(card.item_id)
                seen.add(card.item_id)
            assert all(len(set(ids)) == 1 for ids in by_group.values()), (day, dict(by_group))
            clock.now += timedelta(days=1)
        assert seen == set(groups) | {"m-1", "m-2"}  # every sibling still gets its day
    finally:
        study.close()


def test_home_counts_what_the_queue_serves_when_siblings_are_buried(drill_home: Path, deck_dir: Path, clock) -> None:
    """Home's "due" and "new" (in all and per block) are today's queue: a sibling the queue leaves
    out is not counted, on the days it happens (some day of the month must have one: the item
    states alone would count it)."""
    (deck_dir / "c.toml").write_text(
        cards(*[(f"tp-{n}", "compute", "tp") for n in range(1, 4)], ("m-1", "memory", None), ("m-2", "memory", None))
    )
    paths = TestPaths(drill_home, deck_dir)
    paths.ensure()
    study = Study(paths, Config(), clock)
    buried_days = 0
    try:
        study.sync()
        for day in range(30):
            home, todays = study.browsing.home(), study.reviews.queue()
            due_now = [card for card in study.reviews.cards(todays) if card.state.last_review_day is not None]
            assert (home.due_today, home.new_available) == (len(due_now), len(todays) - len(due_now)), day
            assert sum(counts.due for counts in home.by_block.values()) == home.due_today
            with study.engine.connect() as connection:  # what the item states alone would say
                due, unseen = connection.execute(
                    text(
                        "SELECT COUNT(*) FILTER (WHERE due_day <= :today),"
                        " COUNT(*) FILTER (WHERE last_review_day IS NULL) FROM item WHERE NOT suspended"
                    ),
                    {"today": study.today},
                ).one()
            buried_days += due + min(unseen, study.config.new_per_day) > len(todays)
            for card in study.reviews.cards(todays):
                write_grade(study, study.reviews.grade(card, 1 if (day + len(card.item_id)) % 5 == 0 else 3, 1000))
            clock.now += timedelta(days=1)
    finally:
        study.close()
    assert buried_days > 0

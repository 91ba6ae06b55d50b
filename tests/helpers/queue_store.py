"""A store whose queue reads can be told apart: many items due over the last week, sibling groups
(the most overdue all in one), unseen items, one sibling graded today; and today's queue as it
was built before it read only what it can show (every due candidate, every unseen one)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text

from drill.schedule import queue
from drill.store import queries
from drill.study import Study
from drill.study.writes import write_grade
from helpers.content import CARD

BLOCKS = ("memory", "compute", "inference")
OVERDUE_DAYS = 7  # seen items are due 0 to 6 days ago; a few are due tomorrow
SEEN = 48  # of the deck's 72 cards
SEEN_STATE = text(
    "UPDATE item SET repetitions = 2, interval = 6, due_day = :due, last_review_day = :last WHERE id = :id"
)


def deck(items: int = 72) -> str:
    """Cards over three blocks; the most overdue ones are siblings, odd others pair up in groups of three."""
    entries = []
    for n in range(items):
        key = "old" if n % OVERDUE_DAYS == OVERDUE_DAYS - 1 else f"pair-{n // 6}" if n % 2 else None
        entries.append(CARD.format(id=f"c-{n:02d}", block=BLOCKS[n % 3]) + (f'siblings = "{key}"\n' if key else ""))
    return "".join(entries)


def open_store(paths, clock, max_reviews: int) -> Study:
    """The deck synced into the store `paths` opens; two thirds of it seen and due over the last
    week (some tomorrow), c-13 (pair-2's, due 6 days ago) graded today."""
    paths.ensure()
    (paths.decks / "queue.toml").write_text(deck())
    paths.config.write_text(f"max_reviews_per_day = {max_reviews}\nnew_per_day = 6\n")
    study = Study.open(paths, clock)
    today = study.today
    with study.engine.begin() as connection:
        for n in range(SEEN):
            due = today + timedelta(days=1) if n % 11 == 0 else today - timedelta(days=n % OVERDUE_DAYS)
            last = due - timedelta(days=6)
            connection.execute(SEEN_STATE, {"due": due, "last": last, "id": f"c-{n:02d}"})
    write_grade(study, study.reviews.grade(study.reviews.cards(["c-13"])[0], 3, 1000))
    return study


def read_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Build the queue from every due candidate and every unseen one, as before."""
    due = queries.due_candidates
    monkeypatch.setattr(
        queries, "due_candidates", lambda engine, today, per_block, first=None: due(engine, today, per_block)
    )
    monkeypatch.setattr(queue, "fills_day", lambda *_: False)

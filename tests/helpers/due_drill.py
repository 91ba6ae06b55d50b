"""A home where only one item is due today: the shipped coding drill dpo-loss, passed six days ago
(a fixture: import `drill_due` by name)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from drill.coding.attempt import CodingAttempt
from drill.paths import Paths
from drill.study import Study
from drill.study.writes import write_coding


@pytest.fixture
def drill_due(drill_home, clock) -> str:
    """The due drill's item id; no new items are given (new_per_day = 0)."""
    paths = Paths(drill_home)
    paths.ensure()
    paths.config.write_text("new_per_day = 0\n")
    clock.now -= timedelta(days=6)
    study = Study.open(paths, clock)
    card = study.reviews.cards(["kernel:dpo-loss"])[0]
    grade = study.drills.grade(card, "pass", 600.0, 0)
    write_coding(study, CodingAttempt(card.item_id, clock(), clock(), "pass", 3, 0, "cpu", 0, 600.0, None, "ws"), grade)
    assert grade.after.due_day <= (clock.now + timedelta(days=6)).date()
    study.close()
    clock.now += timedelta(days=6)
    return card.item_id

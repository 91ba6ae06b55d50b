"""A simulated learner: drill's own daily queue, answered by someone whose memory follows FSRS with
other parameters than py-fsrs's defaults (they forget faster), so fitting has something to find."""

from __future__ import annotations

import random
from datetime import timedelta

from drill.schedule import fsrs_model
from drill.schedule.fsrs_model import FSRSSettings, FSRSState
from drill.study import Study
from drill.study.writes import write_grade

# py-fsrs's defaults with the initial stabilities a quarter as long and a steeper forgetting curve.
_DEFAULTS = (
    0.212,
    1.2931,
    2.3065,
    8.2956,
    6.4133,
    0.8334,
    3.0194,
    0.001,
    1.8722,
    0.1666,
    0.796,
    1.4835,
    0.0614,
    0.2629,
    1.6483,
    0.6014,
    1.8729,
    0.5425,
    0.0912,
    0.0658,
    0.1542,
)
TRUE_MEMORY = FSRSSettings(parameters=(*(w / 4 for w in _DEFAULTS[:4]), *_DEFAULTS[4:20], 0.3))


def learn(study: Study, clock, days: int, seed: int = 7) -> int:
    """Review every day's queue for `days` days (a failed card is repeated until passed, as the
    session does); return the counted reviews given."""
    rng = random.Random(seed)
    memory: dict[str, FSRSState] = {}
    counted = 0
    for _ in range(days):
        today = study.today
        for card in study.reviews.cards(study.reviews.queue()):
            before = memory.get(card.item_id, FSRSState())
            recall = 0.0 if before.is_new else fsrs_model.retrievability(before, today, TRUE_MEMORY)
            button = 3 if rng.random() < recall else 1
            write_grade(study, study.reviews.grade(card, button, 1000))
            if button == 1:
                write_grade(study, study.reviews.grade(study.reviews.cards([card.item_id])[0], 3, 1000))
            memory[card.item_id] = fsrs_model.review(before, button, today, TRUE_MEMORY)
            counted += 1
        clock.now += timedelta(days=1)
    return counted

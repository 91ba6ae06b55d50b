"""One history built through the Study API, the same on whichever store it is given.

Over eleven study days from 180 days ago to today: every queued card, pitch and estimate graded
(buttons cycling, so some items fail and some grow mature), a same-day repeat, a grade undone,
an item suspended; two mock rounds (one abandoned); coding-drill runs, one passing. Content is
the stats tests' (helpers/stats_history.py): cards, pitches, two estimation families and
two coding drills.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from drill.coding.attempt import CodingAttempt
from drill.estimate.rounds import RoundSettings
from drill.stats.report import load_report
from drill.store.coding import drill_records
from drill.store.estimates import finish_round, record_round_attempt, round_history
from drill.store.writes import set_suspended
from drill.study import Study
from drill.study.writes import write_coding, write_estimate, write_grade, write_undo
from helpers.clock import FIXED_NOW, Clock
from helpers.stats_history import StatsPaths, stats_paths

DAYS = (-180, -150, -120, -90, -60, -40, -25, -10, -3, -1, 0)  # study days, from today
BUTTONS = (4, 3, 4, 1, 2, 3)
ANSWERS = ("1 GB", "2.5 GiB", "300 GB/s", "not a number", "0.49 s")
SUSPENDED = "i-2"
DRILL = "kernel:online-softmax"
PERIODS = (7, 30, 365, None)
BLOCKS = (None, "memory", "inference", "compute")


def content(home: Path, root: Path, scheduler: str = "sm2", interview: str | None = None) -> StatsPaths:
    """The stats tests' content under `root`, state under `home`, and a config.toml."""
    paths = stats_paths(home, root)
    home.mkdir(parents=True, exist_ok=True)
    # Coding drills are practised through _coding, not the daily queue; this mix lets cards grow
    # mature under both schedulers, so every figure compared has something in it.
    lines = [f'scheduler = "{scheduler}"', "new_mix = { card = 13, pitch = 1, estimate = 1 }"]
    lines += [f"interview_date = {interview}"] if interview else []
    paths.config.write_text("\n".join(lines) + "\n")
    return paths


def open_study(paths: StatsPaths, clock: Clock) -> Study:
    return Study.open(paths, clock, random.Random(7))


def _review(study: Study, offset: int) -> None:
    cards = study.reviews.cards(study.reviews.queue())
    for n, card in enumerate(cards):
        if card.kind == "estimate":
            problem = study.estimation.new_problem(card.item_id)
            attempt = study.estimation.answer(problem, ANSWERS[n % len(ANSWERS)], 20.0 + n)
            write_estimate(study, study.reviews.grade_estimate(card, attempt), attempt.row())
        else:
            write_grade(study, study.reviews.grade(card, BUTTONS[(n - offset) % len(BUTTONS)], 2_000 + 1_500 * n))
    if cards:
        again = study.reviews.cards([cards[0].item_id])[0]  # a same-day repeat: logged, not counted
        write_grade(study, study.reviews.grade(again, 3, 4_000))
        undone = study.reviews.grade(again, 1, 1_000)
        write_grade(study, undone)
        write_undo(study, undone)


def _mock_round(study: Study, score: float, abandoned: bool) -> None:
    settings = RoundSettings(problems=3, minutes=5, blocks=("inference", "compute"))
    round_id, problems = study.estimation.start_round(settings)
    for n, problem in enumerate(problems[:2]):
        record_round_attempt(study.engine, round_id, study.estimation.answer(problem, ANSWERS[n], 30.0 + n).row())
    finish_round(study.engine, round_id, study.clock(), score, abandoned)


def _coding(study: Study, clock: Clock, workspace: str, passes: bool) -> None:
    card = study.reviews.cards([DRILL])[0]
    run = CodingAttempt(DRILL, clock(), clock(), "fail", 1, 2, "cpu", 1, 300.0, None, workspace)
    write_coding(study, run, None)
    if passes:
        grade = study.drills.grade(card, "pass", 540.0, 2)
        write_coding(study, replace(run, status="pass", passed=3, failed=0, hints_used=2, seconds=540.0), grade)


def build_history(paths: StatsPaths, clock: Clock) -> None:
    study = open_study(paths, clock)
    try:
        for offset in DAYS:
            clock.now = FIXED_NOW + timedelta(days=offset)
            _review(study, offset)
            if offset == -25:
                _mock_round(study, 0.6, abandoned=False)
                _coding(study, clock, "ws-1", passes=True)
            if offset == -10:
                set_suspended(study.engine, SUSPENDED, True)
            if offset == -1:
                _mock_round(study, 0.0, abandoned=True)
                _coding(study, clock, "ws-2", passes=False)
    finally:
        study.close()
    clock.now = FIXED_NOW


def figures(study: Study) -> dict[str, Any]:
    """Everything the screens and `drill stats` show, as JSON-ready values."""
    return {
        "home": study.browsing.home().model_dump(mode="json"),
        "queue": study.reviews.queue(),
        "reports": {
            f"{period}/{block}": load_report(study, period, block).model_dump(mode="json")
            for period in PERIODS
            for block in BLOCKS
        },
        "rounds": [row.model_dump() for row in round_history(study.engine)],
        "drills": {key: asdict(record) for key, record in drill_records(study.engine).items()},
    }


def as_json(value: Any) -> str:
    """Canonical JSON text: an int where the other store gives a float shows as a difference."""
    return json.dumps(value, sort_keys=True, indent=1, default=str)

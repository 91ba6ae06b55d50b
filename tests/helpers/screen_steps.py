"""What the screen snapshots share: frozen test content, the two terminal sizes, the way to a
screen, and a history of past study days written through the study layer.

The content is tests/snapshots/content/ (decks and estimation families written for these tests) and
copies of two shipped coding drills, so edits to the shipped decks never change a snapshot.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from drill.store.estimates import finish_round, record_round_attempt
from drill.study.writes import write_coding, write_estimate, write_grade
from drill.tui.app import DrillApp
from helpers.content import KERNELS
from helpers.pilot import wait_ready, wait_until

SIZES = [(80, 24), (120, 36)]
SIZE_IDS = ["80x24", "120x36"]
CONTENT = Path(__file__).resolve().parents[1] / "snapshots" / "content"
DRILLS = ("dpo-loss", "quantize-per-channel")
FAMILIES = ("weights-memory", "decode-step", "pipeline-bubble")

RunBefore = Callable[[Pilot], Awaitable[None]]


def use_content(
    paths, decks: tuple[str, ...] = ("cards",), problems: tuple[str, ...] = (), drills: tuple[str, ...] = ()
):
    """`paths` (conftest's small_paths) with only these decks, estimation families and drills."""
    for path in paths.decks.glob("*.toml"):
        path.unlink()
    for name in decks:
        shutil.copy(CONTENT / "decks" / f"{name}.toml", paths.decks)
    for name in problems:
        shutil.copy(CONTENT / "problems" / f"{name}.toml", paths.problems)
    if drills:
        shutil.copy(KERNELS / "conftest.py", paths.kernels)
    for name in drills:
        shutil.copytree(KERNELS / name, paths.kernels / name)
    return paths


def all_content(paths):
    """Every kind of item: cards, grill questions, pitches, estimation families and drills."""
    return use_content(paths, decks=("cards", "grill", "pitch"), problems=FAMILIES, drills=DRILLS)


def redraw_clocks(screen) -> None:
    """Every clock on `screen` (anything with a tick: a timer, a countdown) shows the stopped time
    now, not at its next interval."""
    for node in (screen, *screen.query("*")):
        tick = getattr(node, "tick", None)
        if callable(tick):
            tick()


def settle_screen(app: DrillApp) -> None:
    """Clocks redrawn, no blinking cursor and no notices (their timeouts run on the wall clock)."""
    for screen in app.screen_stack:
        redraw_clocks(screen)
    for box in app.screen.query(Input):
        box.cursor_blink = False
    for box in app.screen.query(TextArea):
        box.cursor_blink = False
    app.clear_notifications()


def snapshot(snap_compare, paths, clock, size, steps: RunBefore) -> bool:
    """The app at `size` after `steps`, compared with its stored snapshot."""

    async def run_before(pilot: Pilot) -> None:
        await steps(pilot)
        await pilot.pause()
        settle_screen(pilot.app)
        await pilot.pause()

    return snap_compare(DrillApp(paths, clock=clock), terminal_size=size, run_before=run_before)


async def home(pilot: Pilot, seed: int = 3) -> None:
    """Home, ready, with every draw from now on seeded."""
    await wait_ready(pilot)
    pilot.app.study.rng = random.Random(seed)


async def run_clocks(pilot: Pilot, clock, seconds: float) -> None:
    """Move the stopped clock on by `seconds` and redraw every clock on screen (anything with a tick)."""
    clock.advance(seconds)
    redraw_clocks(pilot.app.screen)
    await pilot.pause()


async def press_until(pilot: Pilot, key: str, screen: type, timeout: float = 10.0):
    """Press `key` and wait for `screen` (a class) to be on top; return it."""
    await pilot.press(key)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, screen), timeout=timeout)
    return pilot.app.screen


# -- a history written through the study layer -------------------------------------------------


def study_days(paths, clock, days_ago: tuple[int, ...], study_day: Callable) -> None:
    """Open the study on each of these past days (clock moved back) and run `study_day(study, n)`."""
    from drill.study import Study

    today = clock.now
    try:
        for n, days in enumerate(days_ago):
            clock.now = today - timedelta(days=days)
            study = Study.open(paths, clock)
            study.rng = random.Random(n)
            try:
                study_day(study, n)
                study.drain()
            finally:
                study.close()
    finally:
        clock.now = today


def review_three(study, n: int) -> None:
    """Review the first three of the day's queue: estimates answered (every third one wrong), cards
    and pitches graded (every fourth one Again), drills passed on some days and failed on others."""
    for index, card in enumerate(study.reviews.cards(study.reviews.queue()[:3])):
        if card.kind == "estimate":
            answer_estimate(study, card, right=(index + n) % 3 != 0)
        elif card.kind == "coding":
            finish_drill(study, card, passed=n % 2 == 0)
        else:
            button = 1 if (index + n) % 4 == 0 else 3
            write_grade(study, study.reviews.grade(card, button, 20_000 + 1000 * index))


def wrong_answer(problem) -> str:
    """An answer far off, in the problem's unit (so it is graded, not refused)."""
    return {"byte": "1 kB", "s": "1 h"}.get(problem.unit, "1e9")


def answer_estimate(study, card, right: bool) -> None:
    problem = study.estimation.new_problem(card.item_id)
    text = problem.pretty if right else wrong_answer(problem)
    attempt = study.estimation.answer(problem, text, 40.0)
    write_estimate(study, study.reviews.grade_estimate(card, attempt), attempt.row())


def finish_drill(study, card, passed: bool) -> None:
    from drill.coding.attempt import CodingAttempt
    from drill.coding.runner.result import TestRun

    status, seconds, hints = ("pass", 420.0, 1) if passed else ("fail", 600.0, 3)
    run = TestRun(status=status, passed=9 if passed else 2, failed=0 if passed else 7)
    now = study.clock()
    attempt = CodingAttempt.of(run, card.item_id, now - timedelta(seconds=seconds), now, hints, seconds, "workspace")
    write_coding(study, attempt, study.drills.grade(card, status, seconds, hints))


def mock_round(study, n: int) -> None:
    """A five-problem round, four answered (one of them wrong)."""
    from drill.estimate.rounds import RoundSettings, RoundSummary

    settings = RoundSettings(problems=5, minutes=10)
    round_id, problems = study.estimation.start_round(settings)
    attempts = []
    for index, problem in enumerate(problems[:4]):
        text = problem.pretty if index != 1 else wrong_answer(problem)
        attempts.append(study.estimation.answer(problem, text, 60.0 + 10 * index))
        record_round_attempt(study.engine, round_id, attempts[-1].row())
    study.clock.now += timedelta(seconds=290)
    finish_round(
        study.engine,
        round_id,
        study.clock(),
        RoundSummary(settings.problems, attempts, 290.0).score,
        abandoned=n % 2 == 1,
    )


def mock_interview(study, n: int) -> None:
    from drill.interview.settings import InterviewSettings
    from helpers.interview import run_interview

    run_interview(study, InterviewSettings(minutes=30, grill=1, pitch_seconds=120, estimates=1))


def history(paths, clock) -> None:
    """Two weeks of study: reviews on four days, two mock rounds, a mock interview."""
    study_days(paths, clock, (12, 5, 2, 1), review_three)
    study_days(paths, clock, (5, 2), mock_round)
    study_days(paths, clock, (1,), mock_interview)

"""A card's result (and a coding card's budget) is drawn only under that card: Markdown parses an
update in a thread, and one held back (under load, for seconds) must not leave the text before it
— the previous card's — on screen under the next card (issue 24, item 11)."""

import threading
from datetime import timedelta

import pytest
from helpers.content import estimates_only
from helpers.markdown import drawn
from helpers.pilot import wait_until
from helpers.screens import open_review
from markdown_it import MarkdownIt
from textual.widgets import Markdown

from drill.coding.attempt import CodingAttempt
from drill.paths import Paths
from drill.study import Study
from drill.study.writes import write_coding
from drill.tui.app import DrillApp


class HeldParser:
    """Markdown's parser, held in its thread while `hold` is set for texts that contain `marker`."""

    hold = threading.Event()
    go = threading.Event()
    marker = ""

    def __init__(self, *args, **kwargs) -> None:
        self.parser = MarkdownIt(*args, **kwargs)

    def parse(self, text: str):
        if self.hold.is_set() and self.marker in text:
            self.go.wait(30)
        return self.parser.parse(text)


@pytest.fixture
def held(monkeypatch) -> type[HeldParser]:
    HeldParser.hold.clear()
    HeldParser.go.clear()
    monkeypatch.setattr("textual.widgets._markdown.MarkdownIt", HeldParser)
    yield HeldParser
    HeldParser.go.set()  # nothing stays blocked past the test


@pytest.mark.slow
async def test_the_previous_estimate_result_is_never_drawn_under_the_next_card(small_paths, clock, held) -> None:
    estimates_only(small_paths, "kv-cache.toml", "pipeline-bubble.toml")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_review(pilot)
        first_prompt = screen.view.problem.prompt
        await pilot.press(*screen.view.problem.pretty, "enter")
        answer = screen.view.query_one("#answer", Markdown)
        await wait_until(pilot, lambda: "Worked solution" in drawn(answer))
        first_result = drawn(answer)
        await pilot.press("enter")  # the next card
        assert screen.view.problem.prompt != first_prompt
        held.marker = "Worked solution"
        held.hold.set()  # its result is parsed late
        await pilot.press(*screen.view.problem.pretty, "enter")
        await pilot.pause(0.3)
        assert answer.source != first_result and drawn(answer) == ""  # neither the old result nor half of one
        held.go.set()
        await wait_until(pilot, lambda: "Worked solution" in drawn(answer))
        assert drawn(answer) != first_result


@pytest.fixture
def two_drills_due(drill_home, clock) -> None:
    """dpo-loss (budget 10:00) and checkpoint-wrapper (15:00) due today, nothing else."""
    paths = Paths(drill_home)
    paths.ensure()
    paths.config.write_text("new_per_day = 0\n")
    clock.now -= timedelta(days=6)
    study = Study.open(paths, clock)
    for card in study.reviews.cards(["kernel:dpo-loss", "kernel:checkpoint-wrapper"]):
        grade = study.drills.grade(card, "pass", 600.0, 0)
        attempt = CodingAttempt(card.item_id, clock(), clock(), "pass", 3, 0, "cpu", 0, 600.0, None, "ws")
        write_coding(study, attempt, grade)
    study.close()
    clock.now += timedelta(days=6)


@pytest.mark.slow
async def test_a_coding_card_never_shows_the_previous_drills_budget(drill_home, clock, two_drills_due, held) -> None:
    app = DrillApp(Paths(drill_home), clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_review(pilot)
        prompt = screen.view.query_one("#prompt", Markdown)
        await wait_until(pilot, lambda: "budget" in drawn(prompt))
        first = drawn(prompt)
        held.marker = "Coding drill"
        held.hold.set()  # the next drill's invitation is parsed late
        await pilot.press("l")  # later today: the other drill
        await pilot.pause(0.3)
        assert prompt.source != first and drawn(prompt) == ""
        held.go.set()
        await wait_until(pilot, lambda: "budget" in drawn(prompt))
        budgets = [budget for budget in ("budget 10:00", "budget 15:00") if budget in first]
        assert len(budgets) == 1 and budgets[0] not in drawn(prompt)

"""Snapshots of the review, one kind of card at a time, before and after the reveal (a grill card
with its checklist and errata, a pitch against its clock, an estimate asked / refused / graded, a
due coding drill), help over a card, and the session summary, at 80×24 and 120×36."""

import pytest
from helpers.pilot import wait_until
from helpers.screen_steps import SIZE_IDS, SIZES, run_clocks, snapshot, use_content
from helpers.screens import open_review

from drill.tui.screens.review import ReviewScreen
from drill.tui.screens.summary import SummaryScreen

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize(
    "keys",
    [
        (),
        ("space",),
        ("space", "tab", "space", "down", "down", "space"),
        ("space", "f1"),
    ],
    ids=["prompt", "revealed", "two-points-ticked", "help"],
)
def test_a_grill_card(snap_compare, small_paths, clock, size, keys) -> None:
    async def steps(pilot) -> None:
        screen = await open_review(pilot)
        assert screen.session.current.item_id.startswith("grill-")
        await pilot.press(*keys)

    assert snapshot(snap_compare, use_content(small_paths, decks=("grill",)), clock, size, steps)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_plain_card_revealed(snap_compare, small_paths, clock, size) -> None:
    async def steps(pilot) -> None:
        await open_review(pilot)
        await pilot.press("space")

    assert snapshot(snap_compare, use_content(small_paths, decks=("cards",)), clock, size, steps)


PITCH_STEPS = {
    "speaking": (12, ()),
    "over-target": (41, ()),
    "typing": (20, ("t", *"ZeRO shards the optimizer state, then gradients")),
    "revealed-with-typed-answer": (26, ("t", *"ZeRO shards the optimizer state", "escape", "space")),
    "revealed-two-ticked": (26, ("space", "tab", "space", "down", "down", "space")),
    "leaving-with-typed-text": (20, ("t", *"ZeRO shards the optimizer state", "escape", "escape")),
}


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("stage", list(PITCH_STEPS))
def test_a_pitch(snap_compare, small_paths, clock, stopped_clock, size, stage) -> None:
    seconds, keys = PITCH_STEPS[stage]

    async def steps(pilot) -> None:
        screen = await open_review(pilot)
        assert screen.session.current.item_id == "pitch-zero"
        await run_clocks(pilot, stopped_clock, seconds)
        await pilot.press(*keys)

    assert snapshot(snap_compare, use_content(small_paths, decks=("pitch",)), clock, size, steps)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize(
    "answer", ["", "1+", "14", "right", "wrong"], ids=["asked", "typo", "no-unit", "graded-right", "graded-wrong"]
)
def test_an_estimate(snap_compare, small_paths, clock, size, answer) -> None:
    async def steps(pilot) -> None:
        screen = await open_review(pilot)
        assert screen.session.current.item_id == "estimate:weights-memory"
        if answer:
            typed = {"right": screen.view.problem.pretty, "wrong": "1 kB"}.get(answer, answer)
            await pilot.press(*typed, "enter")

    assert snapshot(snap_compare, use_content(small_paths, decks=(), problems=("weights-memory",)), clock, size, steps)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_due_coding_drill(snap_compare, small_paths, clock, size) -> None:
    async def steps(pilot) -> None:
        screen = await open_review(pilot)
        assert screen.session.current.kind == "coding"

    assert snapshot(snap_compare, use_content(small_paths, decks=(), drills=("dpo-loss",)), clock, size, steps)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_session_summary(snap_compare, small_paths, clock, stopped_clock, size) -> None:
    """Four cards, the first failed once and passed on its second showing."""

    async def steps(pilot) -> None:
        screen = await open_review(pilot)
        while isinstance(pilot.app.screen, ReviewScreen):
            await run_clocks(pilot, stopped_clock, 25)
            await pilot.press("space", "1" if not screen.session.given else "3")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SummaryScreen))

    assert snapshot(snap_compare, use_content(small_paths, decks=("cards",)), clock, size, steps)

"""The card browser under Pilot: `b` opens every item, `/` searches, the block, kind and flag filters
narrow the table, Enter opens card info with the item's history, `s` suspends and unsuspends, `f`
forgets (after asking) and `e` edits, each read back from the database."""

from __future__ import annotations

import contextlib
import io
from datetime import timedelta

import pytest
from helpers.content import estimates_only
from helpers.editor import fake_editor
from helpers.pilot import db_rows, wait_ready, wait_until
from rich.console import Console
from textual.widgets import Checkbox, Markdown, Select, Static

from drill.days import describe_interval
from drill.store.browse_filter import ItemSort
from drill.study import Study
from drill.study.writes import write_grade
from drill.tui.app import DrillApp
from drill.tui.dialogs.confirm import Confirm
from drill.tui.screens.browser import BrowserScreen
from drill.tui.screens.card_info import CardInfoScreen
from drill.tui.widgets.item_table import ItemTable


def past_reviews(paths, clock) -> None:
    """m-1 graded Good two days ago and Again yesterday (a lapse); c-1 Easy yesterday."""
    today = clock.now
    try:
        for days, grades in ((2, [("m-1", 3)]), (1, [("m-1", 1), ("c-1", 4)])):
            clock.now = today - timedelta(days=days)
            study = Study.open(paths, clock)
            for item_id, button in grades:
                card = study.reviews.cards([item_id])[0]
                write_grade(study, study.reviews.grade(card, button, 15_000, typed_answer="my words"))
            study.close()
    finally:
        clock.now = today


async def open_browser(pilot) -> BrowserScreen:
    await wait_ready(pilot)
    await pilot.press("b")
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen, BrowserScreen) and pilot.app.screen.has_class("loaded")
    )
    return pilot.app.screen


def shown(screen: BrowserScreen) -> list[str]:
    return [row.item_id for row in screen.query_one(ItemTable).rows]


def count(screen) -> str:
    return str(screen.query_one("#browser-count", Static).render())


async def move_to(pilot, screen: BrowserScreen, item_id: str) -> None:
    table = screen.query_one(ItemTable)
    table.focus()
    await pilot.press("home", *["down"] * shown(screen).index(item_id))
    assert table.current.item_id == item_id


def text_of(static: Static) -> str:
    """What a Static shows, a rich Table included, as plain text."""
    console = Console(width=150, file=io.StringIO())
    with console.capture() as captured:
        console.print(static.content)
    return captured.get()


def stored(app, item_id: str) -> tuple:
    [row] = db_rows(app, f"SELECT suspended, due_day, last_review_day, repetitions FROM item WHERE id = '{item_id}'")
    return row


@pytest.mark.slow
async def test_b_shows_every_item_and_slash_searches_as_you_type(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_browser(pilot)
        assert shown(screen) == ["m-1", "m-2", "c-1", "c-2", "i-1", "i-2"]
        assert count(screen) == "6 items"
        await pilot.press("slash", "c", "-")
        assert shown(screen) == ["c-1", "c-2"] and count(screen) == "2 of 6 items"
        await pilot.press("backspace", "backspace", *"ANSWER OF I-2")  # the answer, any case
        assert shown(screen) == ["i-2"]
        await pilot.press("enter")  # leaves the box for the table
        assert isinstance(screen.focused, ItemTable)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.home_screen)


@pytest.mark.slow
async def test_block_kind_and_flag_filters_narrow_the_table(small_paths, clock) -> None:
    past_reviews(small_paths, clock)
    small_paths.config.write_text("leech_threshold = 1\n")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_browser(pilot)
        await pilot.click("#block")
        await pilot.press("down", "down", "down", "enter")  # the list opens above its first line; compute is third
        await wait_until(pilot, lambda: shown(screen) == ["c-1", "c-2"])
        screen.query_one("#block", Select).clear()
        await pilot.click("#kind")
        await pilot.press("down", "down", "down", "down", "enter")  # card, pitch, estimate: no such item here
        await wait_until(pilot, lambda: shown(screen) == [])
        screen.query_one("#kind", Select).clear()
        await pilot.click("#only-leech")
        assert screen.query_one("#only-leech", Checkbox).value
        await wait_until(pilot, lambda: shown(screen) == ["m-1"])  # lapsed once, with leech_threshold = 1
        await pilot.click("#only-leech")
        await pilot.click("#only-due")
        await wait_until(
            pilot, lambda: shown(screen) == ["m-1", "c-1"]
        )  # failed yesterday, or new and passed yesterday
        await pilot.click("#only-due")
        await move_to(pilot, screen, "c-2")
        await pilot.press("s")
        await pilot.click("#only-suspended")
        await wait_until(pilot, lambda: shown(screen) == ["c-2"])


async def test_s_suspends_and_unsuspends_and_the_item_comes_back_into_the_queue(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_browser(pilot)
        await move_to(pilot, screen, "c-1")
        await pilot.press("s")
        await wait_until(pilot, lambda: screen.query_one(ItemTable).current.suspended)
        assert stored(app, "c-1")[0] == 1
        assert "c-1" not in app.study.reviews.queue()
        await pilot.press("s")
        await wait_until(pilot, lambda: not screen.query_one(ItemTable).current.suspended)
        assert stored(app, "c-1")[0] == 0
        assert "c-1" in app.study.reviews.queue()


@pytest.mark.slow
async def test_f_asks_then_forgets_and_keeps_the_history(small_paths, clock) -> None:
    past_reviews(small_paths, clock)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_browser(pilot)
        await move_to(pilot, screen, "c-1")
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, Confirm))
        await pilot.press("n")  # changed their mind: nothing happens
        await wait_until(pilot, lambda: app.screen is screen)
        assert stored(app, "c-1")[2] is not None
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, Confirm))
        await pilot.press("y")
        await wait_until(pilot, lambda: screen.query_one(ItemTable).current.is_new)
        assert stored(app, "c-1") == (0, None, None, 0)
        assert db_rows(app, "SELECT button FROM review WHERE item_id = 'c-1'") == [(4,)]
        assert screen.query_one(ItemTable).current.reviews == 1


@pytest.mark.slow
async def test_enter_opens_card_info_where_s_and_f_work_too(small_paths, clock) -> None:
    past_reviews(small_paths, clock)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_browser(pilot)
        await move_to(pilot, screen, "m-1")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CardInfoScreen))
        info = app.screen
        assert info.query_one("#info-answer", Markdown).source == "Answer of m-1."
        reviews = text_of(info.query_one("#info-reviews", Static))
        assert reviews.count("Good") == 1 and reviews.count("Again") == 1 and "typed “my words”" in reviews
        assert "2 reviews · 1 lapse" in text_of(info.query_one("#info-state", Static))
        await pilot.press("s")
        await wait_until(pilot, lambda: "suspended" in text_of(info.query_one("#info-state", Static)))
        assert stored(app, "m-1")[0] == 1
        await pilot.press("escape")  # back in the browser, the row shows what card info did
        await wait_until(pilot, lambda: app.screen is screen and screen.query_one(ItemTable).current.suspended)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CardInfoScreen))
        await pilot.press("f", "y")
        await wait_until(pilot, lambda: text_of(app.screen.query_one("#info-state", Static)).startswith("new"))
        assert stored(app, "m-1") == (1, None, None, 0)  # still suspended, back to new


@pytest.fixture
def headless_suspend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DrillApp, "suspend", lambda self: contextlib.nullcontext())  # headless has no tty
    monkeypatch.delenv("VISUAL", raising=False)


@pytest.mark.slow
async def test_e_edits_the_card_and_keeps_its_history(
    small_paths, clock, tmp_path, monkeypatch, headless_suspend
) -> None:
    past_reviews(small_paths, clock)
    fake_editor(tmp_path, monkeypatch, "s/Answer of c-1\\./Edited answer of c-1./")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_browser(pilot)
        await move_to(pilot, screen, "c-1")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CardInfoScreen))
        await pilot.press("e")
        await wait_until(
            pilot, lambda: app.screen.query_one("#info-answer", Markdown).source == "Edited answer of c-1."
        )
        assert db_rows(app, "SELECT answer FROM item WHERE id = 'c-1'") == [("Edited answer of c-1.",)]
        assert db_rows(app, "SELECT button FROM review WHERE item_id = 'c-1'") == [(4,)]
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("slash", *"edited")
        assert shown(screen) == ["c-1"]  # the search reads the new text


async def test_under_fsrs_the_memory_column_is_stability(small_paths, clock) -> None:
    past_reviews(small_paths, clock)
    small_paths.config.write_text('scheduler = "fsrs"\n')
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_browser(pilot)
        table = screen.query_one(ItemTable)
        labels = [column.label for column in table.columns]
        assert "stab" in labels and "ease" not in labels
        c1, new = (next(row for row in table.rows if row.item_id == item_id) for item_id in ("c-1", "i-1"))
        memory = table.columns[labels.index("stab")]
        assert memory.cell(c1) == describe_interval(round(c1.stability)) and memory.cell(new) == ""


@pytest.mark.slow
async def test_the_question_shows_at_80_columns_and_o_or_a_heading_sorts(small_paths, clock) -> None:
    past_reviews(small_paths, clock)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_browser(pilot)
        table = screen.query_one(ItemTable)
        drawn = dict(zip((column.label for column in table.columns), table.widths, strict=True))
        assert drawn["question"] >= 20 and drawn["id"] >= 10
        prompt = next(row.prompt for row in table.rows if row.item_id == "m-1")
        assert table._line(table.rows[0]).startswith(" " + prompt[:18])  # the question, first
        await pilot.press("o")  # the first column drawn: the question
        assert screen.order == ItemSort("question") and table.columns[0].label == "question▲"
        assert [row.prompt for row in table.rows] == sorted((row.prompt for row in table.rows), key=str.casefold)
        assert count(screen) == "6 items, by question ▲"
        await pilot.press("O")
        assert screen.order == ItemSort("question", descending=True)
        revs = table.columns.index(next(column for column in table.columns if column.label == "revs"))
        x = 1 + sum(width + 1 for width in table.widths[:revs] if width)
        await pilot.click(ItemTable, offset=(x + 1, 0))
        assert screen.order == ItemSort("revs")
        assert [row.reviews for row in table.rows] == sorted(row.reviews for row in table.rows)
        await pilot.click(ItemTable, offset=(x + 1, 0))  # again: the other way
        assert table.rows[0].item_id == "m-1"  # two reviews, the most
        assert screen.order == ItemSort("revs", descending=True)


@pytest.mark.slow
async def test_an_estimate_row_reads_as_its_example_draw_not_its_template(small_paths, clock) -> None:
    estimates_only(small_paths, "kv-cache.toml")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await open_browser(pilot)
        study = app.study

        def prompts() -> dict[str, str]:
            return {row.item_id: row.prompt for row in screen.query_one(ItemTable).rows}

        await wait_until(pilot, lambda: prompts() and "{" not in "".join(prompts().values()))
        for item_id, prompt in prompts().items():
            assert prompt == study.estimation.example_prompt(item_id)

"""Card info lists the item's text revisions: when each edit was made and what it changed."""

from __future__ import annotations

import contextlib
import io
from datetime import timedelta

import pytest
from helpers.editor import fake_editor
from helpers.pilot import db_rows, wait_ready, wait_until
from rich.console import Console
from textual.widgets import Static

from drill.tui.app import DrillApp
from drill.tui.screens.browser import BrowserScreen
from drill.tui.screens.card_info import CardInfoScreen, text_change
from drill.tui.widgets.item_table import ItemTable


@pytest.fixture
def headless_suspend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DrillApp, "suspend", lambda self: contextlib.nullcontext())  # headless has no tty
    monkeypatch.delenv("VISUAL", raising=False)


def text_of(static: Static) -> str:
    console = Console(width=150, file=io.StringIO())  # no terminal: plain text
    with console.capture() as captured:
        console.print(static.content)
    return captured.get()


async def open_card_info(pilot, item_id: str) -> CardInfoScreen:
    await wait_ready(pilot)
    await pilot.press("b")
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen, BrowserScreen) and pilot.app.screen.has_class("loaded")
    )
    table = pilot.app.screen.query_one(ItemTable)
    table.focus()
    await pilot.press("home", *["down"] * [row.item_id for row in table.rows].index(item_id), "enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CardInfoScreen))
    return pilot.app.screen


async def test_each_edit_is_listed_newest_first_with_what_it_changed(
    small_paths, clock, tmp_path, monkeypatch, headless_suspend
) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_card_info(pilot, "c-1")
        await wait_until(pilot, lambda: screen.has_class("revisions-read"))
        assert not screen.query_one("#info-revisions").display  # never edited: no section
        fake_editor(tmp_path, monkeypatch, "s/Answer of c-1\\./Edited answer of c-1./")
        await pilot.press("e")
        await wait_until(pilot, lambda: db_rows(app, "SELECT COUNT(*) FROM item_revision") == [(1,)])
        await wait_until(pilot, lambda: screen.query_one("#info-revisions").display)
        clock.now += timedelta(hours=1)
        second_line = "s/Edited answer of c-1\\./Edited answer of c-1.\\\\nA second line./"  # \\n: TOML's escape
        fake_editor(tmp_path, monkeypatch, second_line)
        await pilot.press("e")
        await wait_until(pilot, lambda: "(2)" in text_of(screen.query_one("#info-revisions-heading", Static)))
        lines = text_of(screen.query_one("#info-revisions", Static)).splitlines()
        assert lines[0].split() == ["when", "what", "changed"]
        assert lines[1].startswith("2026-11-22 16:00") and "answer +1 line, now “A second line.”" in lines[1]
        assert lines[2].startswith("2026-11-22 15:00")
        assert "answer +1 −1 lines, now “Edited answer of c-1.”" in lines[2]


def test_a_change_is_said_in_lines_quoting_the_first_new_one() -> None:
    assert text_change("answer", "a\nb\nc", "a\nB\nc\nd") == "answer +2 −1 lines, now “B”"
    assert text_change("prompt", "Same?", "Same?") is None
    assert text_change("answer", "kept\ngone", "kept") == "answer −1 line, was “gone”"
    assert text_change("answer", "a", "a\n") == "answer line endings"
    long = "x" * 60
    assert text_change("answer", "", long) == f"answer +1 line, now “{'x' * 47}…”"

"""Pilot tests of the coding-drill screens: list, timed attempt, hidden tests, hints, give up."""

import contextlib
import shutil
from pathlib import Path

import pytest
from textual.widgets import Markdown

from drill.paths import Paths
from drill.tui.app import DrillApp
from drill.tui.screens.drill_attempt import DrillScreen
from drill.tui.screens.drills import DrillListScreen
from tui_helpers import db_rows, wait_ready, wait_until

KERNELS = Path(__file__).resolve().parents[1] / "kernels"


@pytest.fixture
def app(drill_home, clock, monkeypatch):
    monkeypatch.delenv("EDITOR", raising=False)
    return DrillApp(Paths(drill_home), clock=clock)


async def open_drill(pilot, drill_id: str) -> DrillScreen:
    await wait_ready(pilot)
    await pilot.press("k")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DrillListScreen))
    listing = pilot.app.screen
    listing.start(drill_id)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DrillScreen))
    return pilot.app.screen


async def test_solving_a_drill_records_a_pass_and_a_review(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "quantize-per-channel")
        workspace = screen.workspace.folder
        assert sorted(path.name for path in workspace.iterdir()) == ["prompt.md", "solution.py"]
        await pilot.press("t")  # the starter fails
        await wait_until(pilot, lambda: not screen.running, timeout=120)
        assert screen.finished is None
        assert "failing" in screen.query_one("#drill-results", Markdown).source
        await pilot.press("h")
        assert screen.hints_used == 1 and "1." in screen.query_one("#drill-hints", Markdown).source
        shutil.copy(KERNELS / "quantize-per-channel" / "solution.py", screen.workspace.solution)
        await pilot.press("t")
        await wait_until(pilot, lambda: not screen.running, timeout=120)
        assert screen.finished == "pass"
        assert "All hidden tests pass" in screen.query_one("#drill-results", Markdown).source
        await pilot.press("s")
        assert "Reference solution" in screen.query_one("#drill-prompt", Markdown).source
    rows = db_rows(app, "SELECT status, hints_used, review_id IS NOT NULL FROM coding_attempt ORDER BY id")
    assert rows == [("fail", 0, 0), ("pass", 1, 1)]
    assert db_rows(app, "SELECT item_id, quality, button FROM review") == [("kernel:quantize-per-channel", 3, 2)]


async def test_giving_up_reveals_the_solution_and_counts_as_a_lapse(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        await pilot.press("s")  # not before the attempt is over
        assert "Reference solution" not in screen.query_one("#drill-prompt", Markdown).source
        await pilot.press("g")
        assert screen.finished == "gave up"
        assert "Reference solution" in screen.query_one("#drill-prompt", Markdown).source
    assert db_rows(app, "SELECT item_id, quality FROM review") == [("kernel:dpo-loss", 1)]
    assert db_rows(app, "SELECT interval, repetitions FROM item WHERE id = 'kernel:dpo-loss'") == [(1, 0)]


async def test_edit_without_editor_says_how_to_work(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        await pilot.press("e")
        assert any("$EDITOR is not set" in str(n.message) for n in app._notifications)
        assert not screen.running


async def test_editor_runs_inside_suspend_then_the_tests_rerun(app, tmp_path, monkeypatch) -> None:
    editor = tmp_path / "fake-editor"
    editor.write_text(f"#!/bin/sh\ncp {KERNELS / 'lora-linear' / 'solution.py'} \"$1\"\n")
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.setattr(DrillApp, "suspend", lambda self: contextlib.nullcontext())  # headless has no tty
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "lora-linear")
        await pilot.press("e")
        await wait_until(pilot, lambda: screen.finished == "pass", timeout=120)


async def test_the_list_fits_80_columns_and_names_the_highlighted_drill(app) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        await pilot.press("k")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, DrillListScreen))
        listing = app.screen
        await pilot.press("down")
        second = listing.drills[1]
        await wait_until(pilot, lambda: second.title in str(listing.query_one("#drill-title").render()))
        table = listing.query_one("#drills")
        assert table.virtual_size.width <= 80 and table.row_count == len(listing.drills) >= 14

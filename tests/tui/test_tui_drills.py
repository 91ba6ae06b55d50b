"""Pilot tests of the coding-drill screens: list, timed attempt, hidden tests, hints, give up."""

import contextlib
import re
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from helpers.footer import cut_keys, footer_keys
from helpers.pilot import db_rows, wait_ready, wait_until
from helpers.screens import open_drill, start_from_list
from helpers.stopwatch import stopwatch  # noqa: F401 - a fixture
from textual.widgets import Markdown, Static

from drill.coding.progress import Progress, read_progress
from drill.paths import Paths
from drill.tui.app import DrillApp
from drill.tui.dialogs.choose import Choose
from drill.tui.dialogs.confirm import Confirm
from drill.tui.screens.drill_attempt import DrillScreen
from drill.tui.screens.drills import DrillListScreen
from drill.tui.widgets.path_label import path_lines

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


@pytest.fixture
def app(drill_home, clock, monkeypatch):
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    return DrillApp(Paths(drill_home), clock=clock)


def reference(screen: DrillScreen) -> str:
    """The reference panel's text, as drawn ('' while hidden)."""
    panel = screen.query_one("#drill-reference", Static)
    return (
        "".join(segment.text for line in panel.render_lines(panel.region.reset_offset) for segment in line)
        if panel.display
        else ""
    )


def text(widget) -> str:
    return str(widget.render())


def in_view(screen: DrillScreen, selector: str) -> bool:
    """Whether the top of `selector` is inside the drill body's visible part."""
    body, widget = screen.query_one("#drill-body"), screen.query_one(selector)
    top = widget.virtual_region.y
    return widget.display and body.scroll_offset.y <= top < body.scroll_offset.y + body.scrollable_content_region.height


@pytest.mark.slow
async def test_solving_a_drill_records_a_pass_and_a_review(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "quantize-per-channel")
        workspace = screen.workspace.folder
        assert sorted(path.name for path in workspace.iterdir()) == ["prompt.md", "solution.py"]
        await pilot.press("t")  # the starter fails
        await wait_until(pilot, lambda: not screen.running, timeout=120)
        assert screen.finished is None
        assert re.search(r"(\d+) of \1 tests failed", screen.query_one("#drill-results", Markdown).source)
        await pilot.press("h")
        assert screen.hints_used == 1 and "1." in screen.query_one("#drill-hints", Markdown).source
        shutil.copy(KERNELS / "quantize-per-channel" / "solution.py", screen.workspace.solution)
        await pilot.press("t")
        await wait_until(pilot, lambda: not screen.running, timeout=120)
        assert screen.finished == "pass"
        assert re.search(r"All \d+ tests passed — solved in", screen.query_one("#drill-results", Markdown).source)
        await pilot.press("s")
        assert "Reference solution" in reference(screen)
    rows = db_rows(app, "SELECT status, hints_used, review_id IS NOT NULL FROM coding_attempt ORDER BY id")
    assert rows == [("fail", 0, 0), ("pass", 1, 1)]
    # passed with a hint: Good (quality 4), never Hard, which would bring it back today
    assert db_rows(app, "SELECT item_id, quality, button FROM review") == [("kernel:quantize-per-channel", 4, 3)]


@pytest.mark.slow
async def test_giving_up_reveals_the_solution_and_counts_as_a_lapse(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        await pilot.press("s")  # not before the attempt is over
        assert "Reference solution" not in reference(screen)
        await pilot.press("g")
        assert isinstance(app.screen, Confirm) and screen.finished is None  # g asks first
        await pilot.press("n")
        assert app.screen is screen and screen.finished is None
        assert db_rows(app, "SELECT count(*) FROM review") == [(0,)]
        await pilot.press("g", "y")
        assert screen.finished == "gave up"
        assert "Reference solution" in reference(screen)
    assert db_rows(app, "SELECT item_id, quality FROM review") == [("kernel:dpo-loss", 1)]
    assert db_rows(app, "SELECT interval, repetitions FROM item WHERE id = 'kernel:dpo-loss'") == [(1, 0)]


@pytest.mark.slow
async def test_edit_without_editor_says_how_to_work(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        await pilot.press("e")
        assert any("$EDITOR is not set" in str(n.message) for n in app._notifications)
        assert not screen.running


@pytest.mark.slow
async def test_an_editor_that_is_not_there_is_said_and_the_app_keeps_running(app, monkeypatch) -> None:
    monkeypatch.setenv("EDITOR", "/nonexistent/editor")
    monkeypatch.setattr(DrillApp, "suspend", lambda self: contextlib.nullcontext())  # headless has no tty
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        await pilot.press("e")
        assert any("Could not start /nonexistent/editor" in str(n.message) for n in app._notifications)
        assert app.is_running and app.screen is screen and not screen.running
        await pilot.press("e")  # and again: still said, still running
        assert app.is_running and app.screen is screen


@pytest.mark.slow
async def test_editor_runs_inside_suspend_then_the_tests_rerun(app, tmp_path, monkeypatch) -> None:
    editor = tmp_path / "fake-editor"
    editor.write_text(f'#!/bin/sh\ncp {KERNELS / "lora-linear" / "solution.py"} "$1"\n')
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.setattr(DrillApp, "suspend", lambda self: contextlib.nullcontext())  # headless has no tty
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "lora-linear")
        await pilot.press("e")
        await wait_until(pilot, lambda: screen.finished == "pass", timeout=120)


@pytest.mark.slow
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


@pytest.mark.slow
async def test_escape_asks_and_the_drill_offers_the_kept_attempt_again(app, clock, stopwatch) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        assert screen.workspace.folder.name == "20261122T150000Z"  # stamped by the app's clock
        screen.workspace.solution.write_text("# my work so far\n")
        await pilot.press("h")
        stopwatch.advance(300)
        await pilot.press("escape")
        assert isinstance(app.screen, Choose)
        await pilot.press("escape")  # stay
        assert app.screen is screen and screen.finished is None
        await pilot.press("escape")
        stopwatch.advance(30)  # reading the question is not kept on the clock
        await pilot.press("k")  # keep it for later
        await wait_until(pilot, lambda: app.screen is app.home_screen)
        clock.now += timedelta(hours=2)
        question = await start_from_list(pilot, "dpo-loss", Choose)
        assert (
            "Resume your attempt at DPO loss with implicit rewards, numerically stable from Sun 22 Nov 15:00?"
            in text(question.query_one("Static"))
        )
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, DrillScreen))
        resumed = app.screen
        assert resumed.workspace == screen.workspace
        assert resumed.workspace.solution.read_text() == "# my work so far\n"
        assert resumed.hints_used == 1 and "1. " in resumed.query_one("#drill-hints", Markdown).source
        assert "5:00 / budget 10:00 · hints 1/3" in text(resumed.query_one("#drill-status"))
        await pilot.press("escape", "d")  # discard: the next start is fresh, without asking
        await wait_until(pilot, lambda: app.screen is app.home_screen)
        fresh = await open_drill(pilot, "dpo-loss")
        assert fresh.workspace.folder.name == "20261122T170000Z" and fresh.hints_used == 0
        assert "0:00 / budget" in text(fresh.query_one("#drill-status"))
    assert read_progress(screen.workspace) == Progress(300.0, 1, "discarded")
    assert db_rows(app, "SELECT count(*) FROM review") == [(0,)]


@pytest.mark.slow
async def test_starting_fresh_sets_the_old_attempt_aside_and_quitting_keeps_the_new_one(app, clock, stopwatch) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        first = await open_drill(pilot, "lora-linear")
        stopwatch.advance(60)
        await pilot.press("escape", "k")
        await wait_until(pilot, lambda: app.screen is app.home_screen)
        clock.now += timedelta(minutes=5)
        await start_from_list(pilot, "lora-linear", Choose)
        await pilot.press("f")
        await wait_until(pilot, lambda: isinstance(app.screen, DrillScreen))
        second = app.screen
        assert second.workspace != first.workspace and second.hints_used == 0
        stopwatch.advance(90)
        await pilot.press("h", "h")
    # the app quit with the attempt open: it is kept, and the first one is not offered again
    assert read_progress(first.workspace) == Progress(60.0, 0, "discarded")
    assert read_progress(second.workspace) == Progress(90.0, 2, None)


@pytest.mark.slow
async def test_the_clock_stops_at_the_pass(app, stopwatch) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        shutil.copy(KERNELS / "dpo-loss" / "solution.py", screen.workspace.solution)
        stopwatch.advance(415)
        await pilot.press("t")
        await wait_until(pilot, lambda: screen.finished == "pass", timeout=120)
        stopwatch.advance(60)  # reading the reference afterwards is not solving time
        screen.tick()
        assert "solved in 6:55 (budget 10:00)" in text(screen.query_one("#drill-status"))
        said = screen.query_one("#drill-results", Markdown).source
        assert re.search(r"All \d+ tests passed — solved in 6:55 \(budget 10:00\)", said)
    assert db_rows(app, "SELECT status, seconds FROM coding_attempt") == [("pass", 415.0)]


@pytest.mark.slow
async def test_hints_and_the_reference_open_in_view_and_are_not_cut_at_80_columns(app) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        await pilot.press("t")  # the starter fails every test: a long list
        await wait_until(pilot, lambda: not screen.running and screen.results, timeout=120)
        await pilot.press("h")
        await pilot.pause()
        assert in_view(screen, "#drill-hints") and app.focused is screen.query_one("#drill-body")
        await pilot.press("g", "y")
        await pilot.pause()
        assert in_view(screen, "#drill-reference")
        assert screen.query_one("#drill-body").max_scroll_x == 0  # nothing runs off to the right
        assert 'margin diff)."""' in reference(screen)  # the end of its longest line, wrapped


@pytest.mark.slow
async def test_a_syntax_error_is_said_once(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        screen.workspace.solution.write_text("import torch\ndef dpo_loss(a, b:\n    return a\n")
        await pilot.press("t")
        await wait_until(pilot, lambda: not screen.running and screen.results, timeout=120)
        said = screen.query_one("#drill-results", Markdown).source
    assert said.count("SyntaxError") == 1 and said.startswith("**The tests could not run your code: SyntaxError")
    assert "could not run: the tests" not in said.lower()


@pytest.mark.slow
async def test_the_workspace_path_has_its_own_line_and_y_copies_it(app, drill_home, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(drill_home.parent))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "quantize-per-channel")
        lines = text(screen.query_one("#drill-file")).splitlines()
        assert "y" in footer_keys(screen) and cut_keys(screen) == []  # the key shows at 80 columns
        await pilot.press("y")
        copied = app.clipboard
    path = "~/home/workspaces/quantize-per-channel/20261122T150000Z/solution.py"
    assert lines == ["Your file (y copies its path):", path]  # one line: copied in one go
    assert copied == str(screen.workspace.solution) and copied.endswith(path[1:])
    assert any(str(n.message) == f"Copied {path}" for n in app._notifications)


@pytest.mark.slow
async def test_a_prompt_code_line_wider_than_the_screen_wraps_whole_at_80_columns(app) -> None:
    """ring-allreduce's signature is 87 characters long: every character of it is drawn."""
    [line] = [line for line in (KERNELS / "ring-allreduce" / "prompt.md").read_text().splitlines() if "def " in line]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_drill(pilot, "ring-allreduce")
        await wait_until(pilot, lambda: screen.query("#drill-prompt MarkdownFence"))
        await pilot.pause()
        fences = list(screen.query("#drill-prompt MarkdownFence"))
        drawn = [
            "".join(segment.text for segment in row)
            for code in screen.query("#drill-prompt MarkdownFence #code-content")
            for row in code.render_lines(code.size.region)
        ]
    assert all(fence.max_scroll_x == 0 for fence in fences)  # nothing runs off the right edge
    assert all(len(row.rstrip()) <= 80 for row in drawn)
    assert "".join(line.split()) in "".join("".join(drawn).split())


def test_path_lines_break_after_separators_only_when_too_wide() -> None:
    assert path_lines("~/a/bb/ccc.py", 80) == ["~/a/bb/ccc.py"]
    assert path_lines("~/a/bb/ccc.py", 6) == ["~/a/", "bb/", "ccc.py"]
    assert path_lines("~/a/bb/ccc.py", 2) == ["~/", "a/", "bb/", "ccc.py"]


@pytest.mark.slow
async def test_watch_mode_runs_on_each_save_and_on_a_save_made_during_a_run(app, monkeypatch) -> None:
    """w watches the file through OS events: a save starts a run; a save while a run goes on is
    run once that run ends (its latest text), so no fix is left untested."""
    import threading

    from drill.coding.runner.result import TestRun

    release, texts = threading.Event(), []

    def fake_run(drill, candidate, device="cpu", **options):
        texts.append(candidate.read_text())
        if len(texts) == 1:
            release.wait(30)  # the first run is long: the user saves again meanwhile
        return TestRun("fail", 0, 1, reason="1 of 1 tests failed")

    monkeypatch.setattr("drill.coding.runner.api.run_tests", fake_run)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        solution = screen.workspace.solution
        await pilot.press("w")
        assert "watching your file" in str(screen.query_one("#drill-status", Static).render())
        await pilot.pause(0.5)  # the watcher is up
        solution.write_text("# first save\n")
        await wait_until(pilot, lambda: len(texts) == 1, timeout=20)
        solution.write_text("# the fix, saved during the run\n")
        await pilot.pause(1.0)
        assert len(texts) == 1 and screen.running
        release.set()
        await wait_until(pilot, lambda: len(texts) == 2 and not screen.running, timeout=20)
        assert texts == ["# first save\n", "# the fix, saved during the run\n"]
        await pilot.press("w")  # stop watching: a save runs nothing
        solution.write_text("# after watching\n")
        await pilot.pause(1.0)
        assert len(texts) == 2

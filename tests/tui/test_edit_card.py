"""Editing a card from the review (`e`): $VISUAL / $EDITOR at the card's line, the edit synced with
the item's history and schedule kept, a broken edit refused, an editor quit without a change said as
such, and shipped cards (of an installed drill or of an editable install's checkout) edited through
the override deck."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.editor import fake_editor
from helpers.pilot import db_rows, wait_ready, wait_until
from textual.widgets import Markdown

from drill.content.decks import load_decks
from drill.content.overrides import item_line
from drill.tui.app import DrillApp
from drill.tui.screens.review import ReviewScreen


@pytest.fixture(autouse=True)
def headless_suspend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DrillApp, "suspend", lambda self: contextlib.nullcontext())  # headless has no tty
    monkeypatch.delenv("VISUAL", raising=False)


def answer_shown(screen: ReviewScreen) -> str:
    return screen.view.query_one("#answer", Markdown).source


async def review_with_history(pilot) -> tuple[ReviewScreen, str]:
    """Fail the first card, pass three others: the first is back on screen with a review stored."""
    await wait_ready(pilot)
    await pilot.press("r")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
    screen = pilot.app.screen
    first = screen.session.current.item_id
    await pilot.press("space", "1")
    for _ in range(3):
        await pilot.press("space", "3")
    assert screen.session.current.item_id == first
    await pilot.press("space")
    return screen, first


def item_row(app, item_id: str) -> tuple:
    [row] = db_rows(
        app, f"SELECT answer, deck, interval, due_day, repetitions, easiness FROM item WHERE id = '{item_id}'"
    )
    return row


@pytest.mark.slow
async def test_a_content_authors_edit_of_a_checkout_deck_keeps_the_history_and_shows_the_new_answer(
    small_paths, clock, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("DRILL_EDIT_IN_PLACE", "1")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, item_id = await review_with_history(pilot)
        deck = Path(item_row(app, item_id)[1])
        line = item_line(deck.read_text(), item_id)
        log = fake_editor(tmp_path, monkeypatch, f"s/Answer of {item_id}\\./Edited answer of {item_id}./")
        before = item_row(app, item_id)
        await pilot.press("e")
        await wait_until(pilot, lambda: "Edited answer" in answer_shown(screen))
        assert screen.session.current.item_id == item_id
        assert log.read_text().split() == [f"+{line}", str(deck)]
        after = item_row(app, item_id)
        assert after[0] == f"Edited answer of {item_id}." and after[1:] == before[1:]  # same schedule, same deck
        assert db_rows(app, f"SELECT answer FROM item_revision WHERE item_id = '{item_id}'") == [
            (f"Answer of {item_id}.",)
        ]
        assert db_rows(app, f"SELECT button FROM review WHERE item_id = '{item_id}'") == [(1,)]
        assert not small_paths.overrides.exists()  # DRILL_EDIT_IN_PLACE: a checkout's deck is edited in place
        await pilot.press("3")  # the edited card is graded like any other
        assert db_rows(app, f"SELECT button FROM review WHERE item_id = '{item_id}' ORDER BY id") == [(1,), (3,)]


@pytest.mark.slow
async def test_a_shipped_card_of_an_installed_drill_is_edited_in_the_override_deck(
    small_paths, clock, tmp_path, monkeypatch
) -> None:
    monkeypatch.setattr("drill.content.overrides.content_is_installed", lambda: True)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, item_id = await review_with_history(pilot)
        shipped = Path(item_row(app, item_id)[1])
        shipped_bytes = shipped.read_bytes()
        log = fake_editor(tmp_path, monkeypatch, f"s/Answer of {item_id}\\./Edited answer of {item_id}./")
        before = item_row(app, item_id)
        await pilot.press("e")
        await wait_until(pilot, lambda: "Edited answer" in answer_shown(screen))
        overrides = small_paths.overrides
        assert shipped.read_bytes() == shipped_bytes
        assert log.read_text().split() == [f"+{item_line(overrides.read_text(), item_id)}", str(overrides)]
        after = item_row(app, item_id)
        assert after[0] == f"Edited answer of {item_id}." and after[1] == str(overrides)
        assert after[2:] == before[2:]
        assert db_rows(app, f"SELECT COUNT(*) FROM review WHERE item_id = '{item_id}'") == [(1,)]
        load = load_decks(small_paths.deck_dirs())
        assert [override.id for override in load.overrides] == [item_id]
        assert load.errors == [] and len(load.items) == 6
        assert any("your copy in" in str(note.message) for note in app._notifications)


@pytest.mark.slow
async def test_an_editable_installs_edit_leaves_the_checkout_and_shows_after_a_restart(
    small_paths, clock, tmp_path, monkeypatch
) -> None:
    """The README's install is editable: its decks/ is the git checkout, which the edit never touches."""
    monkeypatch.delenv("DRILL_EDIT_IN_PLACE", raising=False)
    monkeypatch.setattr("drill.content.overrides.content_is_installed", lambda: False)
    shipped = {deck: deck.read_bytes() for deck in small_paths.decks.iterdir()}
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, item_id = await review_with_history(pilot)
        fake_editor(tmp_path, monkeypatch, f"s/Answer of {item_id}\\./Edited answer of {item_id}./")
        await pilot.press("e")
        await wait_until(pilot, lambda: "Edited answer" in answer_shown(screen))
    assert {deck: deck.read_bytes() for deck in small_paths.decks.iterdir()} == shipped
    assert f'answer = "Edited answer of {item_id}."' in small_paths.overrides.read_text()
    restarted = DrillApp(small_paths, clock=clock)
    async with restarted.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        assert item_row(restarted, item_id)[:2] == (f"Edited answer of {item_id}.", str(small_paths.overrides))


@pytest.mark.slow
async def test_an_editor_quit_without_a_change_says_no_change(small_paths, clock, tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("DRILL_EDIT_IN_PLACE", raising=False)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, item_id = await review_with_history(pilot)
        log = fake_editor(tmp_path, monkeypatch, "s/no such text//")
        before = item_row(app, item_id)
        await pilot.press("e")
        await wait_until(pilot, lambda: log.exists())
        await wait_until(pilot, lambda: any("No change" in str(note.message) for note in app._notifications))
        notices = [str(note.message) for note in app._notifications]
        assert not any("Saved your edit" in notice for notice in notices)
        assert not small_paths.overrides.exists()  # the copy made for the edit is taken back
        assert item_row(app, item_id) == before and answer_shown(screen) == f"Answer of {item_id}."
        assert db_rows(app, f"SELECT COUNT(*) FROM item_revision WHERE item_id = '{item_id}'") == [(0,)]


@pytest.mark.slow
async def test_a_broken_edit_says_where_and_keeps_the_old_card(small_paths, clock, tmp_path, monkeypatch) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen, item_id = await review_with_history(pilot)
        deck = small_paths.overrides  # a shipped card is edited in its copy there
        fake_editor(tmp_path, monkeypatch, f's/"Answer of {item_id}\\."/"Answer of {item_id}./')  # unterminated
        before = item_row(app, item_id)
        await pilot.press("e")
        await wait_until(pilot, lambda: any("has an error" in str(note.title) for note in app._notifications))
        [note] = [note for note in app._notifications if "has an error" in str(note.title)]
        assert str(note.message).startswith(f"{deck}:") and "bad TOML" in str(note.message)
        assert item_row(app, item_id) == before
        assert answer_shown(screen) == f"Answer of {item_id}."


async def test_e_applies_to_cards_and_pitches_only(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
        screen = app.screen
        assert screen.check_action("edit", ())
        card = screen.session.current
        screen.session.cards[card.item_id] = replace(card, kind="estimate")
        assert not screen.check_action("edit", ())


def test_the_editor_is_visual_then_editor_then_vi(monkeypatch: pytest.MonkeyPatch) -> None:
    from drill.tui.editor import editor_command

    monkeypatch.delenv("EDITOR", raising=False)
    assert editor_command(Path("deck.toml"), 12) == ["vi", "+12", "deck.toml"]
    monkeypatch.setenv("EDITOR", "nano -w")
    assert editor_command(Path("deck.toml"), 3) == ["nano", "-w", "+3", "deck.toml"]
    monkeypatch.setenv("VISUAL", "emacs -nw")
    assert editor_command(Path("deck.toml"), 3) == ["emacs", "-nw", "+3", "deck.toml"]

"""The override deck: an item of overrides.toml replaces the item with its id from another deck;
every other repeated id is still an error; `drill check` lists the overrides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.content import CARD, write_deck

from drill.cli import main
from drill.content.decks import load_decks
from drill.content.overrides import copy_to_overrides, edit_target, item_line, withdraw_copy
from drill.paths import Paths


def edited(text: str, item_id: str) -> str:
    return text.replace(f"Answer of {item_id}.", f"My answer of {item_id}.")


def test_an_override_replaces_the_item_in_its_place(small_paths) -> None:
    overrides = small_paths.overrides
    copy_to_overrides(small_paths.decks / "a.toml", "m-2", overrides)
    overrides.write_text(edited(overrides.read_text(), "m-2"))
    load = load_decks(small_paths.deck_dirs())
    assert load.errors == []
    assert [loaded.item.id for loaded in load.items] == ["m-1", "m-2", "c-1", "c-2", "i-1", "i-2"]
    replaced = load.items[1]
    assert (replaced.item.answer, replaced.deck, replaced.position) == ("My answer of m-2.", str(overrides), 1)
    [override] = load.overrides
    line = item_line(overrides.read_text(), "m-2") + 1  # the id line
    assert str(override) == f"m-2 ({overrides}:{line})"
    assert (
        override.replaces
        == f"{small_paths.decks / 'a.toml'}:{item_line((small_paths.decks / 'a.toml').read_text(), 'm-2') + 1}"
    )


def test_the_copy_is_the_card_as_written_and_the_shipped_deck_is_untouched(small_paths) -> None:
    deck = small_paths.decks / "a.toml"
    before = deck.read_bytes()
    target = copy_to_overrides(deck, "m-2", small_paths.overrides)
    text = small_paths.overrides.read_text()
    assert deck.read_bytes() == before
    assert text.startswith("# Your edits of shipped cards.")
    assert text.rstrip().endswith(CARD.format(id="m-2", block="memory").strip())
    assert target.line == item_line(text, "m-2") and target.copied


def test_repeated_ids_outside_the_override_deck_are_still_errors(small_paths) -> None:
    mine = write_deck(small_paths.user_decks, "mine.toml", [("m-1", "memory")])
    write_deck(small_paths.user_decks, "overrides.toml", [("c-1", "compute"), ("c-1", "compute")])
    load = load_decks(small_paths.deck_dirs())
    assert [str(error) for error in load.errors] == [
        f"{mine}:3: duplicate id `m-1` (first at {small_paths.decks / 'a.toml'}:3)",
        f"{small_paths.overrides}:12: duplicate id `c-1` (first at {small_paths.overrides}:3)",
    ]
    assert [override.id for override in load.overrides] == ["c-1"]


def test_an_installed_drill_edits_a_shipped_card_through_one_copy(small_paths, monkeypatch) -> None:
    monkeypatch.setattr("drill.content.overrides.content_is_installed", lambda: True)
    first = edit_target(small_paths, "c-1")
    assert first.path == small_paths.overrides and first.copied
    again = edit_target(small_paths, "c-1")  # now read from the override deck: no second copy
    assert (again.path, again.line, again.copied) == (first.path, first.line, False)
    assert small_paths.overrides.read_text().count('id = "c-1"') == 1
    monkeypatch.setenv("DRILL_EDIT_IN_PLACE", "1")  # not for an installed drill's package
    assert edit_target(small_paths, "i-1").path == small_paths.overrides
    assert edit_target(small_paths, "no-such-card") is None


def test_a_checkout_edits_a_shipped_card_through_the_override_deck(small_paths, monkeypatch) -> None:
    """An editable install's decks/ is the git checkout, shared by every DRILL_HOME: left untouched."""
    monkeypatch.setattr("drill.content.overrides.content_is_installed", lambda: False)
    monkeypatch.delenv("DRILL_EDIT_IN_PLACE", raising=False)
    deck = small_paths.decks / "b.toml"
    before = deck.read_bytes()
    target = edit_target(small_paths, "i-1")
    assert target.path == small_paths.overrides and target.copied and target.before is None
    assert deck.read_bytes() == before


@pytest.mark.parametrize("flag, in_place", [("1", True), ("0", False), ("", False)])
def test_a_content_author_edits_the_checkout_in_place(small_paths, monkeypatch, flag, in_place) -> None:
    monkeypatch.setattr("drill.content.overrides.content_is_installed", lambda: False)
    monkeypatch.setenv("DRILL_EDIT_IN_PLACE", flag)
    target = edit_target(small_paths, "i-1")
    assert (target.path == small_paths.decks / "b.toml") is in_place and target.copied is not in_place


def test_a_withdrawn_copy_leaves_the_override_deck_as_it_was(small_paths) -> None:
    first = copy_to_overrides(small_paths.decks / "a.toml", "m-1", small_paths.overrides)
    withdraw_copy(first)
    assert not small_paths.overrides.exists()
    copy_to_overrides(small_paths.decks / "a.toml", "m-1", small_paths.overrides)
    kept = small_paths.overrides.read_text()
    second = copy_to_overrides(small_paths.decks / "a.toml", "m-2", small_paths.overrides)
    withdraw_copy(second)
    assert small_paths.overrides.read_text() == kept
    withdraw_copy(edit_target(small_paths, "m-1"))  # not a fresh copy: nothing to take back
    assert small_paths.overrides.read_text() == kept


@pytest.mark.slow
def test_drill_check_lists_the_overrides(drill_home: Path, capsys) -> None:
    paths = Paths(drill_home)
    shipped = paths.decks / "10-grill-memory.toml"
    first_id = next(loaded.item.id for loaded in load_decks([paths.decks]).items if loaded.deck == str(shipped))
    copy_to_overrides(shipped, first_id, paths.overrides)
    assert main(["check"]) == 0
    line = item_line(paths.overrides.read_text(), first_id) + 1
    assert capsys.readouterr().out.splitlines()[-1] == f"1 override: {first_id} ({paths.overrides}:{line})"
    assert main(["check", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["overrides"] == [
        {
            "id": first_id,
            "path": str(paths.overrides),
            "line": line,
            "replaces": f"{shipped}:{item_line(shipped.read_text(), first_id) + 1}",
        }
    ]

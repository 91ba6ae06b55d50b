"""Where an edit of a card goes: the override deck for a shipped card, or the card's own deck file.

A shipped card (decks/ of the package or of the source checkout an editable install runs from) is
first copied, as written, into DRILL_HOME/decks/overrides.toml (same id, same fields), and that
copy is what is edited; drill.content.decks lets an item of the override deck replace the shipped
item with its id. So an edit stays with its DRILL_HOME, survives `git checkout .` and an upgrade,
and deleting the copy brings the shipped text back. A content author working on a checkout's
decks sets DRILL_EDIT_IN_PLACE=1 to edit them in place. A card of the user's own decks is always
edited in place.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from drill.content.decks import load_decks
from drill.content.locate import TABLE_HEADER, ItemLines, toml_lines
from drill.paths import Paths, content_is_installed

OVERRIDES_HEADER = """\
# Your edits of shipped cards. An item here replaces the shipped item with the same id (its
# history is kept); delete an item to go back to the shipped text. `drill check` lists them.
"""


EDIT_IN_PLACE = "DRILL_EDIT_IN_PLACE"  # "1": a checkout's shipped decks are edited in place


@dataclass(frozen=True)
class EditTarget:
    """The file and line an editor opens for one card; `copied`: the card was just copied there,
    into an override deck whose text was `before` (None: there was none)."""

    path: Path
    line: int
    copied: bool = False
    before: str | None = None


def edits_in_place() -> bool:
    """Whether shipped decks are edited in place: a content author's choice (DRILL_EDIT_IN_PLACE=1),
    and only for a source checkout, never an installed drill's package."""
    return os.environ.get(EDIT_IN_PLACE, "").strip() not in ("", "0") and not content_is_installed()


def goes_to_overrides(paths: Paths, deck: Path) -> bool:
    """Whether an edit of a card of `deck` goes to the override deck: a shipped deck, unless its
    cards are edited in place (edits_in_place) and this user can write it."""
    shipped = deck.resolve().parent == paths.decks.resolve()
    return shipped and not (edits_in_place() and os.access(deck, os.W_OK))


def item_line(text: str, item_id: str) -> int | None:
    """The line of the `[[item]]` header of the item with `item_id` in deck text (None: not there)."""
    try:
        entries = tomllib.loads(text).get("item", [])
    except tomllib.TOMLDecodeError:
        return None
    lines = ItemLines(text)
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        if isinstance(entry, dict) and entry.get("id") == item_id:
            return lines.item(index)
    return None


def item_table(text: str, header: int) -> str:
    """The text of the `[[item]]` table starting on line `header`, up to the next one."""
    lines = toml_lines(text)[header - 1 :]
    end = next((number for number, line in enumerate(lines) if number and TABLE_HEADER.match(line)), len(lines))
    return "\n".join(lines[:end]).rstrip() + "\n"


def copy_to_overrides(deck: Path, item_id: str, overrides: Path) -> EditTarget:
    """Copy one card's table from `deck` to the end of the override deck (created when missing)."""
    text = deck.read_text(encoding="utf-8")
    header = item_line(text, item_id)
    if header is None:
        raise LookupError(f"no item `{item_id}` in {deck}")
    before = overrides.read_text(encoding="utf-8") if overrides.exists() else None
    existing = (OVERRIDES_HEADER if before is None else before).rstrip("\n") + "\n\n"
    overrides.parent.mkdir(parents=True, exist_ok=True)
    overrides.write_text(existing + item_table(text, header), encoding="utf-8")
    return EditTarget(overrides, len(toml_lines(existing)), copied=True, before=before)


def withdraw_copy(target: EditTarget) -> None:
    """Take back the copy made for an edit that changed nothing: the override deck as it was."""
    if not target.copied:
        return
    if target.before is None:
        target.path.unlink(missing_ok=True)
    else:
        target.path.write_text(target.before, encoding="utf-8")


def edit_target(paths: Paths, item_id: str) -> EditTarget | None:
    """Where to edit the deck item `item_id` (None: no deck holds it); a shipped card is copied into
    the override deck first (goes_to_overrides), unless it is there already."""
    loaded = next((each for each in load_decks(paths.deck_dirs()).items if each.item.id == item_id), None)
    if loaded is None:
        return None
    deck = Path(loaded.deck)
    if goes_to_overrides(paths, deck):
        if paths.overrides.exists():
            line = item_line(paths.overrides.read_text(encoding="utf-8"), item_id)
            if line is not None:
                return EditTarget(paths.overrides, line)
        return copy_to_overrides(deck, item_id, paths.overrides)
    return EditTarget(deck, item_line(deck.read_text(encoding="utf-8"), item_id) or 1)

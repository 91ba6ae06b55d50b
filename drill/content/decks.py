"""Reading deck folders into validated items and path:line errors.

Ids are unique across every deck, with one exception: a deck file named `overrides.toml` (the
override deck, DRILL_HOME/decks/overrides.toml, where an edit of a shipped card goes) is read
after all the others, and an item of it whose id another deck already gave replaces that item
in its place; the DeckLoad lists each such override.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from drill.content.errors import ContentError
from drill.content.locate import ItemLines
from drill.content.models import DeckItem, LoadedItem
from drill.content.toml_file import LineOf, read_toml, validation_errors
from drill.read_model import ReadModel

OVERRIDES = "overrides.toml"


class Override(ReadModel):
    """An item of an override deck that replaces a deck's item with the same id."""

    id: str
    path: Path
    line: int
    replaces: str  # where the replaced item is, as path:line

    def __str__(self) -> str:
        return f"{self.id} ({self.path}:{self.line})"


@dataclass
class DeckLoad:
    """Everything read from the deck folders: the valid items, every error and the overrides."""

    items: list[LoadedItem] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)
    overrides: list[Override] = field(default_factory=list)

    @property
    def broken_decks(self) -> set[str]:
        return {str(error.path) for error in self.errors}


def is_override_deck(path: Path) -> bool:
    return path.name == OVERRIDES


def deck_files(folders: list[Path]) -> list[Path]:
    """Every deck file in `folders`, in folder then name order, the override decks last."""
    files = [path for folder in folders if folder.is_dir() for path in sorted(folder.glob("*.toml"))]
    return sorted(files, key=is_override_deck)


def _place(path: Path, line: int, item: DeckItem, load: DeckLoad, first_seen: dict[str, str]) -> None:
    """Add `item`, or let it replace the item with its id when it comes from an override deck."""
    if item.id not in first_seen:
        first_seen[item.id] = f"{path}:{line}"
        load.items.append(LoadedItem(item=item, deck=str(path), position=len(load.items)))
        return
    replaced = next(index for index, loaded in enumerate(load.items) if loaded.item.id == item.id)
    original = load.items[replaced]
    if not is_override_deck(path) or is_override_deck(Path(original.deck)):
        load.errors.append(ContentError(path, line, f"duplicate id `{item.id}` (first at {first_seen[item.id]})"))
        return
    load.items[replaced] = LoadedItem(item=item, deck=str(path), position=original.position)
    load.overrides.append(Override(id=item.id, path=path, line=line, replaces=first_seen[item.id]))
    first_seen[item.id] = f"{path}:{line}"


def _read_file(path: Path, load: DeckLoad, first_seen: dict[str, str]) -> None:
    read = read_toml(path)
    if isinstance(read, ContentError):
        load.errors.append(read)
        return
    data, lines = read.data, ItemLines(read.text)
    for key in sorted(set(data) - {"item"}):
        load.errors.append(ContentError(path, 1, f"unknown top-level key `{key}` (items go in [[item]] tables)"))
    entries = data.get("item", [])
    if not isinstance(entries, list):
        load.errors.append(ContentError(path, 1, "`item` must be an array of [[item]] tables"))
        return
    if not entries:
        load.errors.append(ContentError(path, 1, "no [[item]] tables in this deck"))
    for index, entry in enumerate(entries):
        try:
            item = DeckItem.model_validate(entry)
        except ValidationError as error:
            load.errors += validation_errors(path, error, _key_line(lines, index))
            continue
        _place(path, lines.key(index, "id"), item, load, first_seen)


def _key_line(lines: ItemLines, index: int) -> LineOf:
    """The line of the key a complaint about item `index` names (the item's first line for none)."""
    return lambda loc, _message: lines.key(index, str(loc[0]) if loc else "")


def load_decks(folders: list[Path]) -> DeckLoad:
    """Read every *.toml deck in `folders`; a broken file never stops the others."""
    load = DeckLoad()
    first_seen: dict[str, str] = {}
    for path in deck_files(folders):
        _read_file(path, load, first_seen)
    return load

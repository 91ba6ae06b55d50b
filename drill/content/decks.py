"""Reading deck folders into validated items and path:line errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from drill.content.errors import ContentError
from drill.content.locate import ItemLines
from drill.content.models import DeckItem, LoadedItem
from drill.content.toml_file import read_toml, validation_errors


@dataclass
class DeckLoad:
    """Everything read from the deck folders: the valid items and every error."""

    items: list[LoadedItem] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)

    @property
    def broken_decks(self) -> set[str]:
        return {str(error.path) for error in self.errors}


def deck_files(folders: list[Path]) -> list[Path]:
    return [path for folder in folders if folder.is_dir() for path in sorted(folder.glob("*.toml"))]


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
            load.errors += validation_errors(path, error, lambda loc, _message: lines.key(index, str(loc[0]) if loc else ""))
            continue
        line = lines.key(index, "id")
        if item.id in first_seen:
            load.errors.append(ContentError(path, line, f"duplicate id `{item.id}` (first at {first_seen[item.id]})"))
            continue
        first_seen[item.id] = f"{path}:{line}"
        load.items.append(LoadedItem(item=item, deck=str(path), position=len(load.items)))


def load_decks(folders: list[Path]) -> DeckLoad:
    """Read every *.toml deck in `folders`; a broken file never stops the others."""
    load = DeckLoad()
    first_seen: dict[str, str] = {}
    for path in deck_files(folders):
        _read_file(path, load, first_seen)
    return load

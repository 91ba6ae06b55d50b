"""Reading deck folders into validated items and path:line errors."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from drill.content.errors import ContentError
from drill.content.locate import ItemLines, decode_error_line
from drill.content.models import DeckItem, LoadedItem


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


def _field_message(error: dict) -> tuple[str, str]:
    loc = [str(part) for part in error["loc"]]
    name = loc[0] if loc else ""
    message = error["msg"].removeprefix("Value error, ")
    where = ".".join(loc) if loc else "item"
    if error["type"] == "missing":
        return name, f"missing required key `{where}`"
    if error["type"] == "extra_forbidden":
        return name, f"unknown key `{where}`"
    return name, f"`{where}`: {message}"


def _read_file(path: Path, load: DeckLoad, first_seen: dict[str, str]) -> None:
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError as error:
        load.errors.append(ContentError(path, 1, f"not UTF-8 text ({error.reason})"))
        return
    except tomllib.TOMLDecodeError as error:
        load.errors.append(ContentError(path, decode_error_line(str(error)), f"bad TOML: {error}"))
        return
    lines = ItemLines(text)
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
            for detail in error.errors():
                name, message = _field_message(detail)
                load.errors.append(ContentError(path, lines.key(index, name), message))
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

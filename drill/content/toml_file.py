"""The one TOML → pydantic → `path:line` loader that decks, estimation problems and coding drills
share: read a file (not UTF-8 or bad TOML is an error at its line), and turn pydantic's errors into
`ContentError`s at the line of the offending key, worded the same everywhere."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from drill.content.errors import ContentError
from drill.content.locate import decode_error_line

Loc = tuple[str | int, ...]
LineOf = Callable[[Loc, str], int]  # (where an error is, its message) → the line to name
NAMED = re.compile(r"([a-z_]+(?:\.[A-Za-z0-9_]+)*): ")  # a model-level check naming its own key


@dataclass(frozen=True)
class TomlFile:
    """A content file read and parsed."""

    path: Path
    text: str
    data: dict[str, Any]


def read_toml(path: Path) -> TomlFile | ContentError:
    """The parsed file, or the error that stops it being read (at the line TOML names)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        return ContentError(path, 1, f"not UTF-8 text ({error.reason})")
    except OSError as error:
        return ContentError(path, 1, f"cannot read: {error}")
    try:
        return TomlFile(path, text, tomllib.loads(text))
    except tomllib.TOMLDecodeError as error:
        return ContentError(path, decode_error_line(str(error)), f"bad TOML: {error}")


def validation_errors(path: Path, error: ValidationError, line_of: LineOf, prefix: Loc = ()) -> list[ContentError]:
    """Each of pydantic's complaints as a `ContentError` at `line_of` its key."""
    found = []
    for detail in error.errors():
        loc = prefix + tuple(detail["loc"])
        message = detail["msg"].removeprefix("Value error, ")
        if not detail["loc"] and (named := NAMED.match(message)):
            loc, message = prefix + tuple(named.group(1).split(".")), message[named.end() :]
        where = ".".join(str(part) for part in loc if not isinstance(part, int)) or "file"
        if detail["type"] == "missing":
            text = f"missing required key `{where}`"
        elif detail["type"] == "extra_forbidden":
            text = f"unknown key `{where}`"
        else:
            text = f"`{where}`: {message}"
        found.append(ContentError(path, line_of(loc, message), text))
    return found

"""A problem found in a content file, located by path and line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


@dataclass(frozen=True)
class ContentError:
    """One validation error; prints as `path:line: message` like a compiler."""

    path: Path
    line: int
    message: str

    def __post_init__(self) -> None:
        # One error, one line: a break inside the message (a key named "a\nb") is written as its escape.
        object.__setattr__(self, "message", LINE_BREAK.sub(lambda match: repr(match.group())[1:-1], self.message))

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"

    def as_json(self) -> dict[str, object]:
        return {"path": str(self.path), "line": self.line, "message": self.message}

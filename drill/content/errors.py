"""A problem found in a content file, located by path and line."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import field_validator
from pydantic.dataclasses import dataclass

LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


@dataclass(frozen=True)
class ContentError:
    """One validation error; prints as `path:line: message` like a compiler. Its JSON (`drill check
    --json`) is the path, the line and the message."""

    path: Path
    line: int
    message: str

    @field_validator("message")
    @classmethod
    def _one_line(cls, message: str) -> str:
        """One error, one line: a break inside the message (a key named "a\\nb") is written as its escape."""
        return LINE_BREAK.sub(lambda match: repr(match.group())[1:-1], message)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"

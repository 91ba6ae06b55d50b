"""A problem found in a content file, located by path and line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ContentError:
    """One validation error; prints as `path:line: message` like a compiler."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"

    def as_json(self) -> dict[str, object]:
        return {"path": str(self.path), "line": self.line, "message": self.message}

"""A label on its own line, then a file path written from ~: on one line, so it copies in one go,
unless it is wider than the screen; then it breaks after a '/', never inside a name."""

from __future__ import annotations

import re
from pathlib import Path

from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget


def home_relative(path: Path) -> str:
    """`path` as the user would type it: under $HOME it starts with ~."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def path_lines(path: str, width: int) -> list[str]:
    """`path` in lines of at most `width` cells broken after a '/' (a single name wider than that
    keeps its own line)."""
    lines = [""]
    for part in re.findall(r"[^/]*/|[^/]+$", path):
        if lines[-1] and cell_len(lines[-1] + part) > width:
            lines.append("")
        lines[-1] += part
    return lines


class PathLabel(Widget):
    """`label` (e.g. "Your file:") on a line, and the path in bold below it."""

    DEFAULT_CSS = """
    PathLabel {
        height: auto;
    }
    """

    def __init__(self, label: str, path: Path, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = label
        self.path = home_relative(path)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 + len(path_lines(self.path, width))

    def render(self) -> Content:
        path = "\n".join(path_lines(self.path, self.content_size.width))
        return Content.assemble(self.label, "\n", (path, "bold"))

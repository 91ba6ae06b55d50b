"""A label and a file path, written from ~ and wrapped at the path's separators, never inside a name."""

from __future__ import annotations

import re
from pathlib import Path

from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

INDENT = "  "


def home_relative(path: Path) -> str:
    """`path` as the user would type it: under $HOME it starts with ~."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def path_lines(label: str, path: str, width: int) -> list[str]:
    """`label` then `path`, in lines of at most `width` cells broken after a '/' (a single name
    wider than that keeps its own line); lines after the first are indented."""
    lines = [label]
    for part in re.findall(r"[^/]*/|[^/]+$", path):
        if lines[-1] != INDENT and cell_len(lines[-1] + part) > width:
            lines.append(INDENT)
        lines[-1] += part
    return lines


class PathLabel(Widget):
    """`label` (e.g. "Your file: ") and a path in bold, as many lines as the width needs."""

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
        return len(path_lines(self.label, self.path, width))

    def render(self) -> Content:
        first, *rest = path_lines(self.label, self.path, self.content_size.width)
        path = "\n".join([first.removeprefix(self.label), *rest])
        return Content.assemble(self.label, (path, "bold"))

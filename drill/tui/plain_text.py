"""What a Rich renderable shows, as plain text: for a screen's text() that tests read."""

from __future__ import annotations

import io

from rich.console import Console, RenderableType


def plain_text(renderable: RenderableType, width: int = 100) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()

"""What a Markdown widget draws, as opposed to its `source` (set at once, drawn once parsed)."""

from __future__ import annotations

from textual.widgets import Markdown
from textual.widgets._markdown import MarkdownParagraph


def drawn(markdown: Markdown) -> str:
    """The text of the paragraphs `markdown` draws now ('' while it is hidden or invisible)."""
    if not (markdown.display and markdown.visible):
        return ""
    return "\n".join(str(paragraph.render()) for paragraph in markdown.query(MarkdownParagraph))

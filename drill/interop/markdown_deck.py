"""Markdown decks in the hashcards style: `Q:` then `A:` blocks, each card's id in a comment above it.

A card starts at a line beginning `Q:`; its question runs to the line beginning `A:`, and its
answer runs to the next blank line (blank lines inside a ``` or ~~~ fence do not count), the next
`Q:` or the next id comment. A `Q:` or `A:` line that is left empty lets its text start below.
Text outside cards (headings, notes) is ignored. The id sits in `<!-- drill-id: md-1a2b3c4d -->`
directly above the `Q:` line, invisible when the Markdown renders; cards without one get one.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from drill.content.errors import ContentError
from drill.content.models import ItemId
from drill.interop.cards import ParsedCard, ParsedSource

ID_COMMENT_START = re.compile(r"^\s*<!--\s*drill-id\b")
ID_COMMENT = re.compile(r"^\s*<!--\s*drill-id:\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ITEM_ID = TypeAdapter(ItemId)


def id_comment(item_id: str) -> str:
    return f"<!-- drill-id: {item_id} -->"


def new_markdown_id() -> str:
    return f"md-{secrets.token_hex(4)}"


@dataclass
class _Draft:
    """A card being read: where its parts start and the lines read so far."""

    q_line: int
    id: str | None
    id_line: int
    has_comment: bool
    question: list[str]
    answer: list[str] | None = None
    a_line: int = 0

    def body(self) -> list[str]:
        return self.question if self.answer is None else self.answer


@dataclass
class _Reader:
    """The finished cards of one file and the errors found on the way."""

    path: Path
    errors: list[ContentError] = field(default_factory=list)
    drafts: list[_Draft] = field(default_factory=list)

    def error(self, line: int, message: str) -> None:
        self.errors.append(ContentError(self.path, line, message))

    def finish(self, draft: _Draft | None) -> None:
        """Close a card: it needs an answer, and both sides need text."""
        if draft is None:
            return
        if draft.answer is None:
            self.error(draft.q_line, "Q: without an A:")
            return
        if not _text(draft.question):
            self.error(draft.q_line, "empty question")
        if not _text(draft.answer):
            self.error(draft.a_line, "empty answer")
        self.drafts.append(draft)


def _text(lines: list[str]) -> str:
    return "\n".join(lines).strip()


def _fence(line: str) -> str | None:
    match = FENCE.match(line)
    return match.group(1) if match else None


def _closes(fence: str, line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(fence) and set(stripped) == {fence[0]}


def _id_of(line: str, number: int, reader: _Reader) -> str | None:
    match = ID_COMMENT.match(line)
    if match:
        try:
            return ITEM_ID.validate_python(match.group(1))
        except ValidationError:
            pass
    reader.error(
        number, "malformed drill-id comment: expected <!-- drill-id: md-1a2b3c4d --> (lowercase letters, digits, -)"
    )
    return None


def parse_markdown(text: str, path: Path, new_id: Callable[[], str] = new_markdown_id) -> ParsedSource:
    """Every card of a Markdown deck, its errors by line, and the text with new id comments."""
    lines = text.split("\n")
    reader = _Reader(path)
    draft: _Draft | None = None
    pending: tuple[str | None, int] | None = None  # an id comment waiting for its Q: line
    fence: str | None = None
    fence_line = 0
    for number, line in enumerate(lines, start=1):
        if fence is not None:
            if draft is not None:
                draft.body().append(line)
            if _closes(fence, line):
                fence = None
            continue
        if pending is not None and not line.startswith("Q:"):
            reader.error(pending[1], "a drill-id comment must sit directly above a Q: line")
            pending = None
        if ID_COMMENT_START.match(line):
            reader.finish(draft)
            draft = None
            pending = (_id_of(line, number, reader), number)
        elif line.startswith("Q:"):
            reader.finish(draft)
            item_id, id_line = pending if pending is not None else (None, number)
            draft = _Draft(number, item_id, id_line, pending is not None, [line[2:]])
            pending = None
        elif line.startswith("A:"):
            if draft is None or draft.answer is not None:
                reader.error(number, "A: without a Q:")
            else:
                draft.answer, draft.a_line = [line[2:]], number
        elif line.startswith("C:"):
            reader.error(number, "cloze cards (C:) are not supported; write the card as Q: and A:")
        elif draft is None:
            fence, fence_line = _fence(line), number
        elif not line.strip() and draft.answer is not None and _text(draft.answer):
            reader.finish(draft)
            draft = None
        else:
            draft.body().append(line)
            fence, fence_line = _fence(line), number
    if fence is not None:
        reader.error(fence_line, f"this {fence} fence is never closed")
    if pending is not None:
        reader.error(pending[1], "a drill-id comment must sit directly above a Q: line")
    reader.finish(draft)
    return _assign_ids(reader, lines, new_id)


def _assign_ids(reader: _Reader, lines: list[str], new_id: Callable[[], str]) -> ParsedSource:
    """Check the written ids are unique, give the other cards new ones and insert their comments."""
    first_seen: dict[str, int] = {}
    for draft in reader.drafts:
        if draft.id is None:
            continue
        if draft.id in first_seen:
            reader.error(draft.id_line, f"duplicate drill-id `{draft.id}` (first at line {first_seen[draft.id]})")
        else:
            first_seen[draft.id] = draft.id_line
    cards = []
    inserted: list[tuple[int, str]] = []
    for draft in reader.drafts:
        item_id = draft.id
        if item_id is None:
            item_id = new_id()
            while item_id in first_seen:
                item_id = new_id()
            first_seen[item_id] = draft.q_line
            if not draft.has_comment:
                inserted.append((draft.q_line - 1, item_id))
        cards.append(ParsedCard(item_id, _text(draft.question), _text(draft.answer or []), draft.q_line))
    for index, item_id in reversed(inserted):
        lines.insert(index, id_comment(item_id))
    errors = sorted(reader.errors, key=lambda error: error.line)
    return ParsedSource(cards, errors, "\n".join(lines) if inserted else None, len(inserted))

"""Markdown decks as hashcards reads them: `Q:`/`A:` cards and `C:` cloze cards.

A card starts at a line beginning `Q:` (or `C:`); its question runs to the line beginning `A:`,
and its answer (or the cloze text) to the next `Q:`, `C:`, a `---` line or the end of the file,
blank lines and paragraphs included, as hashcards reads it. drill adds three things hashcards
does not have: a Markdown heading (`# …`) after an answer ends the card, so section titles stay
out of answers; lines inside a ``` or ~~~ fence are text, whatever they start with; and text
outside cards (before the first, after a `---` or a heading) is ignored (hashcards refuses it).
A `Q:`, `A:` or `C:` line left empty lets its text start below. TOML front matter between `---`
lines at the top may give the deck a `name`, the topic of its cards.

A `C:` card's `[deletions]` make one card each (drill.interop.cloze); one without any is
skipped with a warning. An id the user wants in the file sits in `<!-- drill-id: md-1a2b3c4d -->`
directly above a `Q:` line; other cards get theirs from drill.interop.stable_ids, and
`write_ids` writes them in for `drill import --write-ids`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from drill.content.errors import ContentError
from drill.content.models import ItemId
from drill.interop.cards import ParsedCard, ParsedSource
from drill.interop.cloze import cloze_cards, cloze_family

ID_COMMENT_START = re.compile(r"^\s*<!--\s*drill-id\b")
ID_COMMENT = re.compile(r"^\s*<!--\s*drill-id:\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}#{1,6}(\s|$)")
OBSIDIAN = re.compile(r"^(\S.*?:{2,3}.*\S|\?{1,2})\s*$", re.M)
ITEM_ID = TypeAdapter(ItemId)


def id_comment(item_id: str) -> str:
    return f"<!-- drill-id: {item_id} -->"


def obsidian_line(text: str) -> int | None:
    """The first line written the way Obsidian's spaced-repetition plugin writes cards
    (`question::answer`, `:::`, a `?` line between question and answer), if any."""
    match = OBSIDIAN.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else None


@dataclass
class _Draft:
    """A card being read: where its parts start and the lines read so far."""

    tag: str  # "Q" or "C"
    line: int
    id: str | None
    question: list[str]
    answer: list[str] | None = None
    a_line: int = 0

    def body(self) -> list[str]:
        return self.question if self.answer is None else self.answer


@dataclass
class _Reader:
    """The cards of one file and the errors and warnings found on the way."""

    path: Path
    errors: list[ContentError] = field(default_factory=list)
    warnings: list[ContentError] = field(default_factory=list)
    cards: list[ParsedCard] = field(default_factory=list)
    first_id_line: dict[str, int] = field(default_factory=dict)

    def error(self, line: int, message: str) -> None:
        self.errors.append(ContentError(self.path, line, message))

    def finish(self, draft: _Draft | None) -> None:
        """Close a card: a Q: card needs an answer and both sides need text; a C: card makes one
        card per deletion."""
        if draft is None:
            return
        if draft.tag == "C":
            self._cloze(draft)
            return
        if draft.answer is None:
            self.error(draft.line, "Q: without an A:")
            return
        if not _text(draft.question):
            self.error(draft.line, "empty question")
        if not _text(draft.answer):
            self.error(draft.a_line, "empty answer")
        if draft.id is not None:
            if draft.id in self.first_id_line:
                first = self.first_id_line[draft.id]
                self.error(draft.line - 1, f"duplicate drill-id `{draft.id}` (first at line {first})")
            self.first_id_line.setdefault(draft.id, draft.line - 1)
        self.cards.append(ParsedCard(draft.id, _text(draft.question), _text(draft.answer), draft.line))

    def _cloze(self, draft: _Draft) -> None:
        text = _text(draft.question)
        cards = cloze_cards(text)
        if not cards:
            message = "a C: card without a [deletion]: skipped (hashcards needs at least one)"
            self.warnings.append(ContentError(self.path, draft.line, message))
        family = cloze_family(text)
        self.cards += [ParsedCard(None, prompt, answer, draft.line, siblings=family) for prompt, answer in cards]


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


def _front_matter(lines: list[str], reader: _Reader) -> tuple[int, str | None]:
    """How many lines the front matter takes at the top, and the deck name it gives."""
    if not lines or lines[0].strip() != "---":
        return 0, None
    end = next((number for number, line in enumerate(lines[1:], start=2) if line.strip() == "---"), None)
    if end is None:
        reader.error(1, "front matter opened with --- is never closed with ---")
        return len(lines), None
    try:
        name = tomllib.loads("\n".join(lines[1 : end - 1])).get("name")
    except tomllib.TOMLDecodeError as error:
        reader.error(1, f"front matter is not TOML: {error}")
        return end, None
    return end, name if isinstance(name, str) and name.strip() else None


def parse_markdown(text: str, path: Path) -> ParsedSource:
    """Every card of a Markdown deck, its errors and warnings by line."""
    lines = text.split("\n")
    reader = _Reader(path)
    skip, deck_name = _front_matter(lines, reader)
    draft: _Draft | None = None
    pending: tuple[str | None, int] | None = None  # an id comment waiting for its Q: line
    fence: str | None = None
    fence_line = 0
    for number, line in enumerate(lines[skip:], start=skip + 1):
        if fence is not None:
            if draft is not None:
                draft.body().append(line)
            if _closes(fence, line):
                fence = None
            continue
        if pending is not None and not line.startswith("Q:"):
            reader.error(pending[1], "a drill-id comment must sit directly above a Q: line")
            pending = None
        ends_answer = draft is not None and (draft.answer is not None or draft.tag == "C")
        if ID_COMMENT_START.match(line):
            reader.finish(draft)
            draft = None
            pending = (_id_of(line, number, reader), number)
        elif line.startswith(("Q:", "C:")):
            reader.finish(draft)
            item_id = pending[0] if pending is not None else None
            draft, pending = _Draft(line[0], number, item_id, [line[2:].strip()]), None
        elif line.startswith("A:"):
            if draft is None or draft.answer is not None or draft.tag == "C":
                reader.error(number, "A: without a Q:")
            else:
                draft.answer, draft.a_line = [line[2:].strip()], number
        elif line.strip() == "---" and draft is not None and not ends_answer:
            reader.error(number, "a --- separator inside a question: the card needs its A: first")
        elif (line.strip() == "---" or HEADING.match(line)) and ends_answer:
            reader.finish(draft)
            draft = None
        elif draft is None:
            fence, fence_line = _fence(line), number
        else:
            draft.body().append(line)
            fence, fence_line = _fence(line), number
    if fence is not None:
        reader.error(fence_line, f"this {fence} fence is never closed")
    if pending is not None:
        reader.error(pending[1], "a drill-id comment must sit directly above a Q: line")
    reader.finish(draft)
    obsidian = obsidian_line(text) if not reader.cards and not reader.errors else None
    if obsidian is not None:
        reader.error(obsidian, "Obsidian spaced-repetition format is not supported; write the cards as Q: and A: lines")
    reader.errors.sort(key=lambda error: error.line)
    return ParsedSource(reader.cards, reader.errors, reader.warnings, deck_name, _IdWriter(lines, reader.cards))


@dataclass(frozen=True)
class _IdWriter:
    """Writes an id comment above each Q: line that has none (a cloze text makes several cards:
    it keeps them through drill's own record of the file, never a comment)."""

    lines: list[str]
    cards: list[ParsedCard]

    def __call__(self, ids: list[str]) -> str | None:
        lines = list(self.lines)
        missing = [
            (card.line, item_id)
            for card, item_id in zip(self.cards, ids, strict=True)
            if card.id is None and card.siblings is None
        ]
        for line, item_id in reversed(missing):
            lines.insert(line - 1, id_comment(item_id))
        return "\n".join(lines) if missing else None

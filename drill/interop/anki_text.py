"""Anki's "Notes in Plain Text" export: `#key:value` header lines, then one note per CSV row.

Headers: `#separator:` (tab, comma, semicolon, space, pipe, colon or the character itself),
`#html:true|false`, `#columns:` (column names; one named Tags holds the tags), `#tags:` (tags
for every note), and `#guid column:N`, `#notetype column:N`, `#deck column:N`, `#tags column:N`
(1-based). The other columns are the note's fields: the first is the question, the second the
answer. A tag naming a block (`memory`, or `block::memory` as `drill export --anki` writes it)
sets the card's block; the `topic::` tags (`topic::KV_cache` reads `KV cache`), else the other
tags, make its topic. A card's id comes from the note's guid; a file without a guid column gets
one appended, so Anki and drill keep the same identity on the next import.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from drill.content.errors import ContentError
from drill.content.vocabulary import BLOCKS
from drill.interop.anki_note import ID_FIELD, MODEL_NAME
from drill.interop.cards import ParsedCard, ParsedSource
from drill.interop.html_text import html_to_text

SEPARATORS = {"tab": "\t", "pipe": "|", "semicolon": ";", "colon": ":", "comma": ",", "space": " "}
META_COLUMNS = ("guid", "notetype", "deck", "tags")
CLOZE = re.compile(r"\{\{c\d+::")
SAFE_GUID = re.compile(r"^[a-z0-9]{1,70}$")


def _block(tag: str) -> str | None:
    """The block a tag names: `memory` or, as `drill export --anki` writes it, `block::memory`."""
    name = tag.lower().removeprefix("block::")
    return name if name in BLOCKS else None


def _topic(tags: list[str]) -> list[str]:
    """The topic tags as text: `topic::KV_cache` (as drill exports it) reads `KV cache`; without
    such tags, every tag that names no block."""
    named = [tag.removeprefix("topic::").replace("_", " ") for tag in tags if tag.startswith("topic::")]
    return named or [tag for tag in tags if not _block(tag)]


def anki_item_id(guid: str) -> str:
    """The drill id of an Anki note: `anki-<guid>` when the guid is lowercase letters and digits,
    else `anki-x-<hex of its bytes>` (`anki-h-<hash>` when that would be too long); never two
    guids to one id."""
    if SAFE_GUID.match(guid):
        return f"anki-{guid}"
    encoded = guid.encode().hex()
    return f"anki-x-{encoded}" if len(encoded) <= 70 else f"anki-h-{hashlib.sha256(guid.encode()).hexdigest()[:40]}"


def new_guid() -> str:
    return secrets.token_hex(5)


@dataclass
class _Header:
    """What the `#` lines at the top of the file say."""

    lines: int = 0
    separator: str | None = None
    html: bool = False
    columns: str | None = None  # the raw `#columns:` value, split once the separator is known
    columns_line: int = 0
    meta: dict[str, int] = field(default_factory=dict)  # guid/notetype/deck/tags → 0-based column
    tags: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Row:
    fields: list[str]
    line: int
    last_line: int


def _read_header(lines: list[str], path: Path, errors: list[ContentError]) -> _Header:
    header = _Header()
    for number, line in enumerate(lines, start=1):
        if not line.startswith("#"):
            break
        header.lines = number
        key, colon, value = line[1:].partition(":")
        key = key.strip().lower()
        if not colon:
            continue
        if key == "separator":
            name = value.strip().lower()
            header.separator = SEPARATORS.get(name) or (value if value in SEPARATORS.values() else None)
            if header.separator is None:
                message = f"unknown separator {value!r} (one of {', '.join(SEPARATORS)})"
                errors.append(ContentError(path, number, message))
        elif key == "html":
            if value.strip().lower() not in ("true", "false"):
                errors.append(ContentError(path, number, f"#html must be true or false, not {value!r}"))
            header.html = value.strip().lower() == "true"
        elif key == "columns":
            header.columns, header.columns_line = value, number
        elif key == "tags":
            header.tags = value.split()
        elif key.endswith(" column") and key.removesuffix(" column") in META_COLUMNS:
            if not value.strip().isdigit() or int(value) < 1:
                errors.append(ContentError(path, number, f"#{key} must be a column number (1 for the first)"))
            else:
                header.meta[key.removesuffix(" column")] = int(value) - 1
    return header


def _guess_separator(body: str) -> str:
    """Without a #separator line: the first of tab, comma, semicolon, pipe, colon, space in the first row."""
    first_row = next((line for line in body.split("\n") if line.strip()), "")
    return next((separator for separator in "\t,;|: " if separator in first_row), "\t")


def _rows(body: str, first_line: int, separator: str, path: Path, errors: list[ContentError]) -> list[_Row]:
    reader = csv.reader(io.StringIO(body), delimiter=separator, strict=True)
    rows: list[_Row] = []
    read = 0
    try:
        for fields in reader:
            start, read = read, reader.line_num
            if any(value.strip() for value in fields):
                rows.append(_Row(fields, first_line + start, first_line + read - 1))
    except csv.Error as error:
        errors.append(ContentError(path, first_line + reader.line_num - 1, f"bad CSV: {error}"))
    return rows


@dataclass
class _Notes:
    """Rows to cards, with the column layout the header gives."""

    path: Path
    header: _Header
    separator: str
    errors: list[ContentError]
    names: list[str] = field(default_factory=list)  # the `#columns:` names
    tags_column: int | None = None

    def __post_init__(self) -> None:
        if self.header.columns is not None:
            self.names = next(csv.reader([self.header.columns], delimiter=self.separator), [])
        lowered = [name.strip().lower() for name in self.names]
        self.tags_column = self.header.meta.get("tags", lowered.index("tags") if "tags" in lowered else None)

    def error(self, line: int, message: str) -> None:
        self.errors.append(ContentError(self.path, line, message))

    def card(self, row: _Row, guid: str) -> ParsedCard | None:
        meta = set(self.header.meta.values()) | {self.tags_column}
        fields = [value for index, value in enumerate(row.fields) if index not in meta]
        if len(fields) < 2:
            self.error(row.line, "a note needs a question field and an answer field")
            return None
        notetype = self._column(row, "notetype")
        if "cloze" in notetype.lower() or CLOZE.search(fields[0]):
            self.error(row.line, "cloze notes are not supported; only front/back notes import")
            return None
        convert = html_to_text if self.header.html else str.strip
        prompt, answer = convert(fields[0]), convert(fields[1])
        if not prompt:
            self.error(row.line, "empty question (first field)")
        if not answer:
            self.error(row.line, "empty answer (second field)")
        tags = self.header.tags + self._field(row, self.tags_column).split()
        blocks = sorted({block for tag in tags if (block := _block(tag))})
        if len(blocks) > 1:
            self.error(row.line, f"tags name more than one block: {', '.join(blocks)}")
        topic = ", ".join(_topic(tags))
        own_id = fields[ID_FIELD].strip() if notetype == MODEL_NAME and len(fields) > ID_FIELD else ""
        return ParsedCard(
            own_id or anki_item_id(guid),
            prompt,
            answer,
            row.line,
            blocks[0] if blocks else None,
            topic or None,
            from_drill=bool(own_id),
        )

    def _column(self, row: _Row, name: str) -> str:
        return self._field(row, self.header.meta.get(name))

    @staticmethod
    def _field(row: _Row, index: int | None) -> str:
        """The row's field at `index`; empty when the row has none there."""
        return row.fields[index] if index is not None and index < len(row.fields) else ""


def parse_anki_text(text: str, path: Path, make_guid: Callable[[], str] = new_guid) -> ParsedSource:
    """Every note of an Anki text export as a card, errors by line, and the text with a guid column
    added when it had none."""
    lines = text.split("\n")
    errors: list[ContentError] = []
    header = _read_header(lines, path, errors)
    body = "\n".join(lines[header.lines :])
    separator = header.separator or _guess_separator(body)
    rows = _rows(body, header.lines + 1, separator, path, errors)
    notes = _Notes(path, header, separator, errors)
    guid_column = header.meta.get("guid")
    cards: list[ParsedCard] = []
    if guid_column is None:
        guids = _new_guids(len(rows), make_guid)
    else:
        guids = [row.fields[guid_column].strip() if guid_column < len(row.fields) else "" for row in rows]
    first_seen: dict[str, int] = {}
    for row, guid in zip(rows, guids, strict=True):
        if not guid:
            assert guid_column is not None  # a guid drill makes is never empty
            notes.error(row.line, f"empty guid (column {guid_column + 1})")
            continue
        if guid in first_seen:
            notes.error(row.line, f"duplicate guid {guid!r} (first at line {first_seen[guid]})")
            continue
        first_seen[guid] = row.line
        card = notes.card(row, guid)
        if card is not None:
            cards.append(card)
    errors.sort(key=lambda error: error.line)
    if guid_column is not None or not rows:
        return ParsedSource(cards, errors)
    return ParsedSource(cards, errors, _with_guids(lines, notes, rows, guids), len(rows))


def _new_guids(count: int, make_guid: Callable[[], str]) -> list[str]:
    guids: list[str] = []
    while len(guids) < count:
        guid = make_guid()
        if guid not in guids:
            guids.append(guid)
    return guids


def _with_guids(lines: list[str], notes: _Notes, rows: list[_Row], guids: list[str]) -> str:
    """The file with each row's guid appended as a new last column, and headers saying where it is."""
    header, separator = notes.header, notes.separator
    lines = list(lines)
    column = max(len(notes.names), *(len(row.fields) for row in rows)) + 1
    for row, guid in zip(rows, guids, strict=True):
        lines[row.last_line - 1] += separator * (column - len(row.fields)) + guid
    if header.columns is not None:
        lines[header.columns_line - 1] += separator * (column - len(notes.names)) + "GUID"
    lines.insert(header.lines, f"#guid column:{column}")
    if header.separator is None:
        name = next(name for name, character in SEPARATORS.items() if character == separator)
        lines.insert(0, f"#separator:{name}")  # first, since Anki splits #columns with the separator known so far
    return "\n".join(lines)

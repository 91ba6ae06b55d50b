"""Anki's plain-text exports ("Notes in Plain Text", "Cards in Plain Text") and hand-made CSV
files, read as Anki's own importer reads them (rslib/src/import_export/text/csv/metadata.rs).

Header lines come first: `tags:` on the first line, then `#key:value` lines — `#separator:`
(tab, pipe, semicolon, colon, comma, space, or the character itself), `#html:true|false`,
`#columns:` (column names; one named Tags holds the tags), `#tags:` (tags for every note),
`#deck:` and `#notetype:` (for every note), and `#guid column:N`, `#notetype column:N`,
`#deck column:N`, `#tags column:N` (1-based). Then one note per CSV row: the columns that are not
named by those headers are the note's fields, the first the question, the second the answer.

Without a `#separator:` line the separator is guessed: Anki takes the first of tab, pipe,
semicolon, colon, comma and space found in the file; drill takes the first of them that splits
every row into the same number (two or more) of fields, and Anki's pick when none does. Without
`#html:`, the fields are HTML when one holds a tag, as Anki decides.

A tag naming a block (`memory`, or `block::memory` as `drill export --anki` writes it) sets the
card's block; the `topic::` tags (`topic::KV_cache` reads `KV cache`), else the other tags, else
the note's deck (its last `::` part), make its topic. A card's id comes from the note's guid; a
file without a guid column leaves it to drill.interop.stable_ids. Cloze notes are skipped with a
warning. A "Cards in Plain Text" export (two columns, answers repeating their question, after an
`<hr id=answer>` or, for most rows, as their first words) has the question taken out of them.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import re
import secrets
from contextlib import suppress
from dataclasses import dataclass, field, replace
from pathlib import Path

from drill.content.errors import ContentError
from drill.content.vocabulary import BLOCKS
from drill.interop.anki_note import ID_FIELD, MODEL_NAME
from drill.interop.cards import ParsedCard, ParsedSource
from drill.interop.html_text import html_to_text

SEPARATORS = {"tab": "\t", "pipe": "|", "semicolon": ";", "colon": ":", "comma": ",", "space": " "}  # Anki's order
META_COLUMNS = ("guid", "notetype", "deck", "tags")
CLOZE = re.compile(r"\{\{c\d+::")
SAFE_GUID = re.compile(r"^[a-z0-9]{1,70}$")
HTML_TAG = re.compile(r"</?[a-z][^<>]*>|<!--.*?-->", re.I | re.S)
ANSWER_RULE = re.compile(r"^.*<hr\s+id\s*=\s*[\"']?answer[\"']?\s*/?>\n*", re.I | re.S)  # Anki's, quotes allowed
DEFAULT_DECK = "Default"  # Anki's deck for notes put in none: no topic
GUESSED_ROWS = 100  # rows the separator guess reads


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


def _guid_of(item_id: str) -> str:
    """A guid whose anki_item_id is `item_id` where there is one; else a new guid."""
    guid = item_id.removeprefix("anki-")
    if guid.startswith("x-"):
        with suppress(ValueError):  # not hex, or not UTF-8: no guid gives this id
            guid = bytes.fromhex(guid[2:]).decode()
    return guid if anki_item_id(guid) == item_id else secrets.token_hex(5)


def _trimmed(value: str) -> str:
    """A header value as Anki reads it: past its first character, cut at the first character that
    is not a letter or digit (so `#separator:,,,` from a header saved as a row reads `,`)."""
    cut = next((index for index, character in enumerate(value) if index and not character.isalnum()), len(value))
    return value[:cut]


@dataclass
class _Header:
    """What the header lines at the top of the file say."""

    lines: int = 0
    separator: str | None = None
    html: bool | None = None
    columns: str | None = None  # the raw `#columns:` value, split once the separator is known
    columns_line: int = 0
    meta: dict[str, int] = field(default_factory=dict)  # guid/notetype/deck/tags → 0-based column
    tags: list[str] = field(default_factory=list)
    deck: str = ""
    notetype: str = ""


@dataclass(frozen=True)
class _Row:
    fields: list[str]
    line: int
    last_line: int


def _header_value(header: _Header, key: str, value: str, number: int, problems: list[ContentError], path: Path) -> None:
    literal = _trimmed(value)
    trimmed = literal.strip()
    if key == "separator":
        header.separator = SEPARATORS.get(trimmed.lower()) or (literal if literal in SEPARATORS.values() else None)
        if header.separator is None:
            message = f"unknown separator {value!r} (one of {', '.join(SEPARATORS)})"
            problems.append(ContentError(path, number, message))
    elif key == "html":
        if trimmed.lower() not in ("true", "false"):
            problems.append(ContentError(path, number, f"#html must be true or false, not {value!r}"))
        header.html = trimmed.lower() == "true"
    elif key == "columns":
        header.columns, header.columns_line = value, number
    elif key == "tags":
        header.tags = value.split()
    elif key in ("deck", "notetype"):
        setattr(header, key, value.strip())
    elif key.endswith(" column") and key.removesuffix(" column") in META_COLUMNS:
        if not trimmed.isdigit() or int(trimmed) < 1:
            problems.append(ContentError(path, number, f"#{key} must be a column number (1 for the first)"))
        else:
            header.meta[key.removesuffix(" column")] = int(trimmed) - 1


def _read_header(lines: list[str], path: Path, errors: list[ContentError]) -> _Header:
    header = _Header()
    for number, line in enumerate(lines, start=1):
        if number == 1 and line.startswith("tags:"):
            header.tags, header.lines = line.removeprefix("tags:").split(), 1
            continue
        if not line.startswith("#"):
            break
        header.lines = number
        key, colon, value = line[1:].partition(":")
        if colon:
            _header_value(header, key.strip().lower(), value, number, errors, path)
    return header


def _field_counts(body: str, separator: str) -> set[int]:
    reader = csv.reader(io.StringIO(body), delimiter=separator)
    try:
        return {len(fields) for fields in itertools.islice(reader, GUESSED_ROWS) if any(map(str.strip, fields))}
    except csv.Error:
        return set()


def consistent_separator(body: str) -> str | None:
    """The first of Anki's separators that splits every row (of the first GUESSED_ROWS) alike into
    two or more fields, if one does."""
    return next(
        (
            separator
            for separator in SEPARATORS.values()
            if separator in body and len(counts := _field_counts(body, separator)) == 1 and min(counts) >= 2
        ),
        None,
    )


def guess_separator(body: str) -> str:
    """Without a #separator line: consistent_separator; else the first of Anki's separators found
    in the file, as Anki picks; else a space."""
    found = (separator for separator in SEPARATORS.values() if separator in body)
    return consistent_separator(body) or next(found, " ")


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
    html: bool
    errors: list[ContentError]
    warnings: list[ContentError]
    names: list[str] = field(default_factory=list)  # the `#columns:` names
    tags_column: int | None = None

    def __post_init__(self) -> None:
        if self.header.columns is not None:
            self.names = next(csv.reader([self.header.columns], delimiter=self.separator), [])
        lowered = [name.strip().lower() for name in self.names]
        self.tags_column = self.header.meta.get("tags", lowered.index("tags") if "tags" in lowered else None)

    def error(self, line: int, message: str) -> None:
        self.errors.append(ContentError(self.path, line, message))

    def fields(self, row: _Row) -> list[str]:
        """The row's note fields: its columns less those the header names for guid, notetype, deck, tags."""
        meta = set(self.header.meta.values()) | {self.tags_column}
        return [value for index, value in enumerate(row.fields) if index not in meta]

    def card(self, row: _Row, item_id: str | None) -> ParsedCard | None:
        fields = self.fields(row)
        if len(fields) < 2:
            self.error(row.line, "a note needs a question field and an answer field")
            return None
        notetype = self._column(row, "notetype") or self.header.notetype
        if "cloze" in notetype.lower() or CLOZE.search(fields[0]):
            message = "a cloze note: skipped (only front/back notes import)"
            self.warnings.append(ContentError(self.path, row.line, message))
            return None
        convert = html_to_text if self.html else str.strip
        prompt, answer = convert(fields[0]), convert(ANSWER_RULE.sub("", fields[1]) if self.html else fields[1])
        if not prompt:
            self.error(row.line, "empty question (first field)")
        if not answer:
            self.error(row.line, "empty answer (second field)")
        tags = self.header.tags + self.field(row, self.tags_column).split()
        deck = (self._column(row, "deck") or self.header.deck).split("::")[-1].strip()
        blocks = sorted({block for tag in tags if (block := _block(tag))})
        if len(blocks) > 1:
            self.error(row.line, f"tags name more than one block: {', '.join(blocks)}")
        topic = ", ".join(_topic(tags)) or (deck if deck != DEFAULT_DECK and not _block(deck) else "")
        own_id = fields[ID_FIELD].strip() if notetype == MODEL_NAME and len(fields) > ID_FIELD else ""
        return ParsedCard(
            own_id or item_id,
            prompt,
            answer,
            row.line,
            blocks[0] if blocks else _block(deck),
            topic or None,
            from_drill=bool(own_id),
        )

    def _column(self, row: _Row, name: str) -> str:
        return self.field(row, self.header.meta.get(name))

    @staticmethod
    def field(row: _Row, index: int | None) -> str:
        """The row's field at `index`; empty when the row has none there."""
        return row.fields[index] if index is not None and index < len(row.fields) else ""


def parse_anki_text(text: str, path: Path) -> ParsedSource:
    """Every note of an Anki text export as a card, errors and warnings by line."""
    lines = text.split("\n")
    errors: list[ContentError] = []
    warnings: list[ContentError] = []
    header = _read_header(lines, path, errors)
    body = "\n".join(lines[header.lines :])
    separator = header.separator or guess_separator(body)
    rows = _rows(body, header.lines + 1, separator, path, errors)
    html = any(HTML_TAG.search(value) for row in rows for value in row.fields) if header.html is None else header.html
    notes = _Notes(path, header, separator, html, errors, warnings)
    guid_column = header.meta.get("guid")
    cards: list[ParsedCard] = []
    row_cards: list[int | None] = []
    first_seen: dict[str, int] = {}
    for row in rows:
        row_cards.append(None)
        guid = None
        if guid_column is not None:
            guid = notes.field(row, guid_column).strip()
            if not guid or guid in first_seen:
                where = f"first at line {first_seen[guid]}" if guid else f"column {guid_column + 1}"
                notes.error(row.line, f"{'duplicate' if guid else 'empty'} guid {guid!r} ({where})")
                continue
            first_seen[guid] = row.line
        card = notes.card(row, anki_item_id(guid) if guid is not None else None)
        if card is not None:
            row_cards[-1] = len(cards)
            cards.append(card)
    if not header.meta and header.columns is None:
        cards = _without_repeated_questions(cards, rows, notes)
    errors.sort(key=lambda error: error.line)
    writer = _GuidWriter(lines, notes, rows, row_cards) if guid_column is None and rows else None
    return ParsedSource(cards, errors, warnings, write_ids=writer)


def _repeated_question(card: ParsedCard) -> int:
    """How much of the answer's start repeats the question (its words, however spaced); 0 when the
    answer does not start with it or holds nothing more."""
    words = card.prompt.split()
    start = re.match(r"\s*" + r"\s+".join(map(re.escape, words)) + r"\s*", card.answer) if words else None
    return start.end() if start is not None and start.end() < len(card.answer) else 0


def _without_repeated_questions(cards: list[ParsedCard], rows: list[_Row], notes: _Notes) -> list[ParsedCard]:
    """A "Cards in Plain Text" export (every row two fields; most answers, two or more, starting
    with their question, as note types whose back repeats the front give them): the cards with
    the question taken out of those answers."""
    repeated = [_repeated_question(card) for card in cards]
    count = sum(map(bool, repeated))
    if count < 2 or 2 * count <= len(cards) or any(len(row.fields) != 2 for row in rows):
        return cards
    message = f'a "Cards in Plain Text" export: the question repeated in {count} answers was taken out'
    notes.warnings.append(ContentError(notes.path, rows[0].line, message))
    return [replace(card, answer=card.answer[end:]) for card, end in zip(cards, repeated, strict=True)]


@dataclass(frozen=True)
class _GuidWriter:
    """Appends each row's guid as a new last column, with headers saying where it is."""

    lines: list[str]
    notes: _Notes
    rows: list[_Row]
    row_cards: list[int | None]  # the card each row gave, by index

    def __call__(self, ids: list[str]) -> str:
        header, separator, lines = self.notes.header, self.notes.separator, list(self.lines)
        column = max(len(self.notes.names), *(len(row.fields) for row in self.rows)) + 1
        for row, card in zip(self.rows, self.row_cards, strict=True):
            guid = _guid_of(ids[card]) if card is not None else secrets.token_hex(5)
            lines[row.last_line - 1] += separator * (column - len(row.fields)) + guid
        if header.columns is not None:
            lines[header.columns_line - 1] += separator * (column - len(self.notes.names)) + "GUID"
        lines.insert(header.lines, f"#guid column:{column}")
        if header.separator is None:
            name = next(name for name, character in SEPARATORS.items() if character == separator)
            # before the other headers, since Anki splits #columns with the separator known so far
            lines.insert(1 if self.lines[0].startswith("tags:") else 0, f"#separator:{name}")
        return "\n".join(lines)

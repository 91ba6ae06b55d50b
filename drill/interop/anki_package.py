"""Anki's own files read as plain data: a package (.apkg, .colpkg, also through a pipe), a
collection file (collection.anki2) or an Anki profile folder holding one.

The user's file is never opened for writing: the collection inside a package is unpacked into a
temporary folder (the zstd-compressed collection.anki21b of current Anki decompressed), and a bare
collection is copied there, with the -wal file Anki keeps beside an open one, before SQLite opens
the copy. Both schemas Anki writes are read: 11 (collection.anki2 and .anki21, note types and
decks as JSON in the `col` row) and 18 (collection.anki21b and current profiles: tables of their own).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zstandard

from drill.interop.errors import InteropError

# Newest first: a current package keeps a stub collection.anki2 that tells old Ankis to update.
MEMBERS = ("collection.anki21b", "collection.anki21", "collection.anki2")
COMPRESSED = "collection.anki21b"
PROFILE_COLLECTION = "collection.anki2"
ZIP_MAGIC = b"PK\x03\x04"
SQLITE_MAGIC = b"SQLite format 3\x00"
TABLES = ("col", "notes", "cards", "revlog")
SEPARATOR = "\x1f"  # between a note's fields, and between the levels of a deck name in schema 18
# NotetypeConfig's first field (kind) set to 1 (cloze): protobuf writes fields in number order and
# leaves out a default, so a cloze note type's config begins with these two bytes.
CLOZE_CONFIG = b"\x08\x01"
CLOZE_TYPE = 1  # a schema 11 note type's "type"
NOTES = """SELECT n.id, n.guid, n.mid, n.tags, n.flds,
    (SELECT CASE WHEN c.odid THEN c.odid ELSE c.did END FROM cards c WHERE c.nid = n.id ORDER BY c.ord LIMIT 1)
    FROM notes n ORDER BY n.id"""
# Each row with the note of its card (none when the card is gone), whether that is the note's first
# card, and whether the row's values are all integers (SQLite's columns take any type).
REVLOG = """SELECT r.id, r.ease, r.time, r.type, r.ivl, r.factor, c.nid,
    c.ord = (SELECT min(ord) FROM cards WHERE nid = c.nid),
    typeof(r.id) = 'integer' AND typeof(r.ease) = 'integer' AND typeof(r.time) = 'integer'
        AND typeof(r.type) = 'integer' AND typeof(r.ivl) = 'integer' AND typeof(r.factor) = 'integer'
    FROM revlog r LEFT JOIN cards c ON c.id = r.cid ORDER BY r.id"""


@dataclass(frozen=True)
class AnkiNote:
    """One note: its fields (Anki's HTML), tags, note type and the deck of its first card."""

    position: int  # 1 for the note Anki made first
    id: int
    guid: str
    notetype: str
    cloze: bool
    fields: tuple[str, ...]
    tags: tuple[str, ...]
    deck: str  # "Parent::Child"; a card in a filtered deck counts in its home deck


@dataclass(frozen=True)
class RevlogRow:
    """One row of Anki's review log."""

    ms: int  # the row's id: when the card was answered, Unix time in milliseconds
    ease: int  # the button, 1 Again to 4 Easy; 0 on a manual row
    duration_ms: int
    kind: int  # 0 learning, 1 review, 2 relearning, 3 filtered (cram), 4 manual, 5 rescheduled
    interval: int  # days after the row (negative: seconds, in learning); 0 after a Forget
    factor: int  # ease factor in permille (FSRS: difficulty); 0 after a Forget
    note_id: int | None  # None when the card is no longer in the collection
    first_card: bool  # of the note's first card (a reversed card is a second one)


class AnkiCollection:
    """A temporary copy of an Anki collection, read through SQLite."""

    def __init__(self, source: Path, contents: str, connection: sqlite3.Connection) -> None:
        self.source = source
        self.contents = contents  # what was read: the package's collection file, or the collection itself
        self.connection = connection
        tables = {name for (name,) in self._query("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = [table for table in TABLES if table not in tables]
        if missing:
            raise InteropError(
                [f"{source}: an SQLite database, but not an Anki collection (it has no {', '.join(missing)} table)"]
            )
        self.schema = 18 if "notetypes" in tables else 11

    def notes(self) -> list[AnkiNote]:
        """Every note, in the order Anki made them."""
        notetypes, decks = self._notetypes(), self._decks()
        notes = []
        for position, (note_id, guid, notetype_id, tags, fields, deck_id) in enumerate(self._query(NOTES), start=1):
            name, cloze = notetypes.get(notetype_id, ("", False))
            notes.append(
                AnkiNote(
                    position,
                    note_id,
                    str(guid),
                    name,
                    cloze,
                    tuple(str(fields).split(SEPARATOR)),
                    tuple(str(tags).split()),
                    decks.get(deck_id, ""),
                )
            )
        return notes

    def revlog_rows(self) -> int:
        (count,) = next(iter(self._query("SELECT count(*) FROM revlog")))
        return int(count)

    def revlog(self) -> Iterator[RevlogRow]:
        """Every row of the review log, oldest first, as it is read."""
        for ms, ease, duration, kind, interval, factor, note_id, first_card, integers in self._query(REVLOG):
            if not integers:
                values = (ms, ease, duration, kind, interval, factor)
                raise InteropError([f"{self.source}: a damaged Anki collection (a review-log row reads {values})"])
            yield RevlogRow(ms, ease, duration, kind, interval, factor, note_id, bool(first_card))

    def _notetypes(self) -> dict[int, tuple[str, bool]]:
        """Note type id → its name and whether it is a cloze type."""
        if self.schema == 18:
            return {
                notetype_id: (str(name), isinstance(config, bytes) and config.startswith(CLOZE_CONFIG))
                for notetype_id, name, config in self._query("SELECT id, name, config FROM notetypes")
            }
        return {
            int(key): (str(model.get("name", "")), model.get("type") == CLOZE_TYPE)
            for key, model in self._json_column("models").items()
        }

    def _decks(self) -> dict[int, str]:
        """Deck id → its full name, levels joined by `::`."""
        if self.schema == 18:
            decks = self._query("SELECT id, name FROM decks")
            return {deck_id: str(name).replace(SEPARATOR, "::") for deck_id, name in decks}
        return {int(key): str(deck.get("name", "")) for key, deck in self._json_column("decks").items()}

    def _json_column(self, column: str) -> dict[str, dict[str, Any]]:
        (text,) = next(iter(self._query(f"SELECT {column} FROM col")), ("{}",))
        try:
            value = json.loads(text or "{}")
        except (TypeError, ValueError):
            value = None
        if not isinstance(value, dict) or not all(isinstance(entry, dict) for entry in value.values()):
            raise InteropError([f"{self.source}: a damaged Anki collection (its {column} are not readable)"])
        return value

    def _query(self, sql: str) -> Iterator[tuple[Any, ...]]:
        try:
            yield from self.connection.execute(sql)
        except sqlite3.DatabaseError as error:
            raise InteropError([f"{self.source}: a damaged Anki collection ({error})"]) from None


@contextmanager
def open_collection(source: Path) -> Iterator[AnkiCollection]:
    """The collection in `source` (a package, a collection file, a profile folder, or a pipe such
    as /dev/stdin carrying a package), read from a temporary copy that is removed afterwards;
    InteropError naming the file when it is none of those."""
    with tempfile.TemporaryDirectory(prefix="drill-anki-") as folder:
        copy = Path(folder) / "collection.sqlite"
        try:
            contents = _copy_collection(source, copy)
        except OSError as error:
            raise InteropError([f"{source}: cannot read: {error.strerror or error}"]) from None
        with closing(sqlite3.connect(copy)) as connection:
            yield AnkiCollection(source, contents, connection)


def _copy_collection(source: Path, copy: Path) -> str:
    """Put the SQLite collection `source` holds at `copy`; what it was read from."""
    if source.is_dir():
        if not (source / PROFILE_COLLECTION).is_file():
            raise InteropError([f"{source}: a folder without {PROFILE_COLLECTION} (an Anki profile folder holds one)"])
        source = source / PROFILE_COLLECTION
    readable = source
    if not source.is_file():  # a pipe: read once, into the folder (a zip is read out of order)
        readable = copy.with_name("stream")
        with source.open("rb") as stream, readable.open("wb") as out:
            shutil.copyfileobj(stream, out)
    with readable.open("rb") as handle:
        magic = handle.read(len(SQLITE_MAGIC))
    if magic.startswith(ZIP_MAGIC):
        return _unpack(source, readable, copy)
    if magic != SQLITE_MAGIC:
        raise InteropError([f"{source}: not an Anki package (.apkg, .colpkg) or collection (collection.anki2)"])
    shutil.copyfile(readable, copy)
    journal = source.with_name(f"{source.name}-wal")  # changes an open Anki has not yet written into the file
    if readable == source and journal.is_file():
        shutil.copyfile(journal, copy.with_name(f"{copy.name}-wal"))
    return source.name


def _unpack(package: Path, readable: Path, copy: Path) -> str:
    """Put the newest collection file in the zip `package` (read at `readable`) at `copy`; its
    name in the package."""
    try:
        with zipfile.ZipFile(readable) as archive:
            names = set(archive.namelist())
            member = next((name for name in MEMBERS if name in names), None)
            if member is None:
                raise InteropError(
                    [f"{package}: a zip archive without an Anki collection in it (no {', '.join(MEMBERS)})"]
                )
            with archive.open(member) as packed, copy.open("wb") as out:
                if member == COMPRESSED:
                    zstandard.ZstdDecompressor().copy_stream(packed, out)
                else:
                    shutil.copyfileobj(packed, out)
    except (zipfile.BadZipFile, zlib.error, zstandard.ZstdError, EOFError) as error:
        raise InteropError([f"{package}: a damaged Anki package ({error})"]) from None
    return member

"""Which format a file to import is in, told by its name and its bytes: a Markdown deck, an Anki
text export, Anki's own files (a package, a collection, a profile folder: `anki-package`, for
drill.interop.anki_import), or something drill cannot import (binary data, refused naming the
formats it reads). The bytes are read once, so stdin (`-`) and pipes work too."""

from __future__ import annotations

import io
import re
import sqlite3
import zipfile
from pathlib import Path

from drill.interop.anki_text import consistent_separator
from drill.interop.errors import InteropError
from drill.interop.textfile import read_input

ANKI_HEADER = re.compile(r"^#(separator|html|columns|tags|notetype|deck|(guid|notetype|deck|tags) column):", re.I)
CARD_LINE = re.compile(r"^[QC]:", re.M)
FORMATS = (
    "a Markdown deck (.md: hashcards' Q:/A: and C: cards), an Anki text export (.txt/.csv/.tsv) "
    "or an Anki package (.apkg, .colpkg, collection.anki2)"
)
PACKAGE_SUFFIXES = (".apkg", ".colpkg", ".anki2", ".anki21", ".anki21b")
COLLECTIONS = ("collection.anki21b", "collection.anki21", "collection.anki2")
ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
SQLITE_MAGIC = b"SQLite format 3\x00"
SNIFFED = 8192  # bytes looked at for NUL bytes: text has none


def _holds_collection(source: Path) -> bool:
    return source.is_dir() and any((source / name).is_file() for name in COLLECTIONS)


def _anki_data(data: bytes) -> bool:
    """A zip holding an Anki collection, or an SQLite database with Anki's `notes` table."""
    if data.startswith(ZIP_MAGIC):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as package:
                return any(name in COLLECTIONS for name in package.namelist())
        except zipfile.BadZipFile:
            return False
    if data.startswith(SQLITE_MAGIC):
        connection = sqlite3.connect(":memory:")
        try:
            connection.deserialize(data[:18] + b"\x01\x01" + data[20:])  # as a rollback-journal file: WAL cannot load
            return connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'notes'").fetchone() is not None
        except sqlite3.DatabaseError:
            return False
        finally:
            connection.close()
    return False


def read_deck(source: Path) -> bytes:
    """What detect_format needs of `source`: nothing of an Anki package named as one or of a
    folder holding a collection (the package importer reads those), else all its bytes (stdin's
    for `-`), read once."""
    if source.suffix.lower() in PACKAGE_SUFFIXES or _holds_collection(source):
        return b""
    return read_input(source)


def detect_format(source: Path, data: bytes) -> str | None:
    """The format of `source`, whose bytes (as read_deck gives them) are `data`: `anki-package`
    for Anki's own files; `anki` for .csv/.tsv, or text with Anki headers or tabs, or whose rows a
    tab, pipe, semicolon or comma splits alike; `markdown` for .md/.markdown or Q:/C: lines; None
    for text of neither format. Other binary data raises InteropError naming what drill reads."""
    suffix = source.suffix.lower()
    if suffix in PACKAGE_SUFFIXES or _holds_collection(source) or _anki_data(data):
        return "anki-package"
    if data.startswith((*ZIP_MAGIC, SQLITE_MAGIC)) or b"\0" in data[:SNIFFED]:
        raise InteropError([f"{source}: not a deck drill can import (binary data); supported: {FORMATS}"])
    if suffix in (".md", ".markdown"):
        return "markdown"
    if suffix in (".csv", ".tsv"):
        return "anki"
    if suffix not in ("", ".txt"):
        return None
    text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
    header = [line for line in text.split("\n", 50)[:50] if line.startswith("#")]
    if "\t" in text or text.startswith("tags:") or any(map(ANKI_HEADER.match, header)):
        return "anki"
    if CARD_LINE.search(text):
        return "markdown"
    return "anki" if consistent_separator(text) in ("\t", "|", ";", ",") else None

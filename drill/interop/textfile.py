"""A user's text file read for import (whole, or streamed line by line) and replaced atomically,
keeping its BOM and line endings."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from drill.interop.errors import InteropError

BOM = "\ufeff"
SOURCE_LIMIT = 16 * 1024 * 1024  # bytes: the largest file read whole (a deck); larger ones are refused unread
LINE_LIMIT = 64 * 1024  # bytes: the longest line a streamed file may have; a longer one is skipped unread


@dataclass(frozen=True)
class SourceText:
    """A file's text with `\\n` line ends and no BOM, and how to write it back the same way."""

    text: str
    newline: str = "\n"
    bom: bool = False


def read_source(path: Path) -> SourceText:
    """The file's text, or InteropError naming the file (and the line of a bad byte); a file over
    SOURCE_LIMIT bytes is refused before it is read."""
    try:
        size = path.stat().st_size
        if size > SOURCE_LIMIT:
            limit = f"drill imports from one file ({SOURCE_LIMIT // 2**20} MiB)"
            raise InteropError([f"{path}: {size / 2**20:.1f} MiB is more than {limit}; split it into smaller files"])
        raw = path.read_bytes()
    except OSError as error:
        raise InteropError([f"{path}: cannot read: {error.strerror or error}"]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise InteropError([f"{path}:{line}: not UTF-8 text ({error.reason})"]) from None
    newline = "\r\n" if "\r\n" in text else "\n"
    return SourceText(text.removeprefix(BOM).replace("\r\n", "\n"), newline, text.startswith(BOM))


def stream_lines(path: Path, handle: BinaryIO, too_long: Callable[[int], None]) -> Iterator[str]:
    """The lines of `handle` (opened on `path` in binary) decoded as read_source decodes a whole
    file, each with its own line end (for the csv module), holding one line at a time. A line over
    LINE_LIMIT bytes is reported to `too_long` with its number and given as an empty line, never
    read whole; a bad byte raises InteropError naming its line."""
    number = 0
    while raw := handle.readline(LINE_LIMIT + 1):
        number += 1
        if len(raw) > LINE_LIMIT and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = handle.readline(LINE_LIMIT)
            too_long(number)
            yield "\n"
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InteropError([f"{path}:{number}: not UTF-8 text ({error.reason})"]) from None
        yield text.removeprefix(BOM) if number == 1 else text


def replace_source(path: Path, original: SourceText, text: str) -> None:
    """Write `text` over the file through a temporary file and os.replace, keeping its mode."""
    path = path.resolve()
    data = (BOM if original.bom else "") + text.replace("\n", original.newline)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        shutil.copymode(path, temporary)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise InteropError([f"{path}: cannot write the new ids back: {error.strerror or error}"]) from None

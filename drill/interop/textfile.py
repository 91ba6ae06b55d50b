"""A user's file read for import (whole, or streamed line by line; `-` is stdin) and, for
`drill import --write-ids` only, replaced atomically, keeping its BOM and line endings."""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from drill.interop.errors import InteropError

BOM = "\ufeff"
STDIN = Path("-")
SOURCE_LIMIT = 16 * 1024 * 1024  # bytes: the largest file read whole (a deck); larger ones are refused unread
LINE_LIMIT = 64 * 1024  # bytes: the longest line a streamed file may have; a longer one is skipped unread


@dataclass(frozen=True)
class SourceText:
    """A file's text with `\\n` line ends and no BOM, and how to write it back the same way."""

    text: str
    newline: str = "\n"
    bom: bool = False


def is_stream(path: Path) -> bool:
    """`-` (stdin) or a file that is read once, as it comes (a pipe, /dev/stdin, a device)."""
    if path == STDIN:
        return True
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def open_input(path: Path) -> AbstractContextManager[BinaryIO]:
    """The file opened to read in binary, or stdin (left open) for `-`; InteropError when it cannot be."""
    if path == STDIN:
        if sys.stdin is None:  # the process was started with its standard input closed
            raise InteropError([f"{path}: cannot read: standard input is closed"])
        return nullcontext(sys.stdin.buffer)
    try:
        return path.open("rb")
    except OSError as error:
        raise InteropError([f"{path}: cannot read: {error.strerror or error}"]) from None


def read_input(path: Path) -> bytes:
    """The bytes of a file, or of stdin for `-`, or InteropError naming it; a file over
    SOURCE_LIMIT bytes is refused before it is read (a stream once that much has come)."""
    limit = f"drill imports from one file ({SOURCE_LIMIT // 2**20} MiB)"
    try:
        if is_stream(path):
            with open_input(path) as stream:
                raw = stream.read(SOURCE_LIMIT + 1)
            if len(raw) > SOURCE_LIMIT:
                raise InteropError([f"{path}: more than {limit}; split it into smaller files"])
            return raw
        size = path.stat().st_size
        if size > SOURCE_LIMIT:
            raise InteropError([f"{path}: {size / 2**20:.1f} MiB is more than {limit}; split it into smaller files"])
        return path.read_bytes()
    except OSError as error:
        raise InteropError([f"{path}: cannot read: {error.strerror or error}"]) from None


def decode_source(path: Path, raw: bytes) -> SourceText:
    """The text of a file read whole, or InteropError naming the file and the line of a bad byte."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise InteropError([f"{path}:{line}: not UTF-8 text ({error.reason})"]) from None
    newline = "\r\n" if "\r\n" in text else "\n"
    return SourceText(text.removeprefix(BOM).replace("\r\n", "\n"), newline, text.startswith(BOM))


def stream_lines(path: Path, handle: BinaryIO, too_long: Callable[[int], None]) -> Iterator[str]:
    """The lines of `handle` (opened on `path` in binary) decoded as decode_source decodes a whole
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
    """Write `text` over the file through a temporary file and os.replace, keeping its mode (only
    `drill import --write-ids` writes a user's file)."""
    path = path.resolve()
    data = (BOM if original.bom else "") + text.replace("\n", original.newline)
    temporary: Path | None = None
    try:
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        temporary = Path(name)
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        shutil.copymode(path, temporary)
        os.replace(temporary, path)
    except OSError as error:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        raise InteropError([f"{path}: cannot write the ids into it: {error.strerror or error}"]) from None

"""A user's text file read for import and replaced atomically, keeping its BOM and line endings."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from drill.interop.errors import InteropError

BOM = "\ufeff"


@dataclass(frozen=True)
class SourceText:
    """A file's text with `\\n` line ends and no BOM, and how to write it back the same way."""

    text: str
    newline: str = "\n"
    bom: bool = False


def read_source(path: Path) -> SourceText:
    """The file's text, or InteropError naming the file (and the line of a bad byte)."""
    try:
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

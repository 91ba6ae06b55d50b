"""Where an export's bytes go: a file, written whole or not at all, or a stream, written in place.

`-` is standard output. A file is written to a temporary file beside it, then os.replace, so a
reader never sees half of it; a symlink is written through (the file it leads to gets the new
content, the link stays a link) and a file replaced keeps its permissions. A target that is no
regular file (a pipe, a terminal, a device) or is drill's own standard output (/dev/stdout) is
written in place as a stream: it is never replaced. A folder is refused.
"""

from __future__ import annotations

import errno
import io
import os
import secrets
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

STDOUT = Path("-")


def shown(target: Path) -> str:
    """`target` as a message names it."""
    return "standard output" if target == STDOUT else str(target)


def is_stdout(target: Path) -> bool:
    """Whether writing `target` writes drill's standard output: `-`, or a path to the same file
    (/dev/stdout, /proc/self/fd/1)."""
    if target == STDOUT:
        return True
    try:
        return os.path.samestat(os.stat(target), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, io.UnsupportedOperation):  # no such file; stdout closed or not a file
        return False


@contextmanager
def writing(target: Path) -> Iterator[BinaryIO]:
    """A binary stream whose bytes become `target` when the block ends without error (see the
    module's docstring for streams and links). A file's temporary is removed if the block raises,
    leaving the old file as it was; OSError (IsADirectoryError for a folder) names `target`."""
    if is_stdout(target):
        yield from _to_stdout()
        return
    try:
        mode: int | None = os.stat(target).st_mode  # through links
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "it is a folder; name a file to write", str(target))
    if mode is not None and not stat.S_ISREG(mode):
        with target.open("wb") as stream:
            yield stream
        return
    yield from _replacing(Path(os.path.realpath(target)), mode)


def _to_stdout() -> Iterator[BinaryIO]:
    out = sys.stdout.buffer
    sys.stdout.flush()
    try:
        yield out
        out.flush()
    except BrokenPipeError:
        # The reader left (`| head`): stdout goes nowhere from now on, so exiting raises nothing more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise


def _replacing(final: Path, mode: int | None) -> Iterator[BinaryIO]:
    """A new file beside `final` (the usual umask permissions, or `mode`'s when it replaces one)
    that becomes `final` when the block ends."""
    temporary = final.with_name(f".{final.name}.{secrets.token_hex(4)}.tmp")
    try:
        with temporary.open("xb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(temporary, stat.S_IMODE(mode))
        os.replace(temporary, final)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise

"""Writing an export whole or not at all: a temporary file beside the target, then os.replace."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(target: Path) -> Iterator[Path]:
    """A new empty file in `target`'s folder (created with the usual umask permissions); it
    becomes `target` when the block ends without error and is removed when it raises, so a
    reader never sees a half-written file. A target that exists and is no regular file (a pipe,
    /dev/stdout, a device) is given itself, to be written in place: it is never replaced."""
    if target.exists() and not target.is_file():
        yield target
        return
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    temporary.open("xb").close()
    try:
        yield temporary
        with temporary.open("rb+") as written:
            os.fsync(written.fileno())
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise

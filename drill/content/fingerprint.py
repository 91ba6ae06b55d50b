"""A fingerprint of every content file the library is built from, so an unchanged library is
not parsed and synced again on each start.

It hashes the bytes (not modification times, which can repeat within a clock tick) of the deck
files, the problem files and every file of each coding drill, with their paths and drill's
version; hashing them costs a few milliseconds, parsing and syncing them hundreds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

from drill import __version__
from drill.paths import Paths


def _files(paths: Paths) -> Iterator[Path]:
    for folder in (*paths.deck_dirs(), *paths.problem_dirs()):
        if folder.is_dir():
            yield from sorted(folder.glob("*.toml"))
    for kernels in paths.kernel_dirs():
        if kernels.is_dir():
            for drill in sorted(folder for folder in kernels.iterdir() if folder.is_dir()):
                yield from sorted(path for path in drill.iterdir() if path.is_file())


def content_fingerprint(paths: Paths) -> str:
    digest = hashlib.sha256(__version__.encode())
    for path in _files(paths):
        digest.update(b"\0" + str(path).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()

"""`drill import` from a pipe (`-`, /dev/stdin) and from a folder drill may not write: the file
is only read, so both import; `--write-ids` there fails with one message, never a traceback."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

DECK = "Q: What does the KV cache store?\nA: Keys and values.\n\nQ: Its size per token?\nA: 2 * layers * heads * dim\n"
NOBODY = 65534


def drill(
    *argv: str, home: Path, stdin: str | None = None, read_only: Path | None = None
) -> subprocess.CompletedProcess:
    """`python -m drill import ARGV` with DRILL_HOME=home; where `read_only` is given, run so that
    drill cannot write that folder even when this runs as root."""
    prefix = _unable_to_write(read_only) if read_only and os.geteuid() == 0 else []
    return subprocess.run(
        [*prefix, sys.executable, "-m", "drill", "import", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "DRILL_HOME": str(home)},
        timeout=120,
    )


def _unable_to_write(folder: Path) -> list[str]:
    """A command prefix under which root cannot write `folder`: user nobody where that user can
    import drill and its dependencies, else (the interpreter in a folder only root may enter, as
    CI's is) a private mount namespace with the folder bound read-only."""
    nobody = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    probe = "import drill.cli, drill.interop.deck_format, drill.store.tables, drill.store.engine"
    if (
        shutil.which("setpriv")
        and subprocess.run([*nobody, sys.executable, "-c", probe], capture_output=True).returncode == 0
    ):
        return nobody
    bound_read_only = ["unshare", "--mount", "sh", "-c", READ_ONLY_BIND, str(folder)]
    if shutil.which("unshare") and subprocess.run([*bound_read_only, "true"], capture_output=True).returncode == 0:
        return bound_read_only
    pytest.skip("as root, with neither user nobody able to import drill nor a mount namespace")


READ_ONLY_BIND = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_a_deck_piped_in_imports_as_a_deck_named_after_its_topic(tmp_path: Path, name: str) -> None:
    done = drill(name, "--block", "memory", "--topic", "piped", home=tmp_path / "home", stdin=DECK)
    assert done.returncode == 0, done.stderr
    assert "2 added, 0 updated, 0 unchanged, 0 removed" in done.stdout
    assert (tmp_path / "home" / "decks" / "imported-piped.toml").is_file()


@pytest.fixture
def read_only_deck() -> Iterator[tuple[Path, Path]]:
    """A deck in a folder drill cannot write (owned by root, mode 555; drill runs as nobody when
    this runs as root), and a home drill can write."""
    root = Path(tempfile.mkdtemp(prefix="drill-readonly-"))  # not under pytest's 0700 folder: nobody must reach it
    try:
        root.chmod(0o755)
        folder, home = root / "decks", root / "home"
        folder.mkdir()
        home.mkdir()
        (folder / "kv-cache.md").write_text(DECK)
        (folder / "kv-cache.md").chmod(0o444)
        folder.chmod(0o555)
        if os.geteuid() == 0:
            os.chown(home, NOBODY, NOBODY)
        yield folder / "kv-cache.md", home
    finally:
        (root / "decks").chmod(0o755)
        shutil.rmtree(root)


def test_a_deck_in_a_folder_drill_cannot_write_imports_and_stays_as_it_was(read_only_deck) -> None:
    deck, home = read_only_deck
    before = hashlib.sha256(deck.read_bytes()).hexdigest()
    done = drill(str(deck), "--block", "memory", home=home, read_only=deck.parent)
    assert done.returncode == 0, done.stderr
    assert "2 added" in done.stdout
    assert hashlib.sha256(deck.read_bytes()).hexdigest() == before
    assert sorted(path.name for path in deck.parent.iterdir()) == ["kv-cache.md"]


def test_write_ids_in_a_folder_drill_cannot_write_fails_with_one_message(read_only_deck) -> None:
    deck, home = read_only_deck
    done = drill(str(deck), "--block", "memory", "--write-ids", home=home, read_only=deck.parent)
    assert done.returncode == 1
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.splitlines() in [
        [
            f"{deck}: cannot write the ids into it: {why}",
            f"drill: {deck} was not imported (1 problem); nothing was changed",
        ]
        for why in ("Permission denied", "Read-only file system")  # user nobody, or a read-only mount
    ], done.stderr
    assert not list((home / "decks").glob("imported-*"))

"""Telling deck formats apart: by name and content, Anki's own files whatever their name, binary
data refused naming what drill imports; the file is only read."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import zipfile
from pathlib import Path

import pytest
from helpers.anki_files import anki_profile

from drill.interop.deck_format import detect_format, read_deck
from drill.interop.deck_import import import_deck
from drill.interop.errors import InteropError


def fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("deck.md", "#separator:tab\n", "markdown"),
        ("deck.markdown", "", "markdown"),
        ("export.txt", "#separator:comma\na,b\n", "anki"),
        ("export.txt", "front\tback\n", "anki"),
        ("export.txt", "tags:x\nfront;back\n", "anki"),
        ("export.txt", "a;b;c\nd;e;f\n", "anki"),
        ("export.tsv", "#html:true\n#columns:Front\tBack\n", "anki"),
        ("cards.csv", "front,back\n", "anki"),
        ("notes.txt", "# Title\n\nQ: one\nA: 1\n", "markdown"),
        ("notes.txt", "C: [cloze] only\n", "markdown"),
        ("-", "Q: from stdin\nA: yes\n", "markdown"),
        ("-", "#separator:tab\nq\ta\n", "anki"),
        ("notes.txt", "just some prose\n", None),
        ("photo.png", "front,back\n", None),
        ("deck.apkg", "", "anki-package"),
        ("collection.anki2", "", "anki-package"),
        ("phone.colpkg", "", "anki-package"),
    ],
)
def test_the_format_comes_from_the_name_and_the_contents(name: str, text: str, kind: str | None) -> None:
    assert detect_format(Path(name), text.encode()) == kind


def test_anki_files_are_told_by_their_content_whatever_their_name(tmp_path: Path) -> None:
    anki = anki_profile(tmp_path / "profile")
    renamed = {}
    for name in ("collection.anki2", "deck.apkg", "phone.colpkg"):
        renamed[name] = tmp_path / f"{name}.bak"
        shutil.copy(anki / name, renamed[name])
    assert detect_format(anki, read_deck(anki)) == "anki-package"  # a profile folder holding a collection
    for path in [anki / "collection.anki2", *renamed.values()]:
        before = fingerprint(path)
        assert detect_format(path, read_deck(path)) == "anki-package", path.name
        assert fingerprint(path) == before


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("photo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
        ("notes.txt", b"Q: one\x00\nA: 1\n"),
        ("archive.zip", b""),  # made below: a zip without a collection
        ("other.db", b""),  # made below: SQLite without Anki's tables
    ],
)
def test_other_binary_data_is_refused_naming_what_drill_imports(small_paths, tmp_path: Path, name: str, data: bytes):
    source = tmp_path / name
    if name == "archive.zip":
        with zipfile.ZipFile(source, "w") as archive:
            archive.writestr("readme.txt", "hello")
    elif name == "other.db":
        with sqlite3.connect(source) as connection:
            connection.execute("CREATE TABLE things (x)")
        connection.close()
    else:
        source.write_bytes(data)
    with pytest.raises(InteropError) as raised:
        import_deck(small_paths, source, "memory", None)
    assert raised.value.problems == [
        f"{source}: not a deck drill can import (binary data); supported: a Markdown deck (.md: hashcards' Q:/A: and "
        "C: cards), an Anki text export (.txt/.csv/.tsv) or an Anki package (.apkg, .colpkg, collection.anki2)"
    ]


def test_an_anki_package_on_stdin_is_named_as_one_never_as_bad_text(small_paths, tmp_path: Path) -> None:
    package = (anki_profile(tmp_path / "profile") / "deck.apkg").read_bytes()
    with pytest.raises(InteropError) as raised:
        import_deck(small_paths, Path("-"), "memory", None, data=package)
    assert raised.value.problems == ["-: an Anki package or collection, not a text deck; import it from its file"]

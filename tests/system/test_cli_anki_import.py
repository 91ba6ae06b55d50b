"""`drill import` of what Anki writes, in real processes: drill's export goes into the real Anki
library, a card is answered there, and the collection package Anki exports comes back through
`drill import FILE` and through `drill import -` (stdin): the review lands once, `drill list`
shows it, and the package is left byte-identical."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")


def drill(*arguments: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "drill", *arguments], input=stdin, capture_output=True, env=os.environ, timeout=120
    )


def listed(item_id: str) -> dict[str, object]:
    rows = json.loads(drill("list", "--json").stdout)
    return next(row["state"] for row in rows if row["id"] == item_id)


@pytest.mark.slow
def test_an_answer_given_in_anki_comes_back_once_by_file_and_by_stdin(drill_home: Path, tmp_path: Path) -> None:
    from helpers.anki_desk import AnkiDesk

    item_id = json.loads(drill("queue", "--json").stdout)[0]["id"]
    assert drill("export", "--anki", str(tmp_path / "drill.apkg")).returncode == 0
    (tmp_path / "phone").mkdir()
    desk = AnkiDesk(tmp_path / "phone" / "collection.anki2")
    try:
        desk.import_package(tmp_path / "drill.apkg")
        (note_id,) = desk.col.find_notes(f'"Id:{item_id}"')
        desk.answer(desk.cards_of(note_id)[0], 3, seconds=5)
        package = desk.export(tmp_path / "phone.colpkg", "colpkg")
    finally:
        desk.close()
    before = hashlib.sha256(package.read_bytes()).digest()
    assert listed(item_id)["reviews"] == 0

    first = drill("import", str(package), "--json")
    assert first.returncode == 0, first.stderr.decode()
    report = json.loads(first.stdout)
    assert (report["drill_reviews"], report["added"]) == (1, 1)
    state = listed(item_id)
    assert state["reviews"] == 1
    assert state["interval"] == 1  # a first Good: drill's SM-2 gives one day

    again = drill("import", "-", stdin=package.read_bytes())
    assert again.returncode == 0, again.stderr.decode()
    said = again.stdout.decode().splitlines()
    assert re.fullmatch(r"- \(collection\.anki21b\): \d+ notes?, 1 review-log row", said[0])
    assert said[2] == "skipped 1 already in the store (same item and time)"
    assert listed(item_id)["reviews"] == 1
    assert hashlib.sha256(package.read_bytes()).digest() == before


def test_write_ids_into_an_anki_package_is_refused_and_nothing_changes(drill_home: Path, tmp_path: Path) -> None:
    package = tmp_path / "some.apkg"
    package.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip
    result = drill("import", str(package), "--write-ids")
    assert result.returncode == 1
    assert b"--write-ids is for text decks" in result.stderr
    assert b"Traceback" not in result.stderr
    assert package.read_bytes() == b"PK\x05\x06" + bytes(18)

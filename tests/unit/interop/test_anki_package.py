"""Anki's own files, as the real Anki library writes them, read back note for note and row for row —
every package format, a bare collection and a profile folder, without changing a byte of them;
anything else is refused naming the file."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import zipfile
from pathlib import Path

import pytest

from drill.interop.anki_package import AnkiNote, open_collection
from drill.interop.errors import InteropError

FORMATS = {  # how the collection is handed over → the collection file read
    "colpkg": "collection.anki21b",
    "colpkg-legacy": "collection.anki21",
    "apkg": "collection.anki21b",
    "apkg-legacy": "collection.anki21",
    "collection": "collection.anki2",
    "profile": "collection.anki2",
}


def digest(*paths: Path) -> list[str]:
    return [hashlib.sha256(path.read_bytes()).hexdigest() for path in paths]


@pytest.fixture(scope="module")
def desk_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path], list[AnkiNote], list[tuple]]:
    """A collection with front/back, reversed and cloze notes in nested decks, answered, rescheduled
    by hand and crammed; written in every format. Also what Anki itself says its notes and log are."""
    pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")
    from helpers.anki_desk import AnkiDesk

    folder = tmp_path_factory.mktemp("anki")
    profile = folder / "User 1"
    profile.mkdir()
    desk = AnkiDesk(profile / "collection.anki2")
    basic = desk.add_note(["What is <b>MFU</b>?", "Model FLOPs utilisation"], "ML::Systems", ["topic::mfu", "drill"])
    both = desk.add_note(["KV cache", "keys and values kept"], "ML", [], "Basic (and reversed card)")
    cloze = desk.add_note(["A {{c1::KV}} cache"], "Default", ["block::memory"], "Cloze")
    gone = desk.add_note(["Deleted", "after an answer"])
    first, second = desk.cards_of(both.id)
    answers = [(desk.cards_of(basic.id)[0], 3), (first, 1), (first, 3), (second, 4), (desk.cards_of(cloze.id)[0], 2)]
    for card, ease in [*answers, (desk.cards_of(gone.id)[0], 3)]:
        desk.answer(card, ease)
    desk.col.sched.set_due_date([first], "3")  # a manual row
    desk.col.sched.schedule_cards_as_new([answers[0][0]], restore_position=True, reset_counts=False)  # Forget: another
    col = desk.col
    col.remove_notes([gone.id])  # its review stays in the log, its card is gone
    owners = {card_id: (col.get_card(card_id).nid, col.get_card(card_id).ord == 0) for card_id in col.find_cards("")}
    files = {kind: desk.export(folder / f"export.{kind}", kind) for kind in FORMATS if "pkg" in kind}
    col = desk.col
    decks = {card_id: col.decks.name(col.get_card(card_id).did) for card_id in col.find_cards("")}
    notes = []
    for position, note_id in enumerate(sorted(col.find_notes("")), start=1):
        note = col.get_note(note_id)
        notetype = note.note_type()
        notes.append(
            AnkiNote(
                position,
                note.id,
                note.guid,
                notetype["name"],
                notetype["type"] == 1,
                tuple(note.fields),
                tuple(note.tags),
                decks[desk.cards_of(note.id)[0]],
            )
        )
    log = [
        (ms, ease, duration, kind, interval, factor, *owners.get(card_id, (None, False)))
        for ms, card_id, ease, duration, kind, interval, factor in col.db.all(
            "SELECT id, cid, ease, time, type, ivl, factor FROM revlog ORDER BY id"
        )
    ]
    desk.close()
    files["collection"], files["profile"] = profile / "collection.anki2", profile
    return folder, files, notes, log


@pytest.mark.parametrize("kind", FORMATS)
def test_every_anki_file_reads_as_anki_sees_it_and_stays_byte_identical(desk_files, kind: str) -> None:
    _, files, notes, log = desk_files
    source = files[kind]
    files = sorted(path for path in source.parent.rglob("*") if path.is_file())
    before = digest(*files)
    with open_collection(source) as collection:
        assert collection.contents == FORMATS[kind]
        assert collection.notes() == notes
        exported = [row for row in log if row[6] is not None] if kind.startswith("apkg") else log  # its notes' rows
        assert [tuple(vars(row).values()) for row in collection.revlog()] == exported
    assert digest(*files) == before
    assert [note.cloze for note in notes] == [False, False, True]
    assert [row[3] for row in log] == [0, 0, 0, 0, 0, 0, 4, 4]  # learning answers, two manual rows
    assert [row[4:6] for row in log[-2:]] == [(3, 2500), (0, 0)]  # set due in 3 days; a Forget
    assert [row[6] is None for row in log] == [False] * 5 + [True, False, False]  # the deleted note's answer
    assert notes[0].deck == "ML::Systems" and notes[0].fields[0] == "What is <b>MFU</b>?"


def test_a_collection_open_in_anki_is_read_with_the_changes_still_in_its_journal(tmp_path: Path) -> None:
    pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")
    from helpers.anki_desk import AnkiDesk

    desk = AnkiDesk(tmp_path / "collection.anki2")
    try:
        note = desk.add_note(["Written just now", "still in the -wal file"])
        desk.answer(desk.cards_of(note.id)[0], 3)
        files = [tmp_path / "collection.anki2", tmp_path / "collection.anki2-wal"]
        before = digest(*files)
        with open_collection(tmp_path / "collection.anki2") as collection:
            assert [read.fields for read in collection.notes()] == [("Written just now", "still in the -wal file")]
            assert [(row.ease, row.note_id) for row in collection.revlog()] == [(3, note.id)]
        assert digest(*files) == before
    finally:
        desk.close()


def test_a_package_through_a_pipe_reads_like_the_file(desk_files, tmp_path: Path) -> None:
    _, files, notes, _ = desk_files
    pipe = tmp_path / "stdin"
    os.mkfifo(pipe)
    writer = threading.Thread(target=lambda: pipe.write_bytes(files["colpkg"].read_bytes()))
    writer.start()
    try:
        with open_collection(pipe) as collection:
            assert (collection.contents, collection.notes()) == ("collection.anki21b", notes)
    finally:
        writer.join()


def test_a_package_drill_wrote_reads_as_its_drill_card_notes(tmp_path: Path, small_paths) -> None:
    from drill.interop.anki_export import export_anki

    export_anki(small_paths, tmp_path / "drill.apkg")
    with open_collection(tmp_path / "drill.apkg") as collection:
        assert collection.contents == "collection.anki2"
        notes = collection.notes()
        assert list(collection.revlog()) == []
    assert [(note.notetype, note.fields[3], note.deck) for note in notes[:2]] == [
        ("drill card", "m-1", "drill::memory"),
        ("drill card", "m-2", "drill::memory"),
    ]


def _package(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def _sqlite(path: Path) -> Path:
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (id INTEGER)")
    return path


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda folder: _package(folder / "x.apkg", {"media": b"{}"}), "a zip archive without an Anki collection"),
        (lambda folder: _package(folder / "x.colpkg", {"collection.anki21b": b"\x28\xb5\x2f\xfd broken"}), "damaged"),
        (lambda folder: _package(folder / "x.apkg", {"collection.anki2": b"not sqlite"}), "damaged"),
        (lambda folder: _sqlite(folder / "x.anki2"), "an SQLite database, but not an Anki collection"),
        (lambda folder: _write(folder / "x.apkg", b"Q: a text file\nA: named .apkg\n"), "not an Anki package"),
        (lambda folder: folder, "a folder without collection.anki2"),
        (lambda folder: folder / "missing.apkg", "cannot read"),
        (lambda folder: _write(folder / "x.colpkg", b"PK\x03\x04 truncated"), "damaged"),
    ],
)
def test_a_file_that_is_no_anki_collection_is_refused_naming_it(tmp_path: Path, make, message: str) -> None:
    source = make(tmp_path)
    with pytest.raises(InteropError) as raised, open_collection(source):
        pass
    assert raised.value.problems[0].startswith(f"{source}")
    assert message in str(raised.value)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_a_review_log_with_a_value_that_is_no_number_is_refused_as_damaged(tmp_path: Path) -> None:
    source = tmp_path / "collection.anki2"
    with sqlite3.connect(source) as connection:
        connection.executescript(
            """CREATE TABLE col (ver, models, decks); INSERT INTO col VALUES (11, '{}', '{}');
            CREATE TABLE notes (id, guid, mid, tags, flds); CREATE TABLE cards (id, nid, did, ord, odid);
            CREATE TABLE revlog (id, cid, ease, time, type); INSERT INTO revlog VALUES ('soon', 1, 3, 0, 0);"""
        )
    with pytest.raises(InteropError, match="damaged Anki collection"), open_collection(source) as collection:
        list(collection.revlog())

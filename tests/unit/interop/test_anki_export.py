"""drill export --anki: the .apkg as genanki writes it, and as the real Anki library imports it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import genanki
import pytest
from helpers.clock import Clock

from drill.content.decks import load_decks
from drill.interop.anki_export import AnkiExportReport, export_anki, to_html
from drill.paths import Paths

USER_DECK = '''
[[item]]
id = "my-own-card"
kind = "card"
block = "compute"
topic = "Cheat sheet: roofline & more"
prompt = "What does <b>this</b> show?"
answer = """Two things:

1. arithmetic intensity
2. the ridge point

```python
print("ridge")
```
"""
source = "my notes"
errata = "The notes say the ridge is **156**; with 2.039 TB/s it is 153."
'''


def shipped_and_user_items(paths: Paths) -> dict:
    return {loaded.item.id: loaded.item for loaded in load_decks(paths.deck_dirs()).items}


@pytest.fixture
def paths(drill_home: Path) -> Paths:
    paths = Paths.resolve()
    paths.user_decks.mkdir(parents=True)
    (paths.user_decks / "mine.toml").write_text(USER_DECK)
    return paths


def notes_in(apkg: Path, folder: Path) -> dict[str, tuple[list[str], set[str]]]:
    """guid → (fields, tags) read straight from the package's collection."""
    with zipfile.ZipFile(apkg) as archive:
        archive.extract("collection.anki2", folder)
    connection = sqlite3.connect(folder / "collection.anki2")
    try:
        rows = connection.execute("SELECT guid, flds, tags FROM notes").fetchall()
    finally:
        connection.close()
    return {guid: (fields.split("\x1f"), set(tags.split())) for guid, fields, tags in rows}


def test_every_card_and_pitch_is_a_note_with_its_guid_fields_and_tags(paths: Paths, tmp_path: Path) -> None:
    items = shipped_and_user_items(paths)
    assert {item.kind for item in items.values()} == {"card", "pitch"}
    target = tmp_path / "out" / "drill.apkg"
    target.parent.mkdir()
    report = export_anki(paths, target)
    notes = notes_in(target, tmp_path / "unzipped")
    assert report.notes == len(notes) == len(items)
    assert set(notes) == {genanki.guid_for(item_id) for item_id in items}
    assert [p.name for p in target.parent.iterdir()] == ["drill.apkg"]  # no temporary file left beside it

    front, back, extra, item_id, source, errata = notes[genanki.guid_for("my-own-card")][0]
    assert item_id == "my-own-card" and source == "my notes"
    assert errata == "<p>The notes say the ridge is <strong>156</strong>; with 2.039 TB/s it is 153.</p>\n"
    assert "156" not in back  # errata is its own field, not part of the answer
    assert "&lt;b&gt;this&lt;/b&gt;" in front and "<b>" not in front  # text, not markup
    assert "<ol>" in back and "<li>arithmetic intensity</li>" in back
    assert '<pre><code class="language-python">print(&quot;ridge&quot;)' in back
    assert extra == ""
    assert notes[genanki.guid_for("my-own-card")][1] == {
        "block::compute",
        "topic::cheat_sheet_roofline_more",
        "kind::card",
    }

    pitch = next(item for item in items.values() if item.kind == "pitch")
    fields, tags = notes[genanki.guid_for(pitch.id)]
    assert f"{pitch.target_seconds} s" in fields[2] and fields[2].count("<li>") == len(pitch.points)
    assert {"kind::pitch", f"block::{pitch.block}"} <= tags
    without_errata = next(item for item in items.values() if not item.errata)
    assert notes[genanki.guid_for(without_errata.id)][0][5] == ""
    assert report.content_errors == []


def test_a_broken_user_deck_is_reported_and_the_rest_exported(paths: Paths, tmp_path: Path) -> None:
    (paths.user_decks / "broken.toml").write_text("[[item]]\nid = \n")
    report = export_anki(paths, tmp_path / "drill.apkg")
    assert [error.path.name for error in report.content_errors] == ["broken.toml"]
    assert report.notes == len(shipped_and_user_items(paths))
    assert any("broken.toml" in line for line in report.lines())


def test_the_real_anki_imports_the_package_and_a_second_export_updates_it(paths: Paths, tmp_path: Path) -> None:
    pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

    items = shipped_and_user_items(paths)
    (tmp_path / "anki").mkdir()
    collection = Collection(str(tmp_path / "anki" / "collection.anki2"))

    def import_package(apkg: Path) -> None:
        options = ImportAnkiPackageOptions(with_scheduling=False, merge_notetypes=True)
        collection.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg), options=options))

    try:
        export_anki(paths, tmp_path / "first.apkg")
        import_package(tmp_path / "first.apkg")
        assert collection.note_count() == len(items)

        grill = items["grill-01"]
        (note_id,) = collection.find_notes("Id:grill-01")
        note = collection.get_note(note_id)
        assert note["Front"] == "<p>Why is attention O(n²) in memory?</p>\n"
        assert note["Errata"] == to_html(grill.errata) and "in memory?" in note["Errata"]  # the seed's damaged wording
        assert note["Back"].count("<li>") == grill.answer.count("\n- ")
        assert "<code>S = QKᵀ/√d</code>" in note["Back"]
        assert set(note.tags) == {"block::memory", "topic::memory", "kind::card"}
        assert collection.decks.name(note.cards()[0].did) == "drill::memory"

        (pitch_id,) = collection.find_notes("Id:pitch-pipeline-parallelism-5m")
        pitch = collection.get_note(pitch_id)
        assert "<pre><code>S0 F1 F2" in pitch["Back"]
        assert "kind::pitch" in pitch.tags and "topic::pipeline_parallelism" in pitch.tags

        export_anki(paths, tmp_path / "second.apkg")
        import_package(tmp_path / "second.apkg")
        assert collection.note_count() == len(items)  # same GUIDs: matched, not added
    finally:
        collection.close()


def test_drill_never_imports_the_anki_library(paths: Paths, tmp_path: Path) -> None:
    """anki is AGPL and test-only: no drill module may load it, exporting included."""
    probe = (
        "import pkgutil, sys, drill\n"
        "for module in pkgutil.walk_packages(drill.__path__, 'drill.'):\n"
        "    if module.name != 'drill.__main__':  # that one runs the app\n"
        "        __import__(module.name)\n"
        "from drill.cli import main\n"
        f"assert main(['export', '--anki', {str(tmp_path / 'x.apkg')!r}]) == 0\n"
        "print('anki' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=600)
    assert result.stdout.strip().splitlines()[-1] == "False"


def test_an_unchanged_re_export_changes_nothing_in_anki_and_an_edit_only_its_note(paths: Paths, tmp_path: Path) -> None:
    pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

    (tmp_path / "anki").mkdir()
    collection = Collection(str(tmp_path / "anki" / "collection.anki2"))
    clock = Clock(datetime.now(UTC) - timedelta(hours=3))  # the exports an hour apart, the last one now

    def export(name: str) -> AnkiExportReport:
        clock.now += timedelta(hours=1)  # each export an hour after the one before
        return export_anki(paths, tmp_path / name, clock=clock)

    def import_package(apkg: Path) -> list[str]:
        """The GUIDs of the notes Anki updated."""
        options = ImportAnkiPackageOptions(with_scheduling=False, merge_notetypes=True)
        result = collection.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg), options=options))
        return [collection.get_note(note.id.nid).guid for note in result.log.updated]

    def stamps() -> tuple[dict[str, tuple[int, int]], tuple[int, int]]:
        """Each note's (modification time, sync number), and the note type's."""
        notetype = collection.models.by_name("drill card")
        notes = {guid: (mod, usn) for guid, mod, usn in collection.db.all("SELECT guid, mod, usn FROM notes")}
        return notes, (notetype["mod"], notetype["usn"])

    try:
        first = export("first.apkg")
        assert (first.new_notes, first.changed_notes, first.unchanged_notes) == (first.notes, 0, 0)
        import_package(tmp_path / "first.apkg")
        (grill,) = collection.find_notes("Id:grill-01")
        edited_in_anki = collection.get_note(grill)
        edited_in_anki["Back"] += "<p>my own words</p>"
        collection.update_note(edited_in_anki)
        before = stamps()

        second = export("second.apkg")
        assert (second.new_notes, second.changed_notes, second.unchanged_notes) == (0, 0, second.notes)
        assert f"since the last export: 0 changed, {second.notes} unchanged, 0 new; " in "\n".join(second.lines())
        assert import_package(tmp_path / "second.apkg") == []
        assert stamps() == before  # nothing to sync
        assert collection.get_note(grill)["Back"].endswith("<p>my own words</p>")  # Anki's edit kept

        deck = paths.user_decks / "mine.toml"
        deck.write_text(deck.read_text().replace("2. the ridge point", "2. the ridge point, where the roofs meet"))
        third = export("third.apkg")
        assert (third.changed_notes, third.unchanged_notes) == (1, third.notes - 1)
        replaced = "importing this package replaces Anki's copies of the 1 changed note, edits made to them in Anki"
        assert f"{replaced} included" in third.lines()
        assert import_package(tmp_path / "third.apkg") == [genanki.guid_for("my-own-card")]
        (mine,) = collection.find_notes("Id:my-own-card")
        assert "where the roofs meet" in collection.get_note(mine)["Back"]
        notes, notetype = stamps()
        assert {guid: stamp for guid, stamp in notes.items() if stamp != before[0][guid]}.keys() == {
            genanki.guid_for("my-own-card")
        }
        assert notetype == before[1]
        assert collection.get_note(grill)["Back"].endswith("<p>my own words</p>")
    finally:
        collection.close()


def test_a_record_drill_cannot_read_counts_every_note_as_changed(paths: Paths, tmp_path: Path) -> None:
    export_anki(paths, tmp_path / "first.apkg")
    record = paths.home / "anki-notes.json"
    record.write_text('{"not": "stamps"')
    report = export_anki(paths, tmp_path / "second.apkg")
    assert report.unreadable_record == record and report.new_notes == report.notes
    assert f"{record} could not be read: every note counts as changed" in report.lines()
    assert export_anki(paths, tmp_path / "third.apkg").unchanged_notes == report.notes  # rewritten whole

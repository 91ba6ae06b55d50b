"""drill → Anki → drill: notes drill exported come back as the same cards (not copies); a note
written in Anki arrives as a new card of a user deck. Uses the real Anki library."""

from __future__ import annotations

from pathlib import Path

import pytest

from drill.content.decks import load_decks
from drill.interop.anki_export import export_anki
from drill.interop.deck_import import import_deck
from drill.paths import Paths


def test_cards_make_the_round_trip_through_anki_without_duplicates(drill_home: Path, tmp_path: Path) -> None:
    pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest, NoteIdsLimit

    paths = Paths.resolve()
    shipped = len(load_decks(paths.deck_dirs()).items)
    export_anki(paths, tmp_path / "drill.apkg")
    collection = Collection(str(tmp_path / "collection.anki2"))
    try:
        options = ImportAnkiPackageOptions(with_scheduling=False, merge_notetypes=True)
        collection.import_anki_package(
            ImportAnkiPackageRequest(package_path=str(tmp_path / "drill.apkg"), options=options)
        )
        note = collection.new_note(collection.models.by_name("Basic"))
        note["Front"], note["Back"] = "Written in Anki?", "Yes: <b>bold</b> there."
        note.tags = ["block::training", "topic::anki_notes"]
        collection.add_note(note, collection.decks.id("Default"))
        collection.export_note_csv(
            out_path=str(tmp_path / "notes.txt"),
            limit=NoteIdsLimit(note_ids=collection.find_notes("")),
            with_html=True,
            with_tags=True,
            with_deck=True,
            with_notetype=True,
            with_guid=True,
        )
    finally:
        collection.close()

    report = import_deck(paths, tmp_path / "notes.txt")
    assert (report.already_in_drill, report.added) == (shipped, 1)
    mine = load_decks([paths.user_decks]).items
    assert [(loaded.item.prompt, loaded.item.answer, loaded.item.block) for loaded in mine] == [
        ("Written in Anki?", "Yes: **bold** there.", "training")
    ]
    assert len(load_decks(paths.deck_dirs()).items) == shipped + 1  # no copy of any drill card

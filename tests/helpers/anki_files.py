"""Anki's own files written by the real Anki library (a test-only, AGPL dependency): a profile
folder holding collection.anki2, and the .apkg and .colpkg Anki exports from it."""

from __future__ import annotations

from pathlib import Path

import pytest


def anki_profile(folder: Path) -> Path:
    """`folder` made an Anki profile folder with a one-note collection, deck.apkg and phone.colpkg."""
    pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")
    from anki.collection import Collection, DeckIdLimit, ExportAnkiPackageOptions

    folder.mkdir()
    collection = Collection(str(folder / "collection.anki2"))
    try:
        note = collection.new_note(collection.models.by_name("Basic"))
        note["Front"], note["Back"] = "q", "a"
        collection.add_note(note, collection.decks.id("Default"))
        options = ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=False, with_media=False)
        limit = DeckIdLimit(deck_id=collection.decks.id("Default"))
        collection.export_anki_package(out_path=str(folder / "deck.apkg"), options=options, limit=limit)
        collection.export_collection_package(str(folder / "phone.colpkg"), include_media=False, legacy=False)
    finally:
        collection.close()
    return folder

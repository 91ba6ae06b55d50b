"""A real Anki collection driven from a test (the `anki` library: AGPL, test-only): notes added,
cards answered as Anki's v3 scheduler answers them, and the collection exported as Anki exports it.
Callers skip first where the library is missing: pytest.importorskip("anki")."""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

EXPORTS = {  # a name for each file Anki writes → (package, legacy)
    "colpkg": ("colpkg", False),  # collection.anki21b (zstd, schema 18)
    "colpkg-legacy": ("colpkg", True),  # collection.anki21 (schema 11)
    "apkg": ("apkg", False),
    "apkg-legacy": ("apkg", True),
}


class AnkiDesk:
    """One collection file, open in the real Anki library."""

    def __init__(self, path: Path) -> None:
        from anki.collection import Collection

        self.path = path
        self.col: Any = Collection(str(path))

    def import_package(self, package: Path, with_scheduling: bool = False) -> None:
        from anki.collection import ImportAnkiPackageOptions, ImportAnkiPackageRequest

        options = ImportAnkiPackageOptions(with_scheduling=with_scheduling, merge_notetypes=True)
        self.col.import_anki_package(ImportAnkiPackageRequest(package_path=str(package), options=options))

    def add_note(
        self, fields: Iterable[str], deck: str = "Default", tags: Iterable[str] = (), notetype: str = "Basic"
    ) -> Any:
        note = self.col.new_note(self.col.models.by_name(notetype))
        for index, value in enumerate(fields):
            note.fields[index] = value
        note.tags = list(tags)
        self.col.add_note(note, self.col.decks.id(deck))
        return note

    def cards_of(self, note_id: int) -> list[int]:
        """The note's card ids, first card first."""
        return [card.id for card in sorted(self.col.get_note(note_id).cards(), key=lambda card: card.ord)]

    def answer(self, card_id: int, ease: int, seconds: float = 0) -> int:
        """Answer the card with button `ease` (1 Again to 4 Easy) now, after `seconds` on it (Anki
        keeps at most a minute); the revlog id Anki wrote."""
        from anki.scheduler_pb2 import CardAnswer

        card = self.col.get_card(card_id)
        card.timer_started = time.time() - seconds
        states = self.col._backend.get_scheduling_states(card.id)
        rating = (CardAnswer.AGAIN, CardAnswer.HARD, CardAnswer.GOOD, CardAnswer.EASY)[ease - 1]
        self.col.sched.answer_card(self.col.sched.build_answer(card=card, states=states, rating=rating))
        return int(self.col.db.scalar("SELECT max(id) FROM revlog WHERE cid = ?", card_id))

    def export(self, target: Path, kind: str) -> Path:
        """Write the collection as `kind` (EXPORTS) to `target`, with scheduling and review log."""
        from anki.collection import Collection, ExportAnkiPackageOptions

        package, legacy = EXPORTS[kind]
        if package == "apkg":
            options = ExportAnkiPackageOptions(
                with_scheduling=True, with_deck_configs=True, with_media=False, legacy=legacy
            )
            self.col.export_anki_package(out_path=str(target), options=options, limit=None)
        else:
            self.col.export_collection_package(str(target), include_media=False, legacy=legacy)
            self.col = Collection(str(self.path))  # exporting a collection package closes it
        return target

    def close(self) -> None:
        self.col.close()

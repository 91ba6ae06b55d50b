"""`drill import FILE.apkg|FILE.colpkg|collection.anki2`: Anki's notes and review log into drill.

- A note drill exported (its GUID is genanki.guid_for(item id), or it is a "drill card" note whose
  Id field names an item) is that item: its reviews come back, nothing else.
- A note written in Anki becomes a card of the user deck `imported-<stem>.toml` (deck_import's
  import_parsed; the file itself is never written), with the id `anki-<guid>` its text export
  would get too, so re-importing updates it in place. Its block comes from a `block::<block>` or
  `<block>` tag, or a `drill::<block>` deck, else `--block`; while any such note names no block
  and no `--block` is given, none is imported as a card. Its topic comes from `topic::` tags,
  else its deck's name (not Default). Cloze notes and notes without two fields are skipped with
  a warning each, the rest import.
- Review-log rows of those notes' first cards become reviews (ease 1–4 → the button, the row's id
  → the time, its time → the duration, at most a day): learning, review and relearning rows count;
  filtered-deck rows (type 3) are cram grades, stored and never replayed into a schedule. Of the
  manual rows (types 4 and 5), a Forget (type 4, leaving interval and factor 0, as Anki logs it)
  is a forget of the item, an event of its history that its replay starts anew from; the others
  (Set due date, FSRS rescheduling) are skipped and counted. All are merged as a history import
  merges (history_csv.merge_reviews): a row already stored (same item, same millisecond) is
  skipped, and each item's schedule is replayed from its whole history.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol

import genanki
from pydantic import Field, computed_field

from drill.content.models import CARD_CHARACTERS
from drill.content.vocabulary import BLOCKS
from drill.interop.anki_export import deck_name
from drill.interop.anki_note import ID_FIELD, MODEL_NAME
from drill.interop.anki_package import AnkiNote, RevlogRow, open_collection
from drill.interop.anki_text import anki_item_id
from drill.interop.cards import ParsedCard, ParsedSource
from drill.interop.deck_import import ImportReport, import_parsed
from drill.interop.errors import SHOWN
from drill.interop.history_csv import HistoryTarget, Progress, merge_reviews
from drill.interop.history_format import EARLIEST, FUTURE_SLACK, LONGEST_REVIEW_MS
from drill.interop.html_text import html_to_text
from drill.paths import Paths
from drill.read_model import ReadModel
from drill.store import review_log
from drill.store.review_log import FORGET_BUTTON, StagedReview, to_ms
from drill.words import counted

FORMAT = "anki-package"
DEFAULT_DECK = "Default"
BUTTONS = range(1, 5)
CRAM_KIND = 3
MANUAL_KINDS = (4, 5)  # manual (Forget, Set due date), rescheduled (FSRS's reschedule)
DRILL_DECKS = {deck_name(block): block for block in BLOCKS}
PROGRESS_ROWS = 10_000  # review-log rows read between two progress reports


class AnkiTarget(HistoryTarget, Protocol):
    """Where an Anki import goes (the study layer passes itself): a history target that also has
    the user's folders and syncs the content files into its store."""

    paths: Paths

    def sync(self) -> object: ...


class AnkiImportReport(ReadModel):
    """What an Anki import found and did; its JSON is what `drill import FILE.apkg --json` prints."""

    KEYS = ("source", "collection", "notes", "rows")

    source: Path
    collection: str  # the collection file read: a package's member, or the collection itself
    notes: int
    rows: int  # review-log rows read
    drill_items: int  # drill's items whose notes came back with reviews
    drill_reviews: int
    card_items: int  # notes written in Anki (cards of a user deck) that came back with reviews
    card_reviews: int
    added: int  # reviews stored (the others were in the store already)
    cram: int  # of the reviews read, filtered-deck rows: stored as cram grades, never replayed
    forgets: int  # Anki's Forget rows (a manual row leaving interval and factor 0): forgets of the item
    forgets_added: int
    manual_skipped: int  # the other manual rows: Set due date, rescheduling
    unimported_skipped: int  # rows of cards not imported: a note's other cards, deleted cards, skipped notes
    unreadable_skipped: int  # rows with a button outside 1-4, or a time before 2000 or after tomorrow
    cards: ImportReport | None = None  # the notes written in Anki, as cards of a user deck
    unblocked_notes: int = 0  # notes written in Anki left out as cards: they name no block
    warnings: list[str] = Field(default_factory=list)  # the first SHOWN notes skipped, and why
    skipped_notes: int = 0

    @computed_field
    @property
    def duplicates(self) -> int:
        """Reviews already in the store (same item, same millisecond), skipped."""
        return self.drill_reviews + self.card_reviews + self.forgets - self.added - self.forgets_added

    def lines(self) -> list[str]:
        new_cards = self.cards.added if self.cards else 0
        lines = [
            f"{self.source} ({self.collection}): {counted(self.notes, 'note')}, {counted(self.rows, 'review-log row')}",
            f"{counted(self.drill_reviews, 'review')} of {counted(self.drill_items, 'drill item')}, "
            f"{counted(new_cards, 'new card')}, "
            f"{counted(self.manual_skipped, 'manual row')} skipped",
        ]
        if self.card_reviews:
            lines.append(
                f"{counted(self.card_reviews, 'review')} of {counted(self.card_items, 'card')} written in Anki"
            )
        if self.forgets:
            lines.append(
                f"{counted(self.forgets, 'Forget')} in Anki, kept as forgets: each item starts anew from there"
            )
        if self.added or self.forgets_added:
            forgets = f" and {counted(self.forgets_added, 'forget')}" if self.forgets_added else ""
            lines.append(
                f"added {counted(self.added, 'review')}{forgets}; "
                "their items' schedules were replayed from their whole history"
            )
        if self.duplicates:
            lines.append(f"skipped {self.duplicates} already in the store (same item and time)")
        if self.cram:
            lines.append(f"{counted(self.cram, 'filtered-deck review')} kept as cram grades: they move no schedule")
        if self.manual_skipped:
            lines.append("manual rows (Set due date, rescheduling in Anki) have no counterpart in drill")
        if self.unimported_skipped:
            lines.append(
                f"skipped {counted(self.unimported_skipped, 'row')} of cards not imported "
                "(a note's second card, deleted cards, skipped notes)"
            )
        if self.unreadable_skipped:
            lines.append(
                f"skipped {counted(self.unreadable_skipped, 'row')} "
                "with no button 1-4 or a time not between 2000 and tomorrow"
            )
        if self.cards:
            lines += self.cards.lines()
        if self.unblocked_notes:
            lines.append(
                f"{counted(self.unblocked_notes, 'note')} written in Anki name no block (a block::<block> tag): "
                f"not imported as cards; pass --block ({', '.join(BLOCKS)}) to import them"
            )
        lines += self.warnings
        if self.skipped_notes > len(self.warnings):
            lines.append(f"… and {counted(self.skipped_notes - len(self.warnings), 'more note')} skipped")
        return lines


def import_anki_package(
    study: AnkiTarget,
    source: Path,
    block: str | None = None,
    topic: str | None = None,
    progress: Progress = lambda _what, _done, _total: None,
) -> AnkiImportReport:
    """Bring the notes and review log of the Anki package, collection or profile folder `source`
    into drill (see the module's docstring); `source` is only read. A file that is no Anki
    collection raises InteropError naming it, and nothing is changed."""
    stored = set(review_log.item_ids(study.engine))
    with open_collection(source) as collection:
        notes = collection.notes()
        sorted_notes = _Sorted.of(notes, stored, source, block)
        cards = None
        if sorted_notes.cards:
            cards = import_parsed(study.paths, source, FORMAT, ParsedSource(sorted_notes.cards), block, topic)
            study.sync()  # the new cards become items, so their reviews have somewhere to go
        reviews = _Reviews(sorted_notes, set(review_log.item_ids(study.engine)), study.clock())
        staged = reviews.staged(collection.revlog(), collection.revlog_rows(), progress)
        merged = merge_reviews(study, staged, progress)
        contents = collection.contents
    return AnkiImportReport(
        source=source,
        collection=contents,
        notes=len(notes),
        rows=reviews.rows,
        drill_items=len(reviews.drill_items),
        drill_reviews=reviews.counts["drill"],
        card_items=len(reviews.card_items),
        card_reviews=reviews.counts["card"],
        added=merged.added,
        forgets=reviews.counts["forget"],
        forgets_added=merged.forgets,
        cram=reviews.counts["cram"],
        manual_skipped=reviews.counts["manual"],
        unimported_skipped=reviews.counts["unimported"],
        unreadable_skipped=reviews.counts["unreadable"],
        cards=cards,
        unblocked_notes=sorted_notes.unblocked,
        warnings=sorted_notes.warnings[:SHOWN],
        skipped_notes=len(sorted_notes.warnings),
    )


@dataclass
class _Sorted:
    """A collection's notes sorted out: drill's own (note id → item id), and the others as cards."""

    drill: dict[int, str] = field(default_factory=dict)
    written: dict[int, str] = field(default_factory=dict)  # note id → the card id of a note written in Anki
    taken: set[str] = field(default_factory=set)  # those card ids
    cards: list[ParsedCard] = field(default_factory=list)  # what goes into the user deck
    unblocked: int = 0
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, notes: list[AnkiNote], stored: set[str], source: Path, block: str | None) -> _Sorted:
        exported = {genanki.guid_for(item_id): item_id for item_id in stored}
        result = cls()
        cards: list[ParsedCard] = []
        for note in notes:
            item_id = exported.get(note.guid) or _drill_id(note, stored)
            if item_id:
                result.drill[note.id] = item_id
                continue
            card_id = anki_item_id(note.guid)
            duplicate = card_id in result.taken
            card = f"a second note with GUID {note.guid!r}" if duplicate else _card(note, card_id, stored)
            if isinstance(card, str):
                result.warnings.append(f"{source}: note {note.position}: {card}; skipped")
            else:
                cards.append(card)
                result.taken.add(card_id)
                result.written[note.id] = card_id
        unblocked = [card for card in cards if not card.block] if block is None else []
        if unblocked:  # none goes in, so a re-import without --block leaves the deck as it is
            result.unblocked = len(unblocked)
            result.written = {note_id: card_id for note_id, card_id in result.written.items() if card_id in stored}
        else:
            result.cards = cards
        return result


def _drill_id(note: AnkiNote, stored: set[str]) -> str | None:
    """The item a "drill card" note's Id field names, if drill has it."""
    if note.notetype != MODEL_NAME or len(note.fields) <= ID_FIELD:
        return None
    item_id = html_to_text(note.fields[ID_FIELD]).strip()
    return item_id if item_id in stored else None


def _card(note: AnkiNote, card_id: str, stored: set[str]) -> ParsedCard | str:
    """A note written in Anki as the card `card_id`, or why it cannot be one."""
    if note.cloze:
        return f"a cloze note ({note.notetype}); only front/back notes import"
    if len(note.fields) < 2:
        return "a note needs a question field and an answer field"
    prompt, answer = html_to_text(note.fields[0]), html_to_text(note.fields[1])
    for side, text in (("question", prompt), ("answer", answer)):
        if not text:
            return f"empty {side}"
        if len(text) > CARD_CHARACTERS:
            return f"the {side} has {len(text):,} characters; a card holds at most {CARD_CHARACTERS:,}"
    blocks = {name for tag in note.tags if (name := tag.lower().removeprefix("block::")) in BLOCKS}
    blocks |= {DRILL_DECKS[note.deck]} if note.deck in DRILL_DECKS else set()
    if len(blocks) > 1:
        return f"its tags and deck name more than one block: {', '.join(sorted(blocks))}"
    topics = [tag.removeprefix("topic::").replace("_", " ") for tag in note.tags if tag.startswith("topic::")]
    deck_topic = note.deck if note.deck not in (DEFAULT_DECK, "", *DRILL_DECKS) else None
    return ParsedCard(
        card_id,
        prompt,
        answer,
        note.position,
        next(iter(blocks), None),
        ", ".join(topics) or deck_topic,
        from_drill=card_id in stored,  # imported before, perhaps from another file: that card stays
    )


class _Reviews:
    """Review-log rows to staged reviews of the items their notes are, counted by what became of them."""

    def __init__(self, notes: _Sorted, items: set[str], now: datetime) -> None:
        self.notes = notes
        self.items = items  # the store's items, once the new cards are in
        self.earliest, self.latest = to_ms(EARLIEST), to_ms(now + FUTURE_SLACK)
        self.counts: Counter[str] = Counter()
        self.drill_items: set[str] = set()
        self.card_items: set[str] = set()
        self.rows = 0

    def staged(self, rows: Iterable[RevlogRow], total: int, progress: Progress) -> Iterator[StagedReview]:
        for row in rows:
            self.rows += 1
            review = self._review(row)
            if review is not None:
                yield review
            if self.rows % PROGRESS_ROWS == 0:
                progress("reading", self.rows, total)
        progress("reading", self.rows, total)

    def _review(self, row: RevlogRow) -> StagedReview | None:
        forget = row.kind == MANUAL_KINDS[0] and row.ease == row.interval == row.factor == 0
        if (row.kind in MANUAL_KINDS or row.ease == 0) and not forget:
            self.counts["manual"] += 1
            return None
        note_id = row.note_id if row.first_card else None
        drill_id = self.notes.drill.get(note_id) if note_id is not None else None
        item_id = drill_id or (self.notes.written.get(note_id) if note_id is not None else None)
        if item_id is None or item_id not in self.items:
            self.counts["unimported"] += 1
            return None
        if not (forget or row.ease in BUTTONS) or not self.earliest <= row.ms <= self.latest:
            self.counts["unreadable"] += 1
            return None
        if forget:
            self.counts["forget"] += 1
            return StagedReview(
                item_id=item_id, ms=row.ms, button=FORGET_BUTTON, duration_ms=0, cram=False, line=self.rows
            )
        if drill_id:
            self.counts["drill"] += 1
            self.drill_items.add(drill_id)
        else:
            self.counts["card"] += 1
            self.card_items.add(item_id)
        cram = row.kind == CRAM_KIND
        self.counts["cram"] += cram
        return StagedReview(
            item_id=item_id,
            ms=row.ms,
            button=row.ease,
            duration_ms=min(max(row.duration_ms, 0), LONGEST_REVIEW_MS),
            cram=cram,
            line=self.rows,
        )

"""Every card and pitch as Anki notes in an .apkg (genanki), rendered from Markdown to HTML.

One note type, "drill card", with fields Front, Back, Notes (a pitch's target time and the
item's checklist points; empty when it has neither), Id, Source and Errata (where the source
notes are wrong; empty for most cards). Notes go to a deck per
block ("drill::memory") and are tagged `block::<block>`, `topic::<topic>` and `kind::<kind>`
(lower case). Each note's GUID is genanki.guid_for(item id), and the note type and deck ids are
fixed numbers derived from their names, so importing a newer export into Anki updates the
notes instead of adding copies. Estimation families and coding drills are not flashcards and
are left out.

Each note carries the time its content last changed (drill.interop.anki_note_times), so an
unchanged re-export changes nothing in Anki; `--with-schedule` adds each card's schedule and
review log (drill.interop.anki_schedule), which Anki takes on a card's first import.
"""

from __future__ import annotations

import errno
import hashlib
import html
import itertools
import json
import os
import re
import shutil
import sqlite3
import tempfile
import zipfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import genanki
from markdown_it import MarkdownIt
from pydantic import Field, computed_field

from drill.content.decks import load_decks
from drill.content.errors import ContentError
from drill.content.models import ContentItem
from drill.content.vocabulary import BLOCKS
from drill.days import utc_now
from drill.interop.anki_note import FIELDS, MODEL_NAME
from drill.interop.anki_note_times import NoteTimes, content_hash
from drill.interop.anki_schedule import ScheduleCounts, Schedules, write_schedules
from drill.interop.atomic import shown, writing
from drill.paths import Paths
from drill.read_model import ReadModel
from drill.words import counted

ROOT_DECK = "drill"
FRONT = '<div class="front">{{Front}}</div>'
BACK = (
    '{{FrontSide}}\n<hr id="answer">\n<div class="back">{{Back}}</div>\n'
    '{{#Notes}}<div class="notes">{{Notes}}</div>{{/Notes}}\n'
    '{{#Errata}}<div class="errata">{{Errata}}</div>{{/Errata}}\n'
    '<div class="source">{{Source}} · {{Id}}</div>'
)
CSS = """.card { font-family: system-ui, sans-serif; font-size: 18px; line-height: 1.45;
  text-align: left; max-width: 46em; margin: 0 auto; color: #222; background: #fff; }
.nightMode.card, .night_mode .card { color: #ddd; background: #1e1e1e; }
pre { background: rgba(127, 127, 127, 0.12); padding: 0.6em 0.8em; overflow-x: auto; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; }
table { border-collapse: collapse; } th, td { border: 1px solid #999; padding: 0.2em 0.5em; }
.notes { margin-top: 1em; padding-top: 0.5em; border-top: 1px dashed #999; }
.errata { margin-top: 1em; font-size: 0.85em; opacity: 0.65; }
.source { margin-top: 1.5em; font-size: 0.75em; opacity: 0.6; }
"""


def stable_id(name: str) -> int:
    """A fixed Anki id for a note type or deck named `name`: 41 bits of its SHA-256 (JS-safe)."""
    return 1 << 40 | int.from_bytes(hashlib.sha256(name.encode()).digest()[:5], "big")


MODEL_ID = stable_id(f"model:{MODEL_NAME}")
MODEL = genanki.Model(
    MODEL_ID,
    MODEL_NAME,
    fields=[{"name": name} for name in FIELDS],
    templates=[{"name": "Card 1", "qfmt": FRONT, "afmt": BACK}],
    css=CSS,
)
MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
UNTAGGABLE = re.compile(r"[^\w.-]+")


def deck_name(block: str) -> str:
    return f"{ROOT_DECK}::{block}"


def tag(prefix: str, value: str) -> str:
    """An Anki tag, lower case (Anki matches tags ignoring case and would merge "KV cache" into
    "KV Cache"); whitespace and anything but word characters, dots and dashes become `_`."""
    return f"{prefix}::" + (UNTAGGABLE.sub("_", value.lower()).strip("_") or "_")


class AnkiExportReport(ReadModel):
    """What an export wrote: notes per deck, how many changed since the last export, the schedules
    it carried (with --with-schedule), and the deck files that could not be read."""

    KEYS = ("path", "notes", "decks")

    path: Path
    notes_by_deck: dict[str, int] = Field(default_factory=dict, serialization_alias="decks")
    new_notes: int = 0  # exported for the first time
    changed_notes: int = 0  # their text changed since the last export: Anki replaces its copies
    unchanged_notes: int = 0  # Anki keeps its copies as they are
    unreadable_record: Path | None = None  # the record of past exports, when it could not be read
    schedules: ScheduleCounts | None = None
    content_errors: list[ContentError] = Field(default_factory=list)

    @computed_field
    @property
    def notes(self) -> int:
        return sum(self.notes_by_deck.values())

    def lines(self) -> list[str]:
        lines = [f"{shown(self.path)}: {self.notes} notes in {len(self.notes_by_deck)} decks"]
        lines += [f"  {name}: {count}" for name, count in self.notes_by_deck.items()]
        lines.append("estimation problems and coding drills are not cards and were not exported")
        if self.unreadable_record is not None:
            lines.append(f"{self.unreadable_record} could not be read: every note counts as changed")
        if self.changed_notes or self.unchanged_notes:
            lines.append(
                f"since the last export: {self.changed_notes} changed, {self.unchanged_notes} unchanged, "
                f"{self.new_notes} new; Anki keeps its copies of the unchanged ones as they are"
            )
        if self.changed_notes:
            lines.append(
                f"importing this package replaces Anki's copies of the {counted(self.changed_notes, 'changed note')}, "
                "edits made to them in Anki included"
            )
        if self.schedules is not None:
            lines.append(
                f"with schedules: {counted(self.schedules.scheduled, 'reviewed card')}, {self.schedules.suspended} "
                f"suspended, {counted(self.schedules.grades, 'review')}; Anki takes them for the cards it adds, "
                'when "Import any learning progress" is ticked'
            )
        lines += [f"skipped (broken deck): {error}" for error in self.content_errors]
        return lines


def to_html(markdown: str) -> str:
    """CommonMark with tables; raw HTML in the text is shown as text, not interpreted."""
    return MARKDOWN.render(markdown)


def _notes_html(item: ContentItem) -> str:
    """A pitch's target time and checklist (any item's points), as HTML; empty when it has neither."""
    parts = []
    if item.target_seconds:
        parts.append(f"<p><b>Target:</b> {item.target_seconds} s</p>")
    if item.points:
        parts.append(to_html("\n".join(f"- {point}" for point in item.points)))
    return "".join(parts)


def _note(item: ContentItem) -> genanki.Note:
    return genanki.Note(
        model=MODEL,
        fields=[
            to_html(item.prompt),
            to_html(item.answer),
            _notes_html(item),
            item.id,
            html.escape(item.source),
            to_html(item.errata) if item.errata else "",
        ],
        guid=genanki.guid_for(item.id),
        tags=[tag("block", item.block), tag("topic", item.topic), tag("kind", item.kind)],
    )


def _note_digest(note: genanki.Note) -> str:
    return content_hash(str(note.model.model_id), *note.fields, *sorted(note.tags))


MODEL_DIGEST = content_hash(MODEL_NAME, *FIELDS, FRONT, BACK, CSS)


def _collection(
    folder: Path, package: genanki.Package, times: NoteTimes, items_by_guid: dict[str, str], schedules: Schedules | None
) -> tuple[Path, ScheduleCounts | None]:
    """The package's collection written in `folder` (genanki's, with each note's and the note
    type's modification time from `times`, and the cards' `schedules` if given)."""
    collection = folder / "collection.anki2"
    connection = sqlite3.connect(collection)
    try:
        package.write_to_db(connection.cursor(), times.now, itertools.count(times.now * 1000))
        for deck in package.decks:
            connection.executemany(
                "UPDATE notes SET mod = ? WHERE guid = ?",
                [(times.stamp(note.guid, _note_digest(note)), note.guid) for note in deck.notes],
            )
        (models,) = connection.execute("SELECT models FROM col").fetchone()
        models = json.loads(models)
        models[str(MODEL_ID)]["mod"] = times.stamp(f"notetype:{MODEL_ID}", MODEL_DIGEST, counted=False)
        connection.execute("UPDATE col SET models = ?", (json.dumps(models),))
        counts = None if schedules is None else write_schedules(connection, schedules, items_by_guid)
        connection.commit()
    except sqlite3.OperationalError as error:
        if error.sqlite_errorcode != sqlite3.SQLITE_FULL:
            raise
        raise OSError(errno.ENOSPC, f"{os.strerror(errno.ENOSPC)} in {folder}", str(collection)) from None
    finally:
        connection.close()
    return collection, counts


def export_anki(
    paths: Paths, target: Path, schedules: Schedules | None = None, clock: Callable[[], datetime] = utc_now
) -> AnkiExportReport:
    """Write every card and pitch of the shipped and user decks to `target` (an .apkg file, a
    stream or `-`: drill.interop.atomic), each note stamped with the time its content last changed
    (the record of past exports updated afterwards; `clock` says when now is), with the cards'
    `schedules` if given."""
    load = load_decks(paths.deck_dirs())
    decks = {block: genanki.Deck(stable_id(f"deck:{deck_name(block)}"), deck_name(block)) for block in BLOCKS}
    items_by_guid = {}
    for loaded in load.items:
        note = _note(loaded.item)
        decks[loaded.item.block].add_note(note)
        items_by_guid[note.guid] = loaded.item.id
    used = [deck for deck in decks.values() if deck.notes]
    times = NoteTimes.load(paths.home, int(clock().timestamp()))
    with tempfile.TemporaryDirectory() as folder:
        collection, counts = _collection(Path(folder), genanki.Package(used), times, items_by_guid, schedules)
        package = Path(folder) / "package.apkg"
        with zipfile.ZipFile(package, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(collection, "collection.anki2")
            archive.writestr("media", "{}")
        with writing(target) as out, package.open("rb") as written:
            shutil.copyfileobj(written, out)
    times.save()
    return AnkiExportReport(
        path=target,
        notes_by_deck={deck.name: len(deck.notes) for deck in used},
        new_notes=times.new,
        changed_notes=times.changed,
        unchanged_notes=times.unchanged,
        unreadable_record=times.path if times.unreadable else None,
        schedules=counts,
        content_errors=load.errors,
    )

"""Every card and pitch as Anki notes in an .apkg (genanki), rendered from Markdown to HTML.

One note type, "drill card", with fields Front, Back, Notes (a pitch's target time and the
item's checklist points; empty when it has neither), Id, Source and Errata (where the source
notes are wrong; empty for most cards). Notes go to a deck per
block ("drill::memory") and are tagged `block::<block>`, `topic::<topic>` and `kind::<kind>`
(lower case). Each note's GUID is genanki.guid_for(item id), and the note type and deck ids are
fixed numbers derived from their names, so importing a newer export into Anki updates the
notes instead of adding copies. Estimation families and coding drills are not flashcards and
are left out.
"""

from __future__ import annotations

import errno
import hashlib
import html
import itertools
import os
import re
import sqlite3
import tempfile
import time
import zipfile
from pathlib import Path

import genanki
from markdown_it import MarkdownIt
from pydantic import Field, computed_field

from drill.content.decks import load_decks
from drill.content.errors import ContentError
from drill.content.models import ContentItem
from drill.content.vocabulary import BLOCKS
from drill.interop.anki_note import FIELDS, MODEL_NAME
from drill.interop.atomic import replacing
from drill.paths import Paths
from drill.read_model import ReadModel

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
    """What an export wrote: notes per deck, and the deck files that could not be read."""

    KEYS = ("path", "notes", "decks")

    path: Path
    notes_by_deck: dict[str, int] = Field(default_factory=dict, serialization_alias="decks")
    content_errors: list[ContentError] = Field(default_factory=list)

    @computed_field
    @property
    def notes(self) -> int:
        return sum(self.notes_by_deck.values())

    def lines(self) -> list[str]:
        lines = [f"{self.path}: {self.notes} notes in {len(self.notes_by_deck)} decks"]
        lines += [f"  {name}: {count}" for name, count in self.notes_by_deck.items()]
        lines.append("estimation problems and coding drills are not cards and were not exported")
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


def _write_package(package: genanki.Package, target: Path) -> None:
    """Package.write_to_file, but with its temporary collection removed afterwards
    (genanki leaves it behind in the system temp folder)."""
    with tempfile.TemporaryDirectory() as folder:
        collection = Path(folder) / "collection.anki2"
        connection = sqlite3.connect(collection)
        try:
            timestamp = time.time()
            package.write_to_db(connection.cursor(), timestamp, itertools.count(int(timestamp * 1000)))
            connection.commit()
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode != sqlite3.SQLITE_FULL:
                raise
            raise OSError(errno.ENOSPC, f"{os.strerror(errno.ENOSPC)} in {folder}", str(collection)) from None
        finally:
            connection.close()
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(collection, "collection.anki2")
            archive.writestr("media", "{}")


def export_anki(paths: Paths, target: Path) -> AnkiExportReport:
    """Write every card and pitch of the shipped and user decks to `target` (.apkg)."""
    load = load_decks(paths.deck_dirs())
    decks = {block: genanki.Deck(stable_id(f"deck:{deck_name(block)}"), deck_name(block)) for block in BLOCKS}
    for loaded in load.items:
        decks[loaded.item.block].add_note(_note(loaded.item))
    used = [deck for deck in decks.values() if deck.notes]
    with replacing(target) as temporary:
        _write_package(genanki.Package(used), temporary)
    return AnkiExportReport(
        path=target, notes_by_deck={deck.name: len(deck.notes) for deck in used}, content_errors=load.errors
    )

"""`drill import FILE`: a Markdown deck or an Anki text export becomes a user deck under DRILL_HOME.

All or nothing: the whole file is parsed and checked first, and any bad row stops the import
with every problem as `path:line: message` and nothing written. Otherwise the deck is staged
and loaded back with the real loader, new ids are written into the source (temp file and
os.replace), and the staged deck replaces `imported-<stem>.toml` (os.replace). Ids stay the
same on every re-import, so the next sync treats edited text as an edit and keeps the reviews.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from drill.content.decks import load_decks
from drill.content.errors import ContentError
from drill.content.models import CARD_CHARACTERS, ContentItem, DeckItem
from drill.content.vocabulary import BLOCKS
from drill.interop.anki_text import parse_anki_text
from drill.interop.cards import ParsedCard, ParsedSource
from drill.interop.deck_toml import imported_from, render_deck
from drill.interop.errors import InteropError
from drill.interop.markdown_deck import parse_markdown
from drill.interop.textfile import LINE_LIMIT, read_source, replace_source
from drill.paths import Paths
from drill.read_model import ReadModel

PARSERS: dict[str, Callable[[str, Path], ParsedSource]] = {"markdown": parse_markdown, "anki": parse_anki_text}
ANKI_HEADER = re.compile(r"^#(separator|html|columns|tags|notetype|deck|(guid|notetype|deck|tags) column):", re.I)


class ImportReport(ReadModel):
    """What an import changed in the user deck (counted against the deck's previous version); its JSON
    is what `drill import --json` prints."""

    source: Path
    deck: Path
    format: str
    added: int
    updated: int
    unchanged: int
    removed: int
    ids_written: int
    already_in_drill: int = 0  # notes drill exported whose card drill still has: left as they are

    def lines(self) -> list[str]:
        lines = [
            f"{self.source} ({self.format}) → {self.deck}",
            f"{self.added} added, {self.updated} updated, {self.unchanged} unchanged, {self.removed} removed",
        ]
        if self.already_in_drill:
            lines.append(f"{self.already_in_drill} card(s) exported from drill and still in it: left as they are")
        if self.ids_written:
            lines.append(f"{self.ids_written} new id(s) written into {self.source}")
        return lines


def detect_format(source: Path, text: str) -> str | None:
    """`markdown` for .md/.markdown or Q: lines; `anki` for .txt/.csv/.tsv with Anki headers or tabs, or any .csv."""
    suffix = source.suffix.lower()
    if suffix in (".md", ".markdown"):
        return "markdown"
    header = [line for line in text.split("\n", 50)[:50] if line.startswith("#")]
    if suffix in (".txt", ".csv", ".tsv") and (suffix == ".csv" or "\t" in text or any(map(ANKI_HEADER.match, header))):
        return "anki"
    return "markdown" if re.search(r"^Q:", text, re.M) else None


def deck_path(paths: Paths, source: Path) -> Path:
    slug = re.sub(r"\W+", "-", source.stem.lower()).strip("-_") or "deck"
    return paths.user_decks / f"imported-{slug}.toml"


def _items(
    cards: list[ParsedCard], source: Path, block: str | None, topic: str | None
) -> tuple[list[DeckItem], list[ContentError]]:
    """Deck items for the cards: a row's own block and topic first, then the options, then the file name."""
    if block is None and not any(card.block for card in cards):
        return [], [ContentError(source, cards[0].line, f"no card names a block: pass --block ({', '.join(BLOCKS)})")]
    items, errors = [], []
    for card in cards:
        long_sides = [
            (side, len(text))
            for side, text in (("question", card.prompt), ("answer", card.answer))
            if len(text) > CARD_CHARACTERS
        ]
        if long_sides:
            errors += [
                ContentError(
                    source,
                    card.line,
                    f"the {side} has {length:,} characters; an imported card's "
                    f"question and answer hold at most {CARD_CHARACTERS:,} each",
                )
                for side, length in long_sides
            ]
            continue
        if not (card.block or block):
            message = f"no block for this card: pass --block or tag it with one of {', '.join(BLOCKS)}"
            errors.append(ContentError(source, card.line, message))
            continue
        try:
            items.append(
                DeckItem.model_validate(
                    {
                        "id": card.id,
                        "kind": "card",
                        "block": card.block or block,
                        "topic": card.topic or topic or source.stem,
                        "prompt": card.prompt,
                        "answer": card.answer,
                        "source": f"imported from {source.name}",
                    }
                )
            )
        except ValidationError as error:
            errors += [
                ContentError(source, card.line, f"{detail['loc'][0]}: {detail['msg']}") for detail in error.errors()
            ]
    return items, errors


@dataclass(frozen=True)
class _Decks:
    """The user deck a source fills, the items it holds now, and which deck holds every other id."""

    target: Path
    previous: dict[str, ContentItem]
    others: dict[str, str]

    @classmethod
    def read(cls, paths: Paths, source: Path) -> _Decks:
        target = deck_path(paths, source)
        load = load_decks(paths.deck_dirs())
        previous = {loaded.item.id: loaded.item for loaded in load.items if Path(loaded.deck) == target}
        others = {loaded.item.id: loaded.deck for loaded in load.items if Path(loaded.deck) != target}
        return cls(target, previous, others)

    def conflicts(self, cards: list[ParsedCard], source: Path) -> list[ContentError]:
        """Ids another deck already uses; and this deck when another file filled it (one sharing no
        card with this file: not this file moved)."""
        errors = [
            ContentError(source, card.line, f"id `{card.id}` already belongs to a card in {self.others[card.id]}")
            for card in cards
            if card.id in self.others
        ]
        filled_by = None
        if self.target.exists():
            with self.target.open(encoding="utf-8", errors="replace") as deck:
                filled_by = imported_from(deck.readline(LINE_LIMIT))
        moved = any(card.id in self.previous for card in cards)
        if filled_by is not None and Path(filled_by) != source.resolve() and not moved:
            errors.append(
                ContentError(
                    source,
                    1,
                    f"{self.target} holds the cards imported from {filled_by}; "
                    "rename this file to import it as a deck of its own",
                )
            )
        return errors

    def report(
        self, source: Path, kind: str, items: list[DeckItem], ids_written: int, already_in_drill: int
    ) -> ImportReport:
        now = {item.id for item in items}
        return ImportReport(
            source=source,
            deck=self.target,
            format=kind,
            added=len(now - set(self.previous)),
            updated=sum(item.id in self.previous and self.previous[item.id] != item for item in items),
            unchanged=sum(self.previous.get(item.id) == item for item in items),
            removed=len(set(self.previous) - now),
            ids_written=ids_written,
            already_in_drill=already_in_drill,
        )


def import_deck(paths: Paths, source: Path, block: str | None = None, topic: str | None = None) -> ImportReport:
    """Import `source` into its user deck, or raise InteropError listing every bad row and change nothing."""
    original = read_source(source)
    kind = detect_format(source, original.text)
    if kind is None:
        raise InteropError(
            [f"{source}:1: neither a Markdown deck (.md, Q:/A: blocks) nor an Anki text export (.txt/.csv/.tsv)"]
        )
    parsed = PARSERS[kind](original.text, source)
    decks = _Decks.read(paths, source)
    # A note drill exported, coming back while drill still has its card elsewhere, stays that card.
    cards = [card for card in parsed.cards if not (card.from_drill and card.id in decks.others)]
    already_in_drill = len(parsed.cards) - len(cards)
    items, errors = _items(cards, source, block, topic) if cards else ([], [])
    errors += parsed.errors + decks.conflicts(cards, source)
    if not parsed.cards and not errors:
        errors.append(ContentError(source, 1, "no cards found"))
    if errors:
        raise InteropError([str(error) for error in sorted(errors, key=lambda error: error.line)])
    if not cards:
        return decks.report(source, kind, [], 0, already_in_drill)
    paths.ensure()
    try:
        with tempfile.TemporaryDirectory(dir=paths.user_decks, prefix=".import-") as staging:
            staged = Path(staging) / decks.target.name
            staged.write_text(render_deck(items, str(source.resolve())), encoding="utf-8")
            _check_loads(staged, items, decks.target)
            if parsed.rewritten is not None:
                replace_source(source, original, parsed.rewritten)
            os.replace(staged, decks.target)
    except OSError as error:  # a full disk, say: the deck is left as it was
        raise InteropError([f"{decks.target}: cannot write: {error.strerror or error}"]) from None
    return decks.report(source, kind, items, parsed.new_ids, already_in_drill)


def _check_loads(staged: Path, items: list[DeckItem], target: Path) -> None:
    """The staged deck must load with the real loader and give back exactly `items`."""
    load = load_decks([staged.parent])
    if load.errors or [loaded.item for loaded in load.items] != items:
        problems = [f"{target}:{error.line}: {error.message}" for error in load.errors]
        raise InteropError(problems or [f"{target}: the written deck does not read back as imported"])

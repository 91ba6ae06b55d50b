"""`drill import FILE`: a Markdown deck or an Anki text export becomes a user deck under
DRILL_HOME; the file itself is only read.

All or nothing: the whole file is parsed and checked first, and any bad row stops the import
with every problem as `path:line: message` and nothing written; a card the format's owner would
read but drill cannot (an Anki cloze note) is skipped with a warning while the rest imports.
Each card gets its id from drill.interop.stable_ids: the id the file holds, else the one drill's
own record of the file (the user deck of the last import) gives the same card, so re-importing
an edited file updates its cards in place and keeps their reviews. The deck is staged, loaded
back with the real loader, and replaces `imported-<name>.toml` (os.replace). With `--write-ids`
the ids also go into the file (a temporary file and os.replace), for those who want them there.

`-` is stdin (read once; its deck is named after --topic, else `stdin`); drill.interop.deck_format
tells the formats apart and hands Anki's own files to drill.interop.anki_import.
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
from drill.interop.deck_format import FORMATS, detect_format, read_deck
from drill.interop.deck_toml import imported_from, render_deck
from drill.interop.errors import InteropError
from drill.interop.markdown_deck import obsidian_line, parse_markdown
from drill.interop.stable_ids import assign_ids
from drill.interop.textfile import (
    LINE_LIMIT,
    STDIN,
    SourceText,
    decode_source,
    is_stream,
    replace_source,
)
from drill.paths import Paths
from drill.read_model import ReadModel
from drill.words import counted

PARSERS: dict[str, Callable[[str, Path], ParsedSource]] = {"markdown": parse_markdown, "anki": parse_anki_text}
ID_PREFIXES = {"markdown": "md", "anki": "anki"}


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
    warnings: list[str] = []  # cards skipped, text changed: `path:line: message`

    def lines(self) -> list[str]:
        lines = [
            f"{self.source} ({self.format}) → {self.deck}",
            f"{self.added} added, {self.updated} updated, {self.unchanged} unchanged, {self.removed} removed",
        ]
        if self.already_in_drill:
            lines.append(
                f"{counted(self.already_in_drill, 'card')} exported from drill and still in it: left as they are"
            )
        if self.ids_written:
            lines.append(f"{counted(self.ids_written, 'new id')} written into {self.source}")
        return lines + self.warnings


def _label(source: Path, topic: str | None) -> str:
    """The name of the source: its file name's stem; for a stream (stdin, a pipe), the topic when
    there is one."""
    name = "stdin" if source == STDIN else source.stem
    return (topic or name) if is_stream(source) else name


def deck_path(paths: Paths, source: Path, topic: str | None = None) -> Path:
    slug = re.sub(r"\W+", "-", _label(source, topic).lower()).strip("-_") or "deck"
    return paths.user_decks / f"imported-{slug}.toml"


def _source_key(source: Path) -> str:
    """How the deck names its source: a stream as it was named (`-`, /dev/stdin), a file by its
    absolute path."""
    return str(source) if is_stream(source) else str(source.resolve())


def _items(
    cards: list[ParsedCard], ids: list[str], source: Path, block: str | None, topic: str
) -> tuple[list[DeckItem], list[ContentError]]:
    """Deck items for the cards: a row's own block and topic first, then the options, then the file name."""
    if block is None and not any(card.block for card in cards):
        return [], [ContentError(source, cards[0].line, f"no card names a block: pass --block ({', '.join(BLOCKS)})")]
    items, errors = [], []
    for card, item_id in zip(cards, ids, strict=True):
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
        fields = {
            "id": item_id,
            "kind": "card",
            "block": card.block or block,
            "topic": card.topic or topic,
            "prompt": card.prompt,
            "answer": card.answer,
            "source": f"imported from {'stdin' if source == STDIN else source.name}",
        }
        try:
            items.append(DeckItem.model_validate(fields | ({"siblings": card.siblings} if card.siblings else {})))
        except ValidationError as error:
            errors += [
                ContentError(source, card.line, f"{detail['loc'][0]}: {detail['msg']}") for detail in error.errors()
            ]
    return items, errors


@dataclass(frozen=True)
class _Decks:
    """The user deck a source fills, the items it holds now (in order), and which deck holds every other id."""

    target: Path
    previous: dict[str, ContentItem]
    others: dict[str, str]

    @classmethod
    def read(cls, target: Path, deck_dirs: list[Path]) -> _Decks:
        load = load_decks(deck_dirs)
        previous = {loaded.item.id: loaded.item for loaded in load.items if Path(loaded.deck) == target}
        others = {loaded.item.id: loaded.deck for loaded in load.items if Path(loaded.deck) != target}
        return cls(target, previous, others)

    def conflicts(self, cards: list[ParsedCard], ids: list[str], source: Path) -> list[ContentError]:
        """Ids another deck already uses; and this deck when another file filled it (one sharing no
        id or question with this file: not this file moved)."""
        errors = [
            ContentError(source, card.line, f"id `{item_id}` already belongs to a card in {self.others[item_id]}")
            for card, item_id in zip(cards, ids, strict=True)
            if item_id in self.others
        ]
        filled_by = None
        if self.target.exists():
            with self.target.open(encoding="utf-8", errors="replace") as deck:
                filled_by = imported_from(deck.readline(LINE_LIMIT))
        questions = {item.prompt for item in self.previous.values()}
        moved = any(card.id in self.previous or card.prompt in questions for card in cards)
        if filled_by is not None and filled_by != _source_key(source) and not moved:
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
        self,
        source: Path,
        kind: str,
        items: list[DeckItem],
        ids_written: int,
        already_in_drill: int,
        warnings: list[str],
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
            warnings=warnings,
        )


def import_deck(
    paths: Paths,
    source: Path,
    block: str | None = None,
    topic: str | None = None,
    *,
    write_ids: bool = False,
    data: bytes | None = None,
) -> ImportReport:
    """Import `source` (`-`: stdin) into its user deck, or raise InteropError listing every bad
    row and change nothing. `data` is its bytes when read already (read_deck)."""
    data = read_deck(source) if data is None else data
    kind = detect_format(source, data)
    if kind == "anki-package":
        raise InteropError([f"{source}: an Anki package or collection, not a text deck; import it from its file"])
    original = decode_source(source, data)
    if kind is None:
        obsidian = obsidian_line(original.text)
        if obsidian is not None:
            raise InteropError([f"{source}:{obsidian}: Obsidian spaced-repetition format is not supported"])
        raise InteropError([f"{source}:1: not a deck drill can import; supported: {FORMATS}"])
    if write_ids and is_stream(source):
        raise InteropError([f"{source}: --write-ids writes the ids into the file: it needs a file, not a stream"])
    parsed = PARSERS[kind](original.text, source)
    return import_parsed(paths, source, kind, parsed, block, topic, write_into=original if write_ids else None)


def import_parsed(
    paths: Paths,
    source: Path,
    kind: str,
    parsed: ParsedSource,
    block: str | None = None,
    topic: str | None = None,
    *,
    write_into: SourceText | None = None,
) -> ImportReport:
    """Put the cards read from `source` (a file of format `kind`) into its user deck
    (`imported-<name>.toml`), giving those without an id a stable one, or raise InteropError
    listing every problem and change nothing. `write_into` is the source's text when the ids go
    into it too (`--write-ids`)."""
    decks = _Decks.read(deck_path(paths, source, topic), paths.deck_dirs())
    slug = decks.target.stem.removeprefix("imported-")
    recorded = list(decks.previous.values())
    all_ids = assign_ids(parsed.cards, recorded, slug, ID_PREFIXES.get(kind, kind), set(decks.others))
    # A note drill exported, coming back while drill still has its card elsewhere, stays that card.
    kept = [
        (card, item_id)
        for card, item_id in zip(parsed.cards, all_ids, strict=True)
        if not (card.from_drill and item_id in decks.others)
    ]
    cards, ids = [card for card, _ in kept], [item_id for _, item_id in kept]
    default_topic = topic or parsed.deck_name or _label(source, None)
    items, errors = _items(cards, ids, source, block, default_topic) if cards else ([], [])
    errors += parsed.errors + decks.conflicts(cards, ids, source)
    if not parsed.cards and not errors:  # the warnings say why, if there are any
        errors += [*parsed.warnings, ContentError(source, 1, "no cards found")]
    if errors:
        raise InteropError([str(error) for error in sorted(errors, key=lambda error: error.line)])
    warnings = [str(warning) for warning in parsed.warnings]
    already_in_drill = len(parsed.cards) - len(cards)
    if not cards:
        return decks.report(source, kind, [], 0, already_in_drill, warnings)
    rewritten = _with_ids(source, parsed, all_ids) if write_into is not None else None
    paths.ensure()
    try:
        with tempfile.TemporaryDirectory(dir=paths.user_decks, prefix=".import-") as staging:
            staged = Path(staging) / decks.target.name
            staged.write_text(render_deck(items, _source_key(source)), encoding="utf-8")
            _check_loads(staged, items, decks.target)
            if rewritten is not None and write_into is not None:
                replace_source(source, write_into, rewritten)
            os.replace(staged, decks.target)
    except OSError as error:  # a full disk, say: the deck is left as it was
        raise InteropError([f"{decks.target}: cannot write: {error.strerror or error}"]) from None
    written = sum(card.id is None and card.siblings is None for card in parsed.cards) if rewritten else 0
    return decks.report(source, kind, items, written, already_in_drill, warnings)


def _with_ids(source: Path, parsed: ParsedSource, ids: list[str]) -> str | None:
    """The source's text with the ids it lacks written in; None when it has them all."""
    if parsed.write_ids is None:
        raise InteropError([f"{source}: --write-ids is for Markdown decks and Anki text exports"])
    return parsed.write_ids(ids)


def _check_loads(staged: Path, items: list[DeckItem], target: Path) -> None:
    """The staged deck must load with the real loader and give back exactly `items`."""
    load = load_decks([staged.parent])
    if load.errors or [loaded.item for loaded in load.items] != items:
        problems = [f"{target}:{error.line}: {error.message}" for error in load.errors]
        raise InteropError(problems or [f"{target}: the written deck does not read back as imported"])

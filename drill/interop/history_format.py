"""The open review-log format FSRS tools read, and a file of it read as a stream of checked rows.

`card_id,review_time,review_rating,review_duration`, one row per stored review (counted
grades and same-day repeats alike) and per forget, oldest first:

- card_id: 53 bits of SHA-256 of the drill item id (`card_id`): stable across machines and
  exports, and exact in a spreadsheet or a JavaScript number. Importing maps it back by
  hashing every item id in the store.
- review_time: Unix time of the review in milliseconds (UTC), from 2000-01-01 to tomorrow.
- review_rating: the button, 1 Again, 2 Hard, 3 Good, 4 Easy (a graded estimate or coding
  drill carries the button its quality maps to; imported, it gets that button's quality); 0 for
  a forget (`drill forget`: the item put back to new), as Anki's revlog rates its manual rows
  and FSRS tools skip them. Imported, a forget is an event of the item's history: replaying it
  starts the schedule again from new, so reviews from before it never undo it.
- review_duration: milliseconds spent on the review, 0 to a day (empty reads 0); 0 for a forget
  (and not kept when imported).
- cram (drill's own, optional on import): 1 for a grade given in a cram, review-ahead or weakest
  session that kept the item's schedule; imported, it is stored as such and never replayed into a
  schedule. A cram grade that rescheduled is written as an ordinary review (0), and so is a forget.

Reading holds one line at a time (none longer than textfile.LINE_LIMIT) and keeps only the
first few problems (errors.SHOWN) and a count of the rest, whatever the size of the file.
"""

from __future__ import annotations

import csv
import hashlib
import math
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import BinaryIO

from drill.interop.errors import SHOWN, InteropError
from drill.interop.textfile import LINE_LIMIT, stream_lines
from drill.schedule.sm2 import BUTTON_QUALITY
from drill.store.review_log import FORGET_BUTTON, StagedReview, to_ms
from drill.words import counted

COLUMNS = ("card_id", "review_time", "review_rating", "review_duration")
CRAM = "cram"  # drill's extra column, written always, read when present
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
FUTURE_SLACK = timedelta(days=1)
CARD_IDS = 2**53  # card ids are below this
LONGEST_REVIEW_MS = 86_400_000  # a day: a longer duration is not one review
INTEGER = re.compile(r"-?[0-9]+")
DIGITS = 18  # an integer with more digits is out of every range here, and is never converted
SHOWN_CHARACTERS = 30  # of a bad value, quoted in its problem
RATINGS = {FORGET_BUTTON, *BUTTON_QUALITY}


def card_id(item_id: str) -> int:
    """The review log's card id for a drill item: the top 53 bits of SHA-256(item id)."""
    return int.from_bytes(hashlib.sha256(item_id.encode()).digest()[:7], "big") >> 3


class Problems:
    """The `path:line: message` problems of one file, found in line order: the first SHOWN kept, all counted."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.shown: list[str] = []
        self.count = 0

    def add(self, line: int, message: str) -> None:
        self.count += 1
        if len(self.shown) < SHOWN:
            self.shown.append(f"{self.path}:{line}: {message}")

    def raise_any(self) -> None:
        if self.count:
            raise InteropError(self.shown, self.count)


def _integer(text: str) -> int | float | None:
    """`text` as an integer (±infinity when it has too many digits to be in range), None when it is none."""
    if text.isascii() and text.isdigit() and len(text) <= DIGITS:  # the usual case, first
        return int(text)
    text = text.strip()
    if not INTEGER.fullmatch(text):
        return None
    if len(text.lstrip("-")) > DIGITS:
        return -math.inf if text.startswith("-") else math.inf
    return int(text)


def _shown(text: str, quoted: bool = True) -> str:
    """A bad value as its problem shows it (an integer unquoted): cut short when long."""
    shown = repr if quoted else str
    if len(text) <= SHOWN_CHARACTERS:
        return shown(text)
    return f"{shown(text[:SHOWN_CHARACTERS])}… ({len(text)} characters)"


class _Checker:
    """One data row's values to a StagedReview, or its problems."""

    def __init__(self, items: dict[int, str], now: datetime, problems: Problems) -> None:
        self.items = items
        self.earliest, self.latest = to_ms(EARLIEST), to_ms(now + FUTURE_SLACK)
        self.problems = problems

    def row(
        self, line: int, card_text: str, time_text: str, rating_text: str, duration_text: str, cram_text: str
    ) -> StagedReview | None:
        count = self.problems.count
        add = self.problems.add
        card, milliseconds, rating = _integer(card_text), _integer(time_text), _integer(rating_text)
        duration = _integer(duration_text.strip() or "0")  # an empty duration is 0
        cram = cram_text.strip() or "0"
        if card is None:
            add(line, f"card_id must be an integer, not {_shown(card_text)}")
        elif not 0 <= card < CARD_IDS:
            add(
                line,
                f"card_id {_shown(card_text.strip(), quoted=False)} is out of range (0 to 2^53 - 1; "
                "card ids come from `drill export --history`)",
            )
        elif card not in self.items:
            add(line, f"card_id {card} matches no drill item (card ids come from `drill export --history`)")
        if milliseconds is None:
            add(line, f"review_time must be an integer (Unix time in milliseconds), not {_shown(time_text)}")
        elif not self.earliest <= milliseconds <= self.latest:
            add(
                line,
                f"review_time {_shown(time_text.strip(), quoted=False)} is not between 2000-01-01 and tomorrow "
                "(it is Unix time in milliseconds)",
            )
        if rating not in RATINGS:
            add(line, f"review_rating must be 1, 2, 3 or 4, not {_shown(rating_text)} (or 0: a forget)")
        if duration is None or not 0 <= duration <= LONGEST_REVIEW_MS:
            add(
                line,
                f"review_duration must be whole milliseconds from 0 to {LONGEST_REVIEW_MS} (a day), "
                f"not {_shown(duration_text)}",
            )
        if cram not in ("0", "1"):
            add(line, f"cram must be 0 or 1, not {_shown(cram_text)}")
        elif cram == "1" and rating == FORGET_BUTTON:
            add(line, "a forget (review_rating 0) is no cram grade: its cram must be 0")
        if self.problems.count > count:
            return None
        # nothing was wrong, so each value read as a whole number in range (one out of range read as ±inf)
        assert isinstance(card, int) and isinstance(milliseconds, int) and isinstance(rating, int)
        assert isinstance(duration, int)
        return StagedReview(self.items[card], milliseconds, rating, duration, cram == "1", line)


def _readable(path: Path, lines: Iterator[str]) -> Iterator[str]:
    """`lines`, a failure to read them raised as InteropError naming the file and the line."""
    number = 0
    while True:
        try:
            line = next(lines)
        except StopIteration:
            return
        except OSError as error:
            raise InteropError([f"{path}:{number + 1}: cannot read: {error.strerror or error}"]) from None
        number += 1
        yield line


def read_reviews(
    path: Path, handle: BinaryIO, items: dict[int, str], now: datetime, problems: Problems
) -> Iterator[StagedReview | None]:
    """Each data row of the file in order, for card ids in `items` (card id → item id): a good one
    as a StagedReview (a forget with the button FORGET_BUTTON), a bad one as None after adding its
    problems. A file whose header lacks a column, or that cannot be read, raises InteropError."""
    reader = csv.reader(
        _readable(
            path,
            stream_lines(
                path,
                handle,
                lambda line: problems.add(
                    line, f"a line over {LINE_LIMIT} bytes (a review-log row is a few numbers); not read"
                ),
            ),
        )
    )
    header = next(reader, None)
    if header is None:
        raise InteropError([f"{path}:1: empty file: expected the header {','.join(COLUMNS)}"])
    position = {name.strip().lower(): index for index, name in enumerate(header)}
    missing = [name for name in COLUMNS if name not in position]
    if missing:
        needs = f"it needs {','.join(COLUMNS)}, in any order"
        raise InteropError([f"{path}:1: the header lacks {', '.join(missing)} ({needs})"])
    card, moment, rating, duration = (position[name] for name in COLUMNS)
    cram = position.get(CRAM)
    needed = max(card, moment, rating, duration) + 1
    checker = _Checker(items, now, problems)
    while True:
        try:
            values = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            problems.add(reader.line_num, f"bad CSV: {error}")
            yield None
            continue
        line = reader.line_num
        if len(values) < needed or not values[card].strip():
            if not any(value.strip() for value in values):
                continue  # a blank row
            if len(values) < needed:
                problems.add(line, f"{counted(len(values), 'column')}, but the header names {len(header)}")
                yield None
                continue
        yield checker.row(
            line,
            values[card],
            values[moment],
            values[rating],
            values[duration],
            values[cram] if cram is not None and cram < len(values) else "0",
        )

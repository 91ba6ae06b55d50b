"""Review history in the open review-log format FSRS tools read, out of drill and back in.

`card_id,review_time,review_rating,review_duration`, one row per stored review (counted
grades and same-day repeats alike), oldest first:

- card_id: 53 bits of SHA-256 of the drill item id (`card_id`): stable across machines and
  exports, and exact in a spreadsheet or a JavaScript number. Importing maps it back by
  hashing every item id in the store.
- review_time: Unix time of the review in milliseconds (UTC).
- review_rating: the button, 1 Again, 2 Hard, 3 Good, 4 Easy (a graded estimate or coding
  drill carries the button its quality maps to; imported, it gets that button's quality).
- review_duration: milliseconds spent on the review.
- cram (drill's own, optional on import): 1 for a grade given in a cram, review-ahead or weakest
  session that kept the item's schedule; imported, it is stored as such and never replayed into a
  schedule. A cram grade that rescheduled is written as an ordinary review (0).
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from drill.days import study_day
from drill.interop.atomic import replacing
from drill.interop.errors import InteropError
from drill.interop.textfile import read_source
from drill.schedule.sm2 import BUTTON_QUALITY
from drill.store import review_log
from drill.store.reschedule import rebuild_in
from drill.store.transactions import writing

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from drill.config import Config


class HistoryTarget(Protocol):
    """Where imported reviews go (the study layer passes itself): its store, settings and clock."""

    engine: "Engine"
    config: "Config"

    def clock(self) -> datetime: ...

COLUMNS = ("card_id", "review_time", "review_rating", "review_duration")
CRAM = "cram"  # drill's extra column, written always, read when present
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
EARLIEST = datetime(2000, 1, 1, tzinfo=timezone.utc)
MILLISECOND = timedelta(milliseconds=1)
FUTURE_SLACK = timedelta(days=1)
INTEGER = re.compile(r"-?[0-9]+")


def card_id(item_id: str) -> int:
    """The review log's card id for a drill item: the top 53 bits of SHA-256(item id)."""
    return int.from_bytes(hashlib.sha256(item_id.encode()).digest()[:7], "big") >> 3


def to_ms(moment: datetime) -> int:
    return (moment - EPOCH) // MILLISECOND


def from_ms(milliseconds: int) -> datetime:
    return EPOCH + milliseconds * MILLISECOND


def export_history(engine: "Engine", target: Path) -> int:
    """Write every stored review to `target` as CSV, streamed and oldest first; returns the rows."""
    rows = 0
    with replacing(target) as temporary, temporary.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow((*COLUMNS, CRAM))
        for review in review_log.stream_reviews(engine):
            writer.writerow((card_id(review.item_id), to_ms(review.reviewed_at), review.button, review.duration_ms,
                             int(review.cram)))
            rows += 1
    return rows


@dataclass(frozen=True)
class HistoryImportReport:
    """What an import found and did."""

    path: Path
    rows: int  # reviews in the file
    added: int  # reviews stored
    items: int  # items whose schedules were rebuilt

    @property
    def duplicates(self) -> int:
        """Reviews already in the store (same item, same millisecond), skipped."""
        return self.rows - self.added

    def lines(self) -> list[str]:
        lines = [f"{self.path}: {self.rows} review(s) read"]
        if self.added:
            lines.append(f"added {self.added} review(s) to {self.items} item(s); their schedules were replayed "
                         "from their whole history")
        if self.duplicates:
            lines.append(f"skipped {self.duplicates} already in the store (same item and time): "
                         "importing the same file again adds nothing")
        return lines

    def as_json(self) -> dict[str, object]:
        return {"path": str(self.path), "rows": self.rows, "added": self.added,
                "skipped_duplicates": self.duplicates, "items_rebuilt": self.items}


class _Problems:
    """`path:line: message` problems, reported in line order."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.found: list[tuple[int, str]] = []

    def add(self, line: int, message: str) -> None:
        self.found.append((line, message))

    def raise_any(self) -> None:
        if self.found:
            raise InteropError([f"{self.path}:{line}: {message}" for line, message in sorted(self.found)])


def _integer(text: str) -> int | None:
    text = text.strip()
    return int(text) if INTEGER.fullmatch(text) else None


def _read_row(line: int, values: dict[str, str], items: dict[int, str], now: datetime,
              problems: _Problems) -> review_log.LoggedReview | None:
    """One data row checked, or None after adding its problems."""
    count = len(problems.found)
    card, milliseconds, rating = (_integer(values[name]) for name in COLUMNS[:3])
    duration = _integer(values["review_duration"].strip() or "0")  # an empty duration is 0
    cram = values.get(CRAM, "0").strip() or "0"
    if card is None:
        problems.add(line, f"card_id must be an integer, not {values['card_id']!r}")
    elif card not in items:
        problems.add(line, f"card_id {card} matches no drill item (card ids come from `drill export --history`)")
    if milliseconds is None:
        problems.add(line, f"review_time must be an integer (Unix time in milliseconds), not {values['review_time']!r}")
    elif not to_ms(EARLIEST) <= milliseconds <= to_ms(now + FUTURE_SLACK):
        problems.add(line, f"review_time {milliseconds} is not between 2000-01-01 and tomorrow "
                           "(it is Unix time in milliseconds)")
    if rating not in BUTTON_QUALITY:
        problems.add(line, f"review_rating must be 1, 2, 3 or 4, not {values['review_rating']!r}")
    if duration is None or duration < 0:
        problems.add(line, f"review_duration must be whole milliseconds, 0 or more, not {values['review_duration']!r}")
    if cram not in ("0", "1"):
        problems.add(line, f"cram must be 0 or 1, not {values[CRAM]!r}")
    if len(problems.found) > count:
        return None
    return review_log.LoggedReview(items[card], from_ms(milliseconds), rating, duration, cram == "1")


def _parse(path: Path, items: dict[int, str], now: datetime) -> list[review_log.LoggedReview]:
    """Every row of the file checked; InteropError listing every problem if any."""
    problems = _Problems(path)
    reader = csv.reader(io.StringIO(read_source(path).text))
    header = next(reader, None)
    if header is None:
        problems.add(1, f"empty file: expected the header {','.join(COLUMNS)}")
        problems.raise_any()
    position = {name.strip().lower(): index for index, name in enumerate(header)}
    missing = [name for name in COLUMNS if name not in position]
    if missing:
        problems.add(1, f"the header lacks {', '.join(missing)} (it needs {','.join(COLUMNS)}, in any order)")
        problems.raise_any()
    rows = []
    for values in reader:
        line = reader.line_num
        if not any(value.strip() for value in values):
            continue
        if len(values) <= max(position[name] for name in COLUMNS):
            problems.add(line, f"{len(values)} column(s), but the header names {len(header)}")
            continue
        named = (*COLUMNS, CRAM) if CRAM in position and len(values) > position[CRAM] else COLUMNS
        row = _read_row(line, {name: values[position[name]] for name in named}, items, now, problems)
        if row is not None:
            rows.append(row)
    problems.raise_any()
    return rows


def import_history(study: HistoryTarget, path: Path) -> HistoryImportReport:
    """Add the reviews in `path` to the store and replay the schedules of the items they touch.

    The whole file is checked first: any bad row (or a card id no item has) raises InteropError
    and nothing is stored. Reviews already stored (same item, same millisecond) are skipped. The
    reviews and the rebuilt schedules are committed in one transaction.
    """
    items = {card_id(item_id): item_id for item_id in review_log.item_ids(study.engine)}
    rows = _parse(path, items, study.clock())
    rollover = study.config.rollover_hour
    with writing(study.engine) as connection:
        stored = review_log.review_times(connection, {review.item_id for review in rows})
        seen = {(item_id, to_ms(moment)) for item_id, moment in stored}
        new = []
        for review in rows:
            key = (review.item_id, to_ms(review.reviewed_at))
            if key not in seen:
                seen.add(key)
                new.append((review, study_day(review.reviewed_at, rollover), BUTTON_QUALITY[review.button]))
        review_log.insert_reviews(connection, new)
        rebuilt = rebuild_in(connection, [review.item_id for review, _, _ in new], study.config.scheduler,
                             rewrite_log=True)
    return HistoryImportReport(path, len(rows), len(new), rebuilt)

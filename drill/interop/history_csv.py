"""Review history out of drill and back in, in the open review-log format (history_format).

An import reads its file once, as a stream, and stages every row (review_log.Staging: compact
columns per item in memory, so the store is not locked while the file is read and checked). A
file with any bad row raises InteropError and nothing is stored. Then the staged reviews are
merged a group of items at a time, each group in a short write transaction of its own that reads
the items' histories as they stand then, replays each in memory and writes every new row once,
complete, in batches: grades given in the app meanwhile are merged, never overwritten,
and the app can write between two groups (each but the last is followed by a pause of a tenth of
its time, so a writer waiting on the lock gets it). Reviews already stored (same item, same millisecond)
are skipped, so importing a file again, whole or after an interruption, adds only what is missing.
A forget in the file (rating 0) goes into its item's history the same way, and so does its replay.
`-` reads the file from standard input.
"""

from __future__ import annotations

import codecs
import csv
import os
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Protocol

from pydantic import Field, computed_field

from drill.interop.atomic import writing
from drill.interop.history_format import COLUMNS, CRAM, Problems, card_id, read_reviews
from drill.interop.textfile import open_input
from drill.read_model import ReadModel
from drill.store import review_log
from drill.store.leeches import act_on_imported, standings_of
from drill.store.review_log import to_ms
from drill.words import counted

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from drill.config import Config

Progress = Callable[[str, int, int], None]  # (what is being done, how far, out of how much)
PROGRESS_ROWS = 10_000  # rows checked between two progress reports
GROUP_REVIEWS = 50_000  # staged and stored reviews merged per write transaction (an item is never split)
PAUSE = 0.1  # after each merge transaction, of its time: room for the app's writes


class HistoryTarget(Protocol):
    """Where imported reviews go (the study layer passes itself): its store, settings and clock."""

    engine: Engine
    config: Config

    def clock(self) -> datetime: ...


def export_history(engine: Engine, target: Path) -> int:
    """Write every stored review to `target` (a file, a stream or `-`: drill.interop.atomic) as CSV,
    streamed and oldest first; returns the rows."""
    rows = 0
    with writing(target) as out:
        writer = csv.writer(codecs.getwriter("utf-8")(out), lineterminator="\n")
        writer.writerow((*COLUMNS, CRAM))
        for review in review_log.stream_reviews(engine):
            writer.writerow(
                (
                    card_id(review.item_id),
                    to_ms(review.reviewed_at),
                    review.button,
                    review.duration_ms,
                    int(review.cram),
                )
            )
            rows += 1
    return rows


class HistoryImportReport(ReadModel):
    """What an import found and did; its JSON is what `drill import --history --json` prints."""

    KEYS = ("path", "rows", "added", "forgets_added", "skipped_duplicates")

    path: Path
    rows: int  # reviews (and forgets) in the file
    added: int  # reviews stored
    items: int = Field(serialization_alias="items_rebuilt")  # items whose schedules were rebuilt
    forgets: int = Field(default=0, serialization_alias="forgets_added")  # forgets stored

    @computed_field(alias="skipped_duplicates")
    @property
    def duplicates(self) -> int:
        """Reviews and forgets already in the store (same item, same millisecond), skipped."""
        return self.rows - self.added - self.forgets

    def lines(self) -> list[str]:
        lines = [f"{self.path}: {counted(self.rows, 'review')} read"]
        if self.added or self.forgets:
            forgets = f" and {counted(self.forgets, 'forget')}" if self.forgets else ""
            lines.append(
                f"added {counted(self.added, 'review')}{forgets} to {counted(self.items, 'item')}; "
                "their schedules were replayed "
                "from their whole history"
            )
        if self.duplicates:
            lines.append(
                f"skipped {self.duplicates} already in the store (same item and time): "
                "importing the same file again adds nothing"
            )
        return lines


def _silent(_what: str, _done: int, _total: int) -> None:
    pass


def import_history(study: HistoryTarget, path: Path, progress: Progress = _silent) -> HistoryImportReport:
    """Add the reviews and forgets in `path` (`-`: standard input) to the store and replay the
    schedules of the items they touch.

    Any bad row (or a card id no item has) raises InteropError, listing the first problems and
    counting the rest, and nothing is stored; so does a file that cannot be read. Reviews already
    stored (same item, same millisecond) are skipped. `progress` hears how far the check and the
    merge are.
    """
    items = {card_id(item_id): item_id for item_id in review_log.item_ids(study.engine)}
    with open_input(path) as handle, review_log.staging(study.engine) as staging:
        rows = _stage(staging, path, handle, items, study.clock(), progress)
        merged = _merge(study, staging, rows, progress)
    return HistoryImportReport(path=path, rows=rows, added=merged.added, items=merged.items, forgets=merged.forgets)


def merge_reviews(
    study: HistoryTarget, reviews: Iterable[review_log.StagedReview], progress: Progress = _silent
) -> review_log.Merged:
    """Stage `reviews` (already checked: items in the store, buttons 1 to 4) and merge them as
    import_history merges a file's: reviews already stored are skipped, schedules replayed."""
    with review_log.staging(study.engine) as staging:
        rows = 0
        for review in reviews:
            rows += 1
            staging.add(review)
        return _merge(study, staging, rows, progress)


def _merge(study: HistoryTarget, staging: review_log.Staging, rows: int, progress: Progress) -> review_log.Merged:
    """Merge every staged review into the store, a group of items per write transaction, pausing
    between two so the app can write. The items the merge makes leeches are flagged and, under
    leech_action = "suspend", suspended at once, as a review session's are when it ends."""
    added = touched = merged = forgets = 0
    pause = 0.0
    config = study.config
    for ids in staging.groups(GROUP_REVIEWS):
        time.sleep(pause)  # between two transactions: none is needed after the last
        started = time.monotonic()
        with study.engine.connect() as connection:
            before = standings_of(connection, ids)
        group = staging.merge(ids, config.rollover_hour, config.scheduler)
        act_on_imported(study.engine, before, config.leech_threshold, config.leech_action == "suspend")
        added, touched, merged = added + group.added, touched + group.items, merged + group.staged
        forgets += group.forgets
        progress("importing", merged, rows)
        pause = (time.monotonic() - started) * PAUSE
    return review_log.Merged(merged, added, touched, forgets)


def _stage(
    staging: review_log.Staging, path: Path, handle: BinaryIO, items: dict[int, str], now: datetime, progress: Progress
) -> int:
    """Check every row of the file and stage the good ones; returns the rows, or raises InteropError."""
    size = os.fstat(handle.fileno()).st_size if handle.seekable() else 0  # a pipe shows no progress
    problems = Problems(path)
    rows = 0
    for review in read_reviews(path, handle, items, now, problems):
        rows += 1
        if review is not None and not problems.count:  # after a problem, only the checking goes on
            staging.add(review)
        if size and rows % PROGRESS_ROWS == 0:
            progress("checking", handle.tell(), size)
    problems.raise_any()
    progress("checking", size, size)
    return rows

"""Lapses and failed runs, counted from the stored reviews (drill.schedule.leech says what makes a
leech). A lapse is a counted Again on an item that had been learned (repetitions before it > 0).
Each query reads every item, or only `ids` when given (through the review index on item_id)."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Connection, Select, func, select

from drill.schedule.leech import RUN_KINDS, Standing
from drill.store.tables import LAPSE, item, review

AGAIN = 1
# ix_review_lapse's own WHERE, as it stands, so SQLite reads that index.
LAPSES = select(review.c.item_id, func.count()).where(LAPSE).group_by(review.c.item_id)
# Failed tries (every review, repeats included) after the item's last pass, item by item: the
# few estimation families and drills drive it, each reading its own reviews through ix_review_item.
_tried, _passed, _item = review.alias("r"), review.alias("p"), item.alias("i")
_PASSED_SINCE = (
    select(1)
    .where(_passed.c.item_id == _item.c.id, _passed.c.button > AGAIN, _passed.c.reviewed_at > _tried.c.reviewed_at)
    .correlate_except(_passed)
    .exists()
)
_RUN = select(func.count()).where(_tried.c.item_id == _item.c.id, _tried.c.button == AGAIN, ~_PASSED_SINCE)
_RUNS = select(_item.c.id, _RUN.scalar_subquery().label("run")).where(_item.c.kind.in_(RUN_KINDS))
ITEMS = select(item.c.id, item.c.kind, item.c.topic)


def _counted(connection: Connection, query: Select[str, int], ids: Collection[str] | None) -> dict[str, int]:
    """The (id, count) rows of `query` as a dict; none when `ids` is given and empty."""
    return dict(connection.execute(query).all()) if ids is None or ids else {}


def lapse_counts(connection: Connection, ids: Collection[str] | None = None) -> dict[str, int]:
    """Lapses per item (items without any left out)."""
    return _counted(connection, LAPSES if ids is None else LAPSES.where(review.c.item_id.in_(list(ids))), ids)


def failed_runs(connection: Connection, ids: Collection[str] | None = None) -> dict[str, int]:
    """Failed tries since the last pass, per estimation family and coding drill (none: left out)."""
    runs = (_RUNS if ids is None else _RUNS.where(_item.c.id.in_(list(ids)))).subquery("runs")
    return _counted(connection, select(runs.c.id, runs.c.run).where(runs.c.run > 0), ids)


def _standings(
    connection: Connection, ids: Collection[str], lapses: dict[str, int], runs: dict[str, int]
) -> dict[str, Standing]:
    """The standings of `ids` from their counts, with their kind and topic."""
    if not ids:
        return {}
    if len(ids) > 500:  # every item's kind and topic in one pass beats a list of thousands of ids
        items = {row[0]: row[1:] for row in connection.execute(ITEMS)}
    else:
        items = {row[0]: row[1:] for row in connection.execute(ITEMS.where(item.c.id.in_(sorted(ids))))}
    return {
        item_id: Standing(item_id, *items.get(item_id, ("card", "")), lapses.get(item_id, 0), runs.get(item_id, 0))
        for item_id in ids
    }


def standings(connection: Connection, ids: Collection[str] | None = None) -> dict[str, Standing]:
    """Every item (or those of `ids`) with a lapse or a failed run, by id."""
    lapses, runs = lapse_counts(connection, ids), failed_runs(connection, ids)
    return _standings(connection, lapses.keys() | runs.keys(), lapses, runs)


def leeches(connection: Connection, threshold: int) -> list[Standing]:
    """The items that are leeches now."""
    lapses, runs = lapse_counts(connection), failed_runs(connection)
    suspects = {item_id for item_id, number in lapses.items() if number >= threshold} | set(runs)
    return [
        standing for standing in _standings(connection, suspects, lapses, runs).values() if standing.is_leech(threshold)
    ]


def leech_ids(connection: Connection, threshold: int) -> set[str]:
    """The ids of the items that are leeches now."""
    return {standing.item_id for standing in leeches(connection, threshold)}


def standing(connection: Connection, item_id: str) -> Standing:
    """One item's lapses and failed run."""
    found = standings(connection, [item_id])
    if item_id in found:
        return found[item_id]
    found_item = connection.execute(ITEMS.where(item.c.id == item_id)).first()
    return Standing(item_id, *(found_item[1:] if found_item else ("card", "")))

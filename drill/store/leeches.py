"""Lapses and failed runs (drill.schedule.leech says what makes a leech). A lapse is a counted Again
on an item that had been learned (repetitions before it > 0: tables.LAPSE), counted per item by the
review table's triggers (item.lapse_count); a failed run is the counted Agains since the item's
last counted pass: failed study days in a row, same-day repeats left out. Each query reads every
item, or only `ids` when given; `standing` reads one item with one prebuilt statement (a grade's
write reads it twice)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from sqlalchemy import Connection, Engine, Select, bindparam, case, func, select, update

from drill.schedule.leech import RUN_KINDS, Standing
from drill.store.tables import item, review
from drill.store.transactions import writing

AGAIN = 1
# Each item's lapses as the review table's triggers count them (revision 0014).
LAPSES = select(item.c.id, item.c.lapse_count).where(item.c.lapse_count > 0)
# Failed study days (counted Agains: the first grade of a day) after the item's last counted pass,
# item by item: the few estimation families and drills drive it, each reading its own reviews
# through ix_review_item.
_tried, _passed, _item = review.alias("r"), review.alias("p"), item.alias("i")
_PASSED_SINCE = (
    select(1)
    .where(
        _passed.c.item_id == _item.c.id,
        _passed.c.counted,
        _passed.c.button > AGAIN,
        _passed.c.reviewed_at > _tried.c.reviewed_at,
    )
    .correlate_except(_passed)
    .exists()
)
_RUN = select(func.count()).where(
    _tried.c.item_id == _item.c.id, _tried.c.counted, _tried.c.button == AGAIN, ~_PASSED_SINCE
)
_RUNS = select(_item.c.id, _RUN.scalar_subquery().label("run")).where(_item.c.kind.in_(RUN_KINDS))
ITEMS = select(item.c.id, item.c.kind, item.c.topic)
# One item's kind, topic, lapses and (for the run kinds only, as _RUNS) failed run, in one row.
STANDING = select(
    _item.c.kind,
    _item.c.topic,
    _item.c.lapse_count,
    case((_item.c.kind.in_(RUN_KINDS), _RUN.scalar_subquery()), else_=0),
).where(_item.c.id == bindparam("item_id"))


def _counted(connection: Connection, query: Select[str, int], ids: Collection[str] | None) -> dict[str, int]:
    """The (id, count) rows of `query` as a dict; none when `ids` is given and empty."""
    return dict(connection.execute(query).all()) if ids is None or ids else {}


def lapse_counts(connection: Connection, ids: Collection[str] | None = None) -> dict[str, int]:
    """Lapses per item (items without any left out)."""
    return _counted(connection, LAPSES if ids is None else LAPSES.where(item.c.id.in_(list(ids))), ids)


def failed_runs(connection: Connection, ids: Collection[str] | None = None) -> dict[str, int]:
    """Failed study days since the last passed one, per estimation family and coding drill (none: left out)."""
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


def standings_of(connection: Connection, ids: Collection[str]) -> dict[str, Standing]:
    """A standing for each of `ids` (one without a lapse or a failed run: zeros), by id."""
    found = standings(connection, ids)
    missing = [item_id for item_id in ids if item_id not in found]
    if missing:
        rows = connection.execute(ITEMS.where(item.c.id.in_(missing))).all()
        found.update({row[0]: Standing(row[0], *row[1:]) for row in rows})
    return {item_id: found.get(item_id, Standing(item_id, "card")) for item_id in ids}


def standing(connection: Connection, item_id: str) -> Standing:
    """One item's lapses and failed run, as standings_of gives it (an unknown item: a card with zeros)."""
    row = connection.execute(STANDING, {"item_id": item_id}).one_or_none()
    return Standing(item_id, "card") if row is None else Standing(item_id, *row)


def newly_flagged(connection: Connection, before: Mapping[str, Standing], threshold: int) -> list[Standing]:
    """The items of `before` that the reviews stored since flag as leeches (Standing.flagged_after),
    each as it stands now."""
    now = standings_of(connection, before.keys())
    return [now[item_id] for item_id, then in before.items() if now[item_id].flagged_after(then, threshold)]


def act_on_imported(engine: Engine, before: Mapping[str, Standing], threshold: int, suspend: bool) -> list[Standing]:
    """After an import stored reviews of the items of `before` (their standings before it): the ones
    it made leeches (or flagged again), each suspended when `suspend` (leech_action), at once: the
    import is their session."""
    with writing(engine) as connection:
        flagged = newly_flagged(connection, before, threshold)
        if suspend and flagged:
            ids = [standing.item_id for standing in flagged]
            connection.execute(update(item).where(item.c.id.in_(ids)).values(suspended=True))
    return flagged

"""Lapses and failed runs, counted from the stored reviews (drill.schedule.leech says what makes a
leech). A lapse is a counted Again on an item that had been learned (repetitions before it > 0).
Each query reads every item, or only `ids` when given (through the review index on item_id)."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Connection, bindparam, text

from drill.schedule.leech import RUN_KINDS, Standing

AGAIN = 1
LAPSES = f"""SELECT item_id, COUNT(*) FROM review
    WHERE counted = TRUE AND button = {AGAIN} AND reps_before > 0 {{only}} GROUP BY item_id"""
# Failed tries (every review, repeats included) after the item's last pass.
FAILED_RUNS = f"""SELECT r.item_id, COUNT(*) FROM review r JOIN item i ON i.id = r.item_id
    WHERE i.kind IN ({", ".join(f"'{kind}'" for kind in RUN_KINDS)}) AND r.button = {AGAIN} {{only}}
    AND NOT EXISTS (SELECT 1 FROM review p WHERE p.item_id = r.item_id AND p.button > {AGAIN}
                    AND p.reviewed_at > r.reviewed_at)
    GROUP BY r.item_id"""
ITEMS = "SELECT id, kind, topic FROM item WHERE TRUE {only}"


def _counts(connection: Connection, sql: str, column: str, ids: Collection[str] | None) -> dict[str, int]:
    if ids is None:
        return dict(connection.execute(text(sql.format(only=""))).all())
    query = text(sql.format(only=f"AND {column} IN :ids")).bindparams(bindparam("ids", expanding=True))
    return dict(connection.execute(query, {"ids": list(ids)}).all()) if ids else {}


def lapse_counts(connection: Connection, ids: Collection[str] | None = None) -> dict[str, int]:
    """Lapses per item (items without any left out)."""
    return _counts(connection, LAPSES, "item_id", ids)


def failed_runs(connection: Connection, ids: Collection[str] | None = None) -> dict[str, int]:
    """Failed tries since the last pass, per estimation family and coding drill (none: left out)."""
    return _counts(connection, FAILED_RUNS, "r.item_id", ids)


def standings(connection: Connection, ids: Collection[str] | None = None) -> dict[str, Standing]:
    """Every item (or those of `ids`) with a lapse or a failed run, by id."""
    lapses, runs = lapse_counts(connection, ids), failed_runs(connection, ids)
    failing = lapses.keys() | runs.keys()
    if not failing:
        return {}
    query = text(ITEMS.format(only="AND id IN :ids")).bindparams(bindparam("ids", expanding=True))
    items = {row[0]: row[1:] for row in connection.execute(query, {"ids": sorted(failing)})}
    return {
        item_id: Standing(item_id, *items.get(item_id, ("card", "")), lapses.get(item_id, 0), runs.get(item_id, 0))
        for item_id in failing
    }


def leech_ids(connection: Connection, threshold: int) -> set[str]:
    """The items that are leeches now."""
    return {item_id for item_id, standing in standings(connection).items() if standing.is_leech(threshold)}


def standing(connection: Connection, item_id: str) -> Standing:
    """One item's lapses and failed run."""
    found = standings(connection, [item_id])
    if item_id in found:
        return found[item_id]
    item = connection.execute(text(ITEMS.format(only="AND id = :id")), {"id": item_id}).first()
    return Standing(item_id, *(item[1:] if item else ("card", "")))

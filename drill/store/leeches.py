"""Lapses and failed runs, counted from the stored reviews (drill.schedule.leech says what makes a
leech). A lapse is a counted Again on an item that had been learned (repetitions before it > 0).
Each query reads every item, or only `ids` when given (through the review index on item_id)."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Connection, bindparam, text

from drill.schedule.leech import RUN_KINDS, Standing

AGAIN = 1
# The WHERE is the partial index ix_review_lapse's own, word for word, so SQLite reads that index.
LAPSES = """SELECT item_id, COUNT(*) FROM review
    WHERE counted = TRUE AND button = 1 AND reps_before > 0 {only} GROUP BY item_id"""
# Failed tries (every review, repeats included) after the item's last pass, item by item: the
# few estimation families and drills drive it, each reading its own reviews through ix_review_item.
FAILED_RUNS = f"""SELECT * FROM (
    SELECT i.id, (SELECT COUNT(*) FROM review r WHERE r.item_id = i.id AND r.button = {AGAIN}
        AND NOT EXISTS (SELECT 1 FROM review p WHERE p.item_id = i.id AND p.button > {AGAIN}
                        AND p.reviewed_at > r.reviewed_at)) AS run
    FROM item i WHERE i.kind IN ({", ".join(f"'{kind}'" for kind in RUN_KINDS)}) {{only}}) AS runs
    WHERE run > 0"""
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
    return _counts(connection, FAILED_RUNS, "i.id", ids)


def _standings(connection: Connection, ids: Collection[str], lapses: dict[str, int],
               runs: dict[str, int]) -> dict[str, Standing]:
    """The standings of `ids` from their counts, with their kind and topic."""
    if not ids:
        return {}
    if len(ids) > 500:  # every item's kind and topic in one pass beats a list of thousands of ids
        items = {row[0]: row[1:] for row in connection.execute(text(ITEMS.format(only="")))}
    else:
        query = text(ITEMS.format(only="AND id IN :ids")).bindparams(bindparam("ids", expanding=True))
        items = {row[0]: row[1:] for row in connection.execute(query, {"ids": sorted(ids)})}
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
    return [standing for standing in _standings(connection, suspects, lapses, runs).values()
            if standing.is_leech(threshold)]


def leech_ids(connection: Connection, threshold: int) -> set[str]:
    """The ids of the items that are leeches now."""
    return {standing.item_id for standing in leeches(connection, threshold)}


def standing(connection: Connection, item_id: str) -> Standing:
    """One item's lapses and failed run."""
    found = standings(connection, [item_id])
    if item_id in found:
        return found[item_id]
    item = connection.execute(text(ITEMS.format(only="AND id = :id")), {"id": item_id}).first()
    return Standing(item_id, *(item[1:] if item else ("card", "")))

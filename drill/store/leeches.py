"""Lapses and failed runs, counted from the stored reviews (drill.schedule.leech says what makes a
leech). A lapse is a counted Again on an item that had been learned (repetitions before it > 0)."""

from __future__ import annotations

from sqlalchemy import Connection, text

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


def lapse_counts(connection: Connection) -> dict[str, int]:
    """Lapses per item (items without any left out)."""
    return dict(connection.execute(text(LAPSES.format(only=""))).all())


def failed_runs(connection: Connection) -> dict[str, int]:
    """Failed tries since the last pass, per estimation family and coding drill (none: left out)."""
    return dict(connection.execute(text(FAILED_RUNS.format(only=""))).all())


def standings(connection: Connection) -> dict[str, Standing]:
    """Every item with a lapse or a failed run, by id."""
    lapses, runs = lapse_counts(connection), failed_runs(connection)
    items = {row[0]: row[1:] for row in connection.execute(text("SELECT id, kind, topic FROM item"))}
    return {
        item_id: Standing(item_id, *items.get(item_id, ("card", "")), lapses.get(item_id, 0), runs.get(item_id, 0))
        for item_id in lapses.keys() | runs.keys()
    }


def leech_ids(connection: Connection, threshold: int) -> set[str]:
    """The items that are leeches now."""
    return {item_id for item_id, standing in standings(connection).items() if standing.is_leech(threshold)}


def standing(connection: Connection, item_id: str) -> Standing:
    """One item's lapses and failed run."""
    only = {"only": "AND item_id = :id"}
    lapses = connection.execute(text(LAPSES.format(**only)), {"id": item_id}).all()
    runs = connection.execute(text(FAILED_RUNS.format(only="AND r.item_id = :id")), {"id": item_id}).all()
    item = connection.execute(text("SELECT kind, topic FROM item WHERE id = :id"), {"id": item_id}).first()
    kind, topic = item if item else ("card", "")
    return Standing(item_id, kind, topic, lapses[0][1] if lapses else 0, runs[0][1] if runs else 0)

"""Bringing the store in line with the content files.

New ids become items, edited text keeps the old version in item_revision, removed ids are
retired (their history stays), and ids that come back are un-retired. An item's `siblings` key
is written as the content gives it (a change of it alone is no edit of the text). Items of a deck file
that failed to load are left alone, so a typo never retires a whole deck.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import Engine, bindparam, insert, select, update

from drill.schedule.siblings import group
from drill.store import facts
from drill.store.facts import write_fact
from drill.store.tables import item, item_revision
from drill.store.transactions import writing

if TYPE_CHECKING:
    from drill.content.models import LoadedItem


@dataclass(frozen=True)
class SyncReport:
    added: int = 0
    updated: int = 0
    retired: int = 0
    restored: int = 0


def _row(loaded: LoadedItem) -> dict[str, object]:
    """The item's columns as its content gives them."""
    content = loaded.item
    return {
        "id": content.id,
        "kind": content.kind,
        "block": content.block,
        "topic": content.topic,
        "deck": loaded.deck,
        "position": loaded.position,
        "prompt": content.prompt,
        "answer": content.answer,
        "source": content.source,
        "points": json.dumps(content.points),
        "target_seconds": content.target_seconds,
        "errata": content.errata,
        "siblings": group(content.kind, content.topic, content.siblings),  # the effective group, for the queue's index
        "content_hash": content.content_hash(),
    }


def _set(item_id: object, **columns: object) -> dict[str, object]:
    """SET's parameters: the item's id and its columns to change."""
    return {"item_id": item_id, **columns}


KNOWN = select(item.c.id, item.c.content_hash, item.c.deck, item.c.position, item.c.retired, item.c.siblings)
INSERT = insert(item)  # the columns written are the rows' keys
SET = update(item).where(item.c.id == bindparam("item_id"))  # likewise, for the item `item_id`
KEEP_OLD_TEXT = insert(item_revision).from_select(
    ["item_id", "content_hash", "prompt", "answer", "replaced_at"],
    select(
        item.c.id,
        item.c.content_hash,
        item.c.prompt,
        item.c.answer,
        bindparam("now", type_=item_revision.c.replaced_at.type),
    ).where(item.c.id == bindparam("item_id")),
)


def sync_content(
    engine: Engine, items: list[LoadedItem], broken_decks: set[str], now: datetime, fingerprint: str | None = None
) -> SyncReport:
    """Apply the difference between `items` and the store in one transaction, and record the
    content's `fingerprint` with it (None when the content had errors: the next start syncs again)."""
    with writing(engine) as connection:
        write_fact(connection, facts.CONTENT, fingerprint)
        known = {row.id: row for row in connection.execute(KNOWN)}
        rows = [_row(loaded) for loaded in items]
        new = [row | {"created_at": now, "updated_at": now} for row in rows if row["id"] not in known]
        edited = [row for row in rows if row["id"] in known and row["content_hash"] != known[row["id"]].content_hash]
        moved = [
            _set(row["id"], deck=row["deck"], position=row["position"], siblings=row["siblings"], retired=False)
            for row in rows
            if row["id"] in known
            and row["content_hash"] == known[row["id"]].content_hash
            and (row["deck"], row["position"], False, row["siblings"]) != tuple(known[row["id"]][2:])
        ]
        present = {row["id"] for row in rows}
        gone = [
            _set(id_, retired=True, updated_at=now)
            for id_, row in known.items()
            if id_ not in present and not row.retired and row.deck not in broken_decks
        ]
        restored = sum(1 for row in rows if row["id"] in known and known[row["id"]].retired)
        if new:
            connection.execute(INSERT, new)
        if edited:
            connection.execute(KEEP_OLD_TEXT, [{"item_id": row["id"], "now": now} for row in edited])
            connection.execute(
                SET,
                [
                    _set(
                        row["id"],
                        **{key: value for key, value in row.items() if key != "id"},
                        retired=False,
                        updated_at=now,
                    )
                    for row in edited
                ],
            )
        if moved:
            connection.execute(SET, moved)
        if gone:
            connection.execute(SET, gone)
    return SyncReport(added=len(new), updated=len(edited), retired=len(gone), restored=restored)

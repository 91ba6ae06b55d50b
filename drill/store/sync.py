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

from sqlalchemy import Engine, text

from drill.schedule.siblings import group
from drill.store import facts
from drill.store.facts import write_fact
from drill.store.transactions import writing

if TYPE_CHECKING:
    from drill.content.models import LoadedItem


@dataclass(frozen=True)
class SyncReport:
    added: int = 0
    updated: int = 0
    retired: int = 0
    restored: int = 0


def _row(loaded: LoadedItem, now: datetime) -> dict[str, object]:
    item = loaded.item
    return {
        "id": item.id,
        "kind": item.kind,
        "block": item.block,
        "topic": item.topic,
        "deck": loaded.deck,
        "position": loaded.position,
        "prompt": item.prompt,
        "answer": item.answer,
        "source": item.source,
        "points": json.dumps(item.points),
        "target_seconds": item.target_seconds,
        "errata": item.errata,
        "siblings": group(item.kind, item.topic, item.siblings),  # the effective group, for the queue's index
        "content_hash": item.content_hash(),
        "now": now,
    }


INSERT = text(
    """INSERT INTO item (id, kind, block, topic, deck, position, prompt, answer, source, points,
        target_seconds, errata, siblings, content_hash, created_at, updated_at)
    VALUES (:id, :kind, :block, :topic, :deck, :position, :prompt, :answer, :source, :points,
        :target_seconds, :errata, :siblings, :content_hash, :now, :now)"""
)
KEEP_OLD_TEXT = text(
    """INSERT INTO item_revision (item_id, content_hash, prompt, answer, replaced_at)
    SELECT id, content_hash, prompt, answer, :now FROM item WHERE id = :id"""
)
UPDATE = text(
    """UPDATE item SET kind=:kind, block=:block, topic=:topic, deck=:deck, position=:position,
        prompt=:prompt, answer=:answer, source=:source, points=:points,
        target_seconds=:target_seconds, errata=:errata, siblings=:siblings, content_hash=:content_hash, retired=FALSE,
        updated_at=:now
    WHERE id = :id"""
)
MOVE = text("UPDATE item SET deck=:deck, position=:position, siblings=:siblings, retired=FALSE WHERE id=:id")
RETIRE = text("UPDATE item SET retired=TRUE, updated_at=:now WHERE id=:id")


def sync_content(
    engine: Engine, items: list[LoadedItem], broken_decks: set[str], now: datetime, fingerprint: str | None = None
) -> SyncReport:
    """Apply the difference between `items` and the store in one transaction, and record the
    content's `fingerprint` with it (None when the content had errors: the next start syncs again)."""
    with writing(engine) as connection:
        write_fact(connection, facts.CONTENT, fingerprint)
        known = {
            row.id: row
            for row in connection.execute(text("SELECT id, content_hash, deck, position, retired, siblings FROM item"))
        }
        rows = [_row(loaded, now) for loaded in items]
        new = [row for row in rows if row["id"] not in known]
        edited = [row for row in rows if row["id"] in known and row["content_hash"] != known[row["id"]].content_hash]
        moved = [
            row
            for row in rows
            if row["id"] in known
            and row["content_hash"] == known[row["id"]].content_hash
            and (row["deck"], row["position"], 0, row["siblings"]) != tuple(known[row["id"]][2:])
        ]
        present = {row["id"] for row in rows}
        gone = [
            {"id": id_, "now": now}
            for id_, row in known.items()
            if id_ not in present and not row.retired and row.deck not in broken_decks
        ]
        restored = sum(1 for row in rows if row["id"] in known and known[row["id"]].retired)
        if new:
            connection.execute(INSERT, new)
        if edited:
            connection.execute(KEEP_OLD_TEXT, [{"id": row["id"], "now": now} for row in edited])
            connection.execute(UPDATE, edited)
        if moved:
            connection.execute(MOVE, moved)
        if gone:
            connection.execute(RETIRE, gone)
    return SyncReport(added=len(new), updated=len(edited), retired=len(gone), restored=restored)

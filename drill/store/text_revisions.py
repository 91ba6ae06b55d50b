"""An item's text revisions: each edit of its prompt or answer, with the text before and after.

item_revision keeps the text an edit replaced, stamped with when it was replaced (drill.store.sync);
the text after a revision is the next revision's, or the item's own for the latest."""

from __future__ import annotations

from datetime import datetime

from pydantic.dataclasses import dataclass as read_model
from sqlalchemy import Engine, bindparam, select

from drill.store.review_log import moment
from drill.store.tables import item, item_revision

OLD_TEXTS = (
    select(item_revision.c.replaced_at, item_revision.c.prompt, item_revision.c.answer)
    .where(item_revision.c.item_id == bindparam("id"))
    .order_by(item_revision.c.replaced_at, item_revision.c.id)
)
TEXT_NOW = select(item.c.prompt, item.c.answer).where(item.c.id == bindparam("id"))


@read_model(frozen=True)
class TextRevision:
    """One edit of an item's text: when, and its prompt and answer before and after."""

    replaced_at: datetime
    prompt_before: str
    answer_before: str
    prompt_after: str
    answer_after: str


def text_revisions(engine: Engine, item_id: str) -> list[TextRevision]:
    """Every edit of `item_id`'s text, newest first (none for an unknown item or one never edited)."""
    with engine.connect() as connection:
        now = connection.execute(TEXT_NOW, {"id": item_id}).first()
        old = connection.execute(OLD_TEXTS, {"id": item_id}).all()
    if now is None or not old:
        return []
    after = [*((row.prompt, row.answer) for row in old[1:]), (now.prompt, now.answer)]
    return [
        TextRevision(moment(row.replaced_at), row.prompt, row.answer, prompt, answer)
        for row, (prompt, answer) in reversed(list(zip(old, after, strict=True)))
    ]

"""A problem family as a store item: one SM-2 item per family, fresh numbers at each review."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.content.models import ContentItem
    from drill.estimate.schema import Family

ITEM_PREFIX = "estimate:"


def item_id(family_id: str) -> str:
    return ITEM_PREFIX + family_id


def family_id(item_id: str) -> str:
    return item_id.removeprefix(ITEM_PREFIX)


def family_item(family: Family) -> ContentItem:
    """The store's view of a family: its question template and formula."""
    from drill.content.models import ContentItem

    steps = "\n".join(f"- {step.text}" + (f" (when {step.when})" if step.when else "") for step in family.steps)
    return ContentItem(
        id=item_id(family.id),
        kind="estimate",
        block=family.block,
        topic=family.topic,
        prompt=family.prompt.strip(),
        answer=f"`{family.answer}` in {family.unit}\n\n{steps}".strip(),
        source=f"problems/{family.id}.toml",
    )

"""A coding drill as a store item: one SM-2 item per drill, its quality from the attempt."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.coding.drills import Drill
    from drill.content.models import ContentItem

ITEM_PREFIX = "kernel:"


def item_id(drill_id: str) -> str:
    return ITEM_PREFIX + drill_id


def drill_id(item_id: str) -> str:
    return item_id.removeprefix(ITEM_PREFIX)


def drill_item(drill: "Drill") -> ContentItem:
    """The store's view of a drill: its task, and the reference solution as the answer."""
    from drill.content.models import ContentItem

    return ContentItem(
        id=item_id(drill.id),
        kind="coding",
        block=drill.block,
        topic=drill.topic,
        prompt=drill.prompt.read_text(encoding="utf-8"),
        answer=f"```python\n{drill.solution.read_text(encoding='utf-8').rstrip()}\n```",
        source=drill.source,
        target_seconds=drill.budget_s,
    )

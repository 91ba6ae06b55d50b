"""The compact summary behind `drill stats --json`."""

from __future__ import annotations

from drill.content.vocabulary import BLOCKS
from drill.home import HomeSummary


def summary_json(home: HomeSummary) -> dict[str, object]:
    """The spine's stats contract: totals and per-block counts (every block listed)."""
    empty = {"items": 0, "due": 0, "new": 0, "reviews": 0}
    return {
        "today": home.today.isoformat(),
        "items": home.items,
        "reviews_total": home.reviews_total,
        "due_today": home.due_today,
        "new_available": home.new_available,
        "interview_date": home.interview_date.isoformat() if home.interview_date else None,
        "days_left": home.days_left,
        "by_block": {block: dict(home.by_block.get(block, empty)) for block in BLOCKS},
    }

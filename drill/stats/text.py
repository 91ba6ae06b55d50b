"""Short text forms of the figures, shared by `drill stats` and the stats screen (no Textual)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

BARS = "▁▂▃▄▅▆▇█"


def percent(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def duration(seconds: float | None) -> str:
    """1h 05m, 12m, 45s."""
    if seconds is None:
        return "—"
    whole = int(round(seconds))
    if whole >= 3600:
        return f"{whole // 3600}h {whole % 3600 // 60:02d}m"
    if whole >= 60:
        return f"{whole // 60}m"
    return f"{whole}s"


def clock(seconds: float | None) -> str:
    """m:ss, as the pitch timer shows it."""
    if seconds is None:
        return "—"
    whole = int(round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def local_time(stored: str) -> str:
    """A stored UTC moment (ISO text) as local date and time to the minute."""
    moment = datetime.fromisoformat(stored)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def sparkline(values: Sequence[float]) -> str:
    """One block character per value, scaled to the largest; zero is a space."""
    peak = max(values, default=0)
    if peak <= 0:
        return " " * len(values)
    return "".join(" " if value <= 0 else BARS[min(len(BARS) - 1, int(value / peak * (len(BARS) - 1) + 0.5))]
                   for value in values)


def score(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def band(low: float, high: float) -> str:
    """A band of predicted recall: <50%, 50–70%, 90%+."""
    if low <= 0:
        return f"<{high:.0%}"
    if high >= 1:
        return f"{low:.0%}+"
    return f"{low * 100:.0f}–{high:.0%}"


def calibration_line(calibration: dict) -> str:
    """One line from `readiness.calibration` of `drill stats --json`."""
    days = calibration.get("days") or 30
    if not calibration["reviews"]:
        return f"calibration (last {days} days): no review of an item seen before yet"
    return (f"calibration (last {days} days, {calibration['model']}): {calibration['reviews']} reviews, "
            f"Brier {calibration['brier']:.3f} (0 perfect, 0.25 a coin flip); predicted "
            f"{percent(calibration['predicted'])}, passed {percent(calibration['actual'])}")


def readiness_lines(ready: dict) -> list[str]:
    """`drill stats`'s readiness table, from `readiness` of `drill stats --json`: coverage (seen of
    items), recall of the seen items, and expected, the share of all items recalled on the day."""
    lines = [f"{'block':<14}{'items':>6}{'seen':>6}{'mature':>7}{'due':>6}{'recall':>8}{'expected':>10}"
             f"  on {ready['target_day']} ({ready['recall_model']})"]
    for block, row in ready["by_block"].items():
        lines.append(f"{block:<14}{row['items']:>6}{row['seen']:>6}{row['mature']:>7}{row['due']:>6}"
                     f"{percent(row['recall']):>8}{percent(row['expected']):>10}")
    if len(ready["by_block"]) > 1:
        due = sum(row["due"] for row in ready["by_block"].values())
        lines.append(f"{'all':<14}{ready['items']:>6}{ready['seen']:>6}{ready['mature']:>7}{due:>6}"
                     f"{percent(ready['recall']):>8}{percent(ready['expected']):>10}")
    if ready["weakest_topics"]:
        lines.append("weakest: " + ", ".join(topic_text(t) for t in ready["weakest_topics"][:3]))
    lines.append(calibration_line(ready["calibration"]))
    return lines


def topic_text(topic: dict) -> str:
    """`KV cache (memory) 40%`: a weak topic and its expected share; `unseen` when none is seen."""
    return f"{topic['topic']} ({topic['block']}) {percent(topic['expected']) if topic['seen'] else 'unseen'}"

"""Short text forms of the figures, shared by `drill stats` and the stats screen (no Textual)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from drill.days import to_local
from drill.words import counted

if TYPE_CHECKING:
    from drill.store.readiness_history import ReadinessPoint
    from drill.store.stats.calibration import Calibration
    from drill.store.stats.readiness import Readiness, TopicRecall
    from drill.store.stats.steering import Steering

BARS = "▁▂▃▄▅▆▇█"


def percent(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def duration(seconds: float | None) -> str:
    """1h 05m, 12m, 45s."""
    if seconds is None:
        return "—"
    whole = round(seconds)
    if whole >= 3600:
        return f"{whole // 3600}h {whole % 3600 // 60:02d}m"
    if whole >= 60:
        return f"{whole // 60}m"
    return f"{whole}s"


def clock(seconds: float | None) -> str:
    """m:ss, as the pitch timer shows it."""
    if seconds is None:
        return "—"
    whole = round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def local_time(stored: str) -> str:
    """A stored UTC moment (ISO text) as local date and time to the minute."""
    moment = datetime.fromisoformat(stored)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return to_local(moment).strftime("%Y-%m-%d %H:%M")


def sparkline(values: Sequence[float]) -> str:
    """One block character per value, scaled to the largest; zero is a space."""
    peak = max(values, default=0)
    if peak <= 0:
        return " " * len(values)
    return "".join(
        " " if value <= 0 else BARS[min(len(BARS) - 1, int(value / peak * (len(BARS) - 1) + 0.5))] for value in values
    )


def score(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def band(low: float, high: float) -> str:
    """A band of predicted recall: <50%, 50–70%, 90%+."""
    if low <= 0:
        return f"<{high:.0%}"
    if high >= 1:
        return f"{low:.0%}+"
    return f"{low * 100:.0f}–{high:.0%}"


def calibration_line(calibration: Calibration) -> str:
    """`drill stats`'s line on how well predicted recall matched the outcomes."""
    if not calibration.reviews:
        return f"calibration (last {counted(calibration.days, 'day')}): no review of an item seen before yet"
    return (
        f"calibration (last {counted(calibration.days, 'day')}, {calibration.model}): "
        f"{counted(calibration.reviews, 'review')}, "
        f"Brier {calibration.brier:.3f} (0 perfect, 0.25 a coin flip); predicted "
        f"{percent(calibration.predicted)}, passed {percent(calibration.actual)}"
    )


def readiness_lines(ready: Readiness) -> list[str]:
    """`drill stats`'s readiness table: coverage (seen of items), recall of the seen items, and
    expected, the share of all items recalled on the day."""
    lines = [
        f"{'block':<14}{'items':>6}{'seen':>6}{'mature':>7}{'due':>6}{'recall':>8}{'expected':>10}"
        f"  on {ready.target_day.isoformat()} ({ready.recall_model})"
    ]
    for block in ready.blocks:
        lines.append(
            f"{block.block:<14}{block.items:>6}{block.seen:>6}{block.mature:>7}{block.due:>6}"
            f"{percent(block.recall):>8}{percent(block.expected):>10}"
        )
    if len(ready.blocks) > 1:
        due = sum(block.due for block in ready.blocks)
        lines.append(
            f"{'all':<14}{ready.items:>6}{ready.seen:>6}{ready.mature:>7}{due:>6}"
            f"{percent(ready.recall):>8}{percent(ready.expected):>10}"
        )
    if ready.weakest:
        lines.append("weakest: " + ", ".join(topic_text(topic) for topic in ready.weakest[:3]))
    lines.append(calibration_line(ready.calibration))
    return lines


def topic_text(topic: TopicRecall) -> str:
    """`KV cache (memory) 40%`: a weak topic and its expected share; `unseen` when none is seen."""
    return f"{topic.topic} ({topic.block}) {percent(topic.expected) if topic.seen else 'unseen'}"


def steering_line(steering: Steering) -> str:
    """Leeches now and the period's cram reviews, in one line."""
    leeches = (
        (
            f"{counted(len(steering.leeches), 'leech', 'leeches')} ("
            + ", ".join(f"{leech.topic} {leech.kind}" for leech in steering.leeches[:3])
            + (", …" if len(steering.leeches) > 3 else "")
            + ")"
        )
        if steering.leeches
        else "no leeches"
    )
    cram = counted(steering.cram_reviews, "cram review")
    if steering.cram_reviews:
        cram += f" ({steering.cram_rescheduled} rescheduled)"
    return f"{leeches} · {cram}"


def readiness_line(history: Sequence[ReadinessPoint], target: float) -> str:
    """The interview score predicted now (with its range), at the history's first point, and the target."""
    first, now = history[0], history[-1]
    return (
        f"interview predicted now {now.predicted.said()}, {first.predicted.score:.0%} on {first.day.isoformat()}"
        f" · target {target:.0%}"
    )

"""Short text forms of the figures, shared by `drill stats` and the stats screen (no Textual)."""

from __future__ import annotations

from collections.abc import Sequence

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


def sparkline(values: Sequence[float]) -> str:
    """One block character per value, scaled to the largest; zero is a space."""
    peak = max(values, default=0)
    if peak <= 0:
        return " " * len(values)
    return "".join(" " if value <= 0 else BARS[min(len(BARS) - 1, int(value / peak * (len(BARS) - 1) + 0.5))]
                   for value in values)


def score(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"

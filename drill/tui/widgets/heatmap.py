"""A calendar heatmap, GitHub style: one column per week (Monday on top), one cell per day."""

from __future__ import annotations

import math
from datetime import date, timedelta

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

# Empty, then four levels of activity (GitHub's dark palette; readable on light themes too).
LEVEL_COLOURS = ("#3a3f47", "#0e4429", "#006d32", "#26a641", "#39d353")
CELL = "■"
DAY_LABELS = ("Mon", "", "Wed", "", "Fri", "", "Sun")
LABEL_WIDTH = 4
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def level(count: float, peak: float) -> int:
    """0 for no activity, else 1–4 by quarters of the busiest day."""
    if count <= 0 or peak <= 0:
        return 0
    return max(1, min(4, math.ceil(4 * count / peak)))


class Heatmap(Widget):
    """Counts per day from `start`, laid out in week columns ending with the last day's week.

    Set `data` to (start, counts). Each week takes two cells when the widget is wide enough,
    else one; the oldest weeks are dropped when even one cell per week does not fit.
    """

    DEFAULT_CSS = """
    Heatmap {
        height: 9;
        width: 1fr;
    }
    """

    data: reactive[tuple[date, tuple[float, ...]] | None] = reactive(None)

    def render(self) -> RenderableType:
        if self.data is None:
            return Text("")
        start, counts = self.data
        if not counts:
            return Text("")
        end = start + timedelta(days=len(counts) - 1)
        first_monday = start - timedelta(days=start.weekday())
        weeks = (end - first_monday).days // 7 + 1
        room = max(1, self.size.width - LABEL_WIDTH)
        cell = 2 if weeks * 2 <= room else 1
        shown = min(weeks, room // cell)
        first_week = first_monday + timedelta(weeks=weeks - shown)
        peak = max(counts)
        text = Text(no_wrap=True, overflow="crop")
        text.append(" " * LABEL_WIDTH)
        text.append(self._months(first_week, shown, cell))
        for weekday in range(7):
            text.append("\n")
            text.append(f"{DAY_LABELS[weekday]:<{LABEL_WIDTH}}", style="dim")
            for week in range(shown):
                day = first_week + timedelta(weeks=week, days=weekday)
                if day < start or day > end:
                    text.append(" " * cell)
                    continue
                colour = LEVEL_COLOURS[level(counts[(day - start).days], peak)]
                text.append(CELL, style=Style(color=colour))
                if cell == 2:
                    text.append(" ")
        text.append("\n")
        text.append(" " * LABEL_WIDTH)
        text.append("less ", style="dim")
        for colour in LEVEL_COLOURS:
            text.append(CELL, style=Style(color=colour))
            text.append(" ")
        text.append("more", style="dim")
        return text

    @staticmethod
    def _months(first_week: date, weeks: int, cell: int) -> Text:
        """Each month's name above the week column holding its first day, where it fits."""
        line = [" "] * (weeks * cell)
        for week in range(weeks):
            monday = first_week + timedelta(weeks=week)
            first = next((monday + timedelta(days=n) for n in range(7) if (monday + timedelta(days=n)).day == 1), None)
            if first is None:
                continue
            name, at = MONTHS[first.month - 1], week * cell
            if at + len(name) <= len(line) and all(ch == " " for ch in line[max(0, at - 1) : at + len(name)]):
                line[at : at + len(name)] = list(name)
        return Text("".join(line), style="dim")

"""The stats screen's charts (textual-plotext): recall predicted against recall observed per band
of predictions, and the predicted interview score over the last weeks against the target (each
keeps the points it drew in `points`, the figures a test reads); and a Static drawn for its width."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from rich.console import RenderableType
from textual.widgets import Static
from textual_plotext import PlotextPlot

from drill.stats.text import band
from drill.tui.widgets.heatmap import MONTHS

if TYPE_CHECKING:
    from drill.store.readiness_history import ReadinessPoint
    from drill.store.stats.calibration import Calibration

PERCENT_TICKS = [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
RELIABILITY_COLOURS = ("blue", "green")  # predicted, passed


def day_label(day: date) -> str:
    return f"{day.day:02d} {MONTHS[day.month - 1]}"


def spaced_ticks(length: int, count: int = 5) -> list[int]:
    """About `count` evenly spaced positions from 0 to the last of `length`, the last always shown and
    never squeezed next to the one before it, at least three quarters of a step away (plotext keeps
    one of two colliding labels by set order, and shifts one of two nearly touching labels by an
    order PYTHONHASHSEED changes)."""
    if length <= 1:
        return [0]
    step = -(-(length - 1) // (count - 1))
    ticks = list(range(0, length, step))
    if ticks[-1] != length - 1:
        if length - 1 - ticks[-1] < 0.75 * step:
            ticks.pop()
        ticks.append(length - 1)
    return ticks


@dataclass(frozen=True)
class BandPoint:
    """One band of predictions with reviews in it: its label, how many, and both recalls in percent."""

    label: str
    reviews: int
    predicted: float
    passed: float


def band_points(calibration: Calibration) -> tuple[BandPoint, ...]:
    """The bands that hold a review, lowest first."""
    return tuple(
        BandPoint(band(each.low, each.high), each.reviews, 100 * each.predicted, 100 * each.actual)
        for each in calibration.bins
        if each.reviews and each.predicted is not None and each.actual is not None
    )


class ReliabilityChart(PlotextPlot):
    """Per band of predicted recall, a row each: the mean prediction and the share passed, two bars
    (RELIABILITY_COLOURS) a calibrated model draws alike, the band's reviews beside its name."""

    DEFAULT_CSS = """
    ReliabilityChart {
        height: 14;
    }
    """

    points: tuple[BandPoint, ...] = ()

    def draw(self, calibration: Calibration) -> None:
        self.points = band_points(calibration)
        plt = self.plt
        plt.clear_figure()
        positions = list(range(len(self.points)))
        plt.multiple_bar(
            positions,
            [[point.predicted for point in self.points], [point.passed for point in self.points]],
            # textual-plotext's stub (guessed, it says) lacks it: plotext takes a colour per series
            color=list(RELIABILITY_COLOURS),  # type: ignore[arg-type]
            marker="sd",
            orientation="horizontal",
            width=0.8,
        )
        # a row per band, so its labels never collide; int positions: the stub's list[float] is invariant
        plt.yticks(positions, [f"{point.label} ·{point.reviews}" for point in self.points])  # type: ignore[arg-type]
        plt.xlim(0, 100)
        plt.xticks(PERCENT_TICKS)
        self.refresh()


class ReadinessChart(PlotextPlot):
    """The predicted interview score at the end of each point's day, in percent, and the target."""

    points: tuple[tuple[date, float], ...] = ()
    target: float = 0.0

    def draw(self, history: Sequence[ReadinessPoint], target: float) -> None:
        self.points = tuple((point.day, 100 * point.predicted.score) for point in history)
        self.target = 100 * target
        plt = self.plt
        plt.clear_figure()
        positions = list(range(len(self.points)))
        plt.plot(positions, [self.target] * len(positions), label=f"target {target:.0%}", color="red")
        plt.plot(positions, [score for _, score in self.points], label="predicted", marker="braille", color="cyan")
        ticks = spaced_ticks(len(positions))
        plt.xticks(ticks, [day_label(self.points[n][0]) for n in ticks])  # type: ignore[arg-type]  # int positions
        plt.xlim(0, max(1, len(positions) - 1))
        plt.ylim(0, 100)
        plt.yticks(PERCENT_TICKS)
        self.refresh()


class FitsWidth(Static):
    """A Static drawn for its own width (a table that must not be cut), again when that changes."""

    view: Callable[[int], RenderableType] | None = None

    def draw(self, view: Callable[[int], RenderableType]) -> None:
        self.view = view
        self.on_resize()

    def on_resize(self) -> None:
        if self.view is not None and self.content_region.width:
            self.update(self.view(self.content_region.width))

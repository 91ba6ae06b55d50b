"""The stats plots draw the same text whatever PYTHONHASHSEED is: plotext keeps one of two colliding
tick labels by set order, so no two ticks are placed where their labels collide."""

import subprocess
import sys
import textwrap
from datetime import date, timedelta
from itertools import pairwise

import pytest

from drill.tui.screens.stats import spaced_ticks

RENDER = textwrap.dedent("""
    from datetime import date, timedelta
    from textual_plotext.plot import Plot
    from drill.store.stats.estimation import TrendPoint
    from drill.tui.screens.stats import plot_estimation

    start = date(2026, 10, 24)
    trend = [TrendPoint(start + timedelta(days=n), n % 3, 0.5 + n / 80 if n % 3 else None, 0.3 if n % 3 else None)
             for n in range({days})]
    plt = Plot()
    plt.plotsize(72, 10)
    plot_estimation(plt, trend)
    print(plt.build())
""")


def render(days: int, seed: int) -> str:
    done = subprocess.run(
        [sys.executable, "-c", RENDER.format(days=days)],
        capture_output=True,
        text=True,
        env={"PYTHONHASHSEED": str(seed), "PATH": ""},
        check=True,
    )
    return done.stdout


@pytest.mark.slow
def test_the_estimation_plot_is_the_same_under_any_hash_seed() -> None:
    for days in (30, 31):
        drawn = {render(days, seed) for seed in range(6)}
        assert len(drawn) == 1, f"{days} days: {len(drawn)} different plots"
        last = date(2026, 10, 24) + timedelta(days=days - 1)
        assert f"{last.day:02d} Nov" in drawn.pop()  # the last day is labelled


def test_ticks_are_spread_evenly_and_end_on_the_last_position() -> None:
    assert spaced_ticks(1) == [0]
    assert spaced_ticks(2) == [0, 1]
    assert spaced_ticks(30) == [0, 8, 16, 29]  # 24 would sit 5 before the last: its label nearly touches
    assert spaced_ticks(31) == [0, 8, 16, 24, 30]
    assert spaced_ticks(13) == [0, 3, 6, 9, 12]
    assert spaced_ticks(22) == [0, 6, 12, 21]
    for length in range(2, 400):
        ticks = spaced_ticks(length)
        gaps = [b - a for a, b in pairwise(ticks)]
        assert ticks[0] == 0 and ticks[-1] == length - 1 and len(ticks) <= 6
        assert min(gaps) * 2 >= max(gaps) - 1, (length, ticks)

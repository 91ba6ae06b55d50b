"""Review speed on 10,000 items and 100,000 reviews: building today's queue, and a grade
keypress until the next card is painted. Prints JSON.

Each figure has a baseline measured in the same run on the same machine, and the ratio:
the queue against a plain indexed SELECT of due items over the same table; grade → next
card against a bare Textual app swapping the same Markdown cards on a keypress."""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import large_home

from drill.paths import Paths
from drill.study import Study

PLAIN_SELECT = "SELECT id, block, due_day FROM item WHERE due_day <= :today ORDER BY due_day LIMIT 200"


def queue_timings(home: Path, runs: int = 30) -> dict[str, float]:
    from sqlalchemy import text

    study = Study.open(Paths(home))
    queue_ms, cards_ms, plain_ms = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        ids = study.reviews.queue()
        middle = time.perf_counter()
        study.reviews.cards(ids)
        queue_ms.append((middle - start) * 1000)
        cards_ms.append((time.perf_counter() - middle) * 1000)
        start = time.perf_counter()
        with study.engine.connect() as connection:
            connection.execute(text(PLAIN_SELECT), {"today": study.today}).all()
        plain_ms.append((time.perf_counter() - start) * 1000)
    study.close()
    queue, plain = statistics.median(queue_ms), statistics.median(plain_ms)
    return {
        "queue_length": len(ids),
        "build_queue_ms_median": round(queue, 2),
        "baseline_plain_select_ms_median": round(plain, 2),
        "build_queue_ratio": round(queue / plain, 2),
        "load_queue_cards_ms_median": round(statistics.median(cards_ms), 2),
    }


async def grade_latencies(home: Path, grades: int = 60) -> list[float]:
    from drill.tui.app import DrillApp
    from drill.tui.screens.review import ReviewScreen

    latencies: list[float] = []
    grade, show = ReviewScreen.action_grade, ReviewScreen.show_current
    pressed: list[float] = []

    def timed_grade(screen: ReviewScreen, button: int) -> None:
        pressed.append(time.perf_counter())  # the key's action: the view posts Graded to the screen
        grade(screen, button)

    def timed_show(screen: ReviewScreen) -> None:
        show(screen)  # the screen took the grade and shows the next card
        if pressed:
            start = pressed.pop()
            screen.call_after_refresh(lambda: latencies.append((time.perf_counter() - start) * 1000))

    ReviewScreen.action_grade, ReviewScreen.show_current = timed_grade, timed_show
    app = DrillApp(Paths(home))
    async with app.run_test(size=(100, 30)) as pilot:
        while app.study is None:
            await pilot.pause(0.05)
        await pilot.press("r")
        while not isinstance(app.screen, ReviewScreen):
            await pilot.pause(0.05)
        for _ in range(grades):
            await pilot.press("space")
            await pilot.pause(0.01)
            await pilot.press("3")
            await pilot.pause(0.05)
    return latencies


async def bare_swap_latencies(home: Path, swaps: int = 60) -> list[float]:
    """The floor under grade → next card: a bare Textual app that swaps the same Markdown cards."""
    from textual.app import App
    from textual.widgets import Markdown

    study = Study.open(Paths(home))
    prompts = [card.prompt for card in study.reviews.cards(study.reviews.queue())]
    study.close()
    latencies: list[float] = []

    class BareSwap(App[None]):
        BINDINGS = [("3", "next", "Next")]
        shown = 0

        def compose(self):
            yield Markdown(prompts[0])

        def action_next(self) -> None:
            start = time.perf_counter()
            self.shown += 1
            self.query_one(Markdown).update(prompts[self.shown % len(prompts)])
            self.call_after_refresh(lambda: latencies.append((time.perf_counter() - start) * 1000))

    async with BareSwap().run_test(size=(100, 30)) as pilot:
        for _ in range(swaps):
            await pilot.press("3")
            await pilot.pause(0.05)
    return latencies


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="drill-bench-")) / "home"
    start = time.perf_counter()
    large_home.build(home)
    built_s = time.perf_counter() - start
    figures = {"items": 10_000, "reviews": 100_000, "build_fixture_s": round(built_s, 1)}
    figures.update(queue_timings(home))
    latencies = asyncio.run(grade_latencies(home))
    bare = asyncio.run(bare_swap_latencies(home))
    grade, floor = statistics.median(latencies), statistics.median(bare)
    figures.update(
        {
            "grades_timed": len(latencies),
            "grade_to_next_card_painted_ms_median": round(grade, 2),
            "grade_to_next_card_painted_ms_p90": round(statistics.quantiles(latencies, n=10)[-1], 2),
            "baseline_bare_textual_swap_ms_median": round(floor, 2),
            "grade_to_next_card_ratio": round(grade / floor, 2),
            "targets": {"grade_to_next_card_painted_ms_median": 16, "build_queue_ms_median": 20},
        }
    )
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

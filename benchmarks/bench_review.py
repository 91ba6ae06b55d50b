"""Review speed on 10,000 items and 100,000 reviews: building today's queue, and a grade
keypress until the next card is painted. Prints JSON."""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import large_home  # noqa: E402

from drill.paths import Paths  # noqa: E402
from drill.study import Study  # noqa: E402


def queue_timings(home: Path, runs: int = 30) -> dict[str, float]:
    study = Study.open(Paths(home))
    queue_ms, cards_ms = [], []
    for _ in range(runs):
        start = time.perf_counter()
        ids = study.queue()
        middle = time.perf_counter()
        study.cards(ids)
        queue_ms.append((middle - start) * 1000)
        cards_ms.append((time.perf_counter() - middle) * 1000)
    study.close()
    return {
        "queue_length": len(ids),
        "build_queue_ms_median": round(statistics.median(queue_ms), 2),
        "load_queue_cards_ms_median": round(statistics.median(cards_ms), 2),
    }


async def grade_latencies(home: Path, grades: int = 60) -> list[float]:
    from drill.tui.app import DrillApp
    from drill.tui.screens.review import ReviewScreen

    latencies: list[float] = []
    grade = ReviewScreen.action_grade

    def timed_grade(screen: ReviewScreen, button: int) -> None:
        start = time.perf_counter()
        grade(screen, button)
        screen.call_after_refresh(lambda: latencies.append((time.perf_counter() - start) * 1000))

    ReviewScreen.action_grade = timed_grade
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


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="drill-bench-")) / "home"
    start = time.perf_counter()
    large_home.build(home)
    built_s = time.perf_counter() - start
    figures = {"items": 10_000, "reviews": 100_000, "build_fixture_s": round(built_s, 1)}
    figures.update(queue_timings(home))
    latencies = asyncio.run(grade_latencies(home))
    figures.update({
        "grades_timed": len(latencies),
        "grade_to_next_card_painted_ms_median": round(statistics.median(latencies), 2),
        "grade_to_next_card_painted_ms_p90": round(statistics.quantiles(latencies, n=10)[-1], 2),
        "targets": {"grade_to_next_card_painted_ms_median": 16, "build_queue_ms_median": 20},
    })
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

"""Replay speed: an item's schedule rebuilt from its grades (drill.schedule.rebuild.replay_grades,
what a history import and a rebuild run once per stored review), in microseconds per review, for
each scheduler. Prints JSON.

Its baseline, measured in the same run: a bare loop over the same grades that builds one frozen
dataclass per review (the least a replay that yields states can do), with the ratio of the two.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass
from datetime import date, timedelta

from drill.schedule.rebuild import replay_grades

ITEMS = 20
BEST_OF = 5


@dataclass(frozen=True)
class _Bare:
    review_id: int
    day: date
    quality: int


def histories(reviews: int) -> list[list[tuple[int, date, int]]]:
    """ITEMS items' grades: same-day repeats, short and long gaps, mostly passes."""
    rng = random.Random(7)
    out = []
    for _ in range(ITEMS):
        day, grades = date(2022, 1, 1), []
        for review_id in range(reviews // ITEMS):
            day += timedelta(days=rng.choice((0, 0, 1, 1, 2, 5, 30)))
            grades.append((review_id, day, rng.choice((2, 3, 4, 4, 4, 4, 4, 4, 5))))
        out.append(grades)
    return out


def best_us_per_review(run, items: list[list[tuple[int, date, int]]]) -> float:
    """The fastest of BEST_OF runs of `run` over every item's grades, per review."""
    count = sum(map(len, items))
    best = float("inf")
    for _ in range(BEST_OF):
        start = time.perf_counter()
        for grades in items:
            run(grades)
        best = min(best, time.perf_counter() - start)
    return best / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reviews", type=int, default=100_000, help="grades replayed (default 100,000)")
    items = histories(parser.parse_args().reviews)
    bare = best_us_per_review(lambda grades: [_Bare(*grade) for grade in grades], items)
    report: dict[str, object] = {"reviews": sum(map(len, items)), "baseline_bare_loop_us": round(bare, 2)}
    for scheduler in ("sm2", "fsrs"):
        replay = best_us_per_review(lambda grades, name=scheduler: list(replay_grades(grades, name)), items)
        report[f"{scheduler}_replay_us_per_review"] = round(replay, 2)
        report[f"{scheduler}_to_baseline_ratio"] = round(replay / bare, 1)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

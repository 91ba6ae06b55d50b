"""Two processes grading one database at once, each in its own environment (a DRILL_HOME, or a
PostgreSQL URL): every grade kept, none twice, and two grades of one card counted once."""

from __future__ import annotations

import subprocess
import sys

GRADER = """
import sys
from drill.paths import Paths
from drill.study import Study
from drill.study.writes import write_grade
parity, items = int(sys.argv[1]), int(sys.argv[2])
study = Study.open(Paths.resolve())
mine = [card for card in study.reviews.cards([f"x-{i}" for i in range(items)]) if int(card.item_id[2:]) % 2 == parity]
print("ready", flush=True)
sys.stdin.readline()  # both start grading together
for card in mine:
    print(write_grade(study, study.reviews.grade(card, 3, 500)), card.item_id)
study.close()
"""
ITEMS = 1000  # 500 for each process


def grade_at_once(envs: list[dict[str, str]]) -> dict[int, str]:
    """Start one GRADER per environment (parities 0 and 1), let them grade together, check that
    each exited cleanly having graded exactly its own items; return review id → item id."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", GRADER, str(parity), str(ITEMS)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for parity, env in enumerate(envs)
    ]
    for process in processes:
        assert process.stdout.readline() == "ready\n", process.stderr.read()
    for process in processes:
        process.stdin.write("go\n")
        process.stdin.flush()
    outputs = [process.communicate(timeout=300) for process in processes]
    recorded = {}
    for parity, (process, (out, err)) in enumerate(zip(processes, outputs, strict=True)):
        assert (process.returncode, err) == (0, "")  # no "database is locked", duplicate key, nor anything else
        mine = dict(line.split() for line in out.splitlines())
        assert sorted(mine.values()) == sorted(f"x-{i}" for i in range(parity, ITEMS, 2))
        recorded |= {int(review_id): item_id for review_id, item_id in mine.items()}
    assert len(recorded) == ITEMS  # no review id handed to both processes
    return recorded


SAME_CARD = """
import sys
from drill.paths import Paths
from drill.study import Study
from drill.study.writes import write_grade
study = Study.open(Paths.resolve())
# both read the card before either writes
grade = study.reviews.grade(study.reviews.cards(["x-0"])[0], int(sys.argv[1]), 500)
print("ready", flush=True)
sys.stdin.readline()
write_grade(study, grade)
study.close()
"""


def grade_one_card_twice(envs: list[dict[str, str]], buttons: tuple[int, int] = (3, 1)) -> None:
    """Two processes show the card x-0 (never graded), then each grade it at once."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", SAME_CARD, str(button)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for button, env in zip(buttons, envs, strict=True)
    ]
    for process in processes:
        assert process.stdout.readline() == "ready\n", process.stderr.read()
    for process in processes:
        process.stdin.write("go\n")
        process.stdin.flush()
    for process in processes:
        _, err = process.communicate(timeout=120)
        assert (process.returncode, err) == (0, "")


REVIEWS_OF_ONE = """SELECT counted, reps_before, last_day_before, reps_after, interval_after
    FROM review WHERE item_id = 'x-0' ORDER BY id"""


def assert_counted_once(reviews: list[tuple], item: tuple) -> None:
    """Two grades of one card on one day, written from stale reads: the second is rebased on the
    first (its before is the first's after), only the first is counted, and the item moved once."""
    first, second = reviews
    assert (first[0], second[0]) == (True, False)
    assert first[1:3] == (0, None)
    assert second[1] == first[3] and second[2] is not None  # written against the state the first left
    assert item == (first[3], first[4])  # SM-2 moved once: repetitions and interval from the first grade

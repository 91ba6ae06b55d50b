"""Two drill processes grading against one database at once: nothing lost, no lock errors."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from conftest import write_deck

GRADER = """
import sys
from drill.paths import Paths
from drill.study import Study
parity, items = int(sys.argv[1]), int(sys.argv[2])
study = Study.open(Paths.resolve())
mine = [card for card in study.cards([f"x-{i}" for i in range(items)]) if int(card.item_id[2:]) % 2 == parity]
print("ready", flush=True)
sys.stdin.readline()  # both start grading together
for card in mine:
    print(study.record(study.grade(card, 3, 500)), card.item_id)
study.close()
"""
ITEMS = 1000  # 500 for each process


def grade_at_once(envs: list[dict[str, str]]) -> dict[int, str]:
    """Start one GRADER per environment (parities 0 and 1), let them grade together, check that
    each exited cleanly having graded exactly its own items; return review id → item id."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", GRADER, str(parity), str(ITEMS)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
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
    for parity, (process, (out, err)) in enumerate(zip(processes, outputs)):
        assert (process.returncode, err) == (0, "")  # no "database is locked", duplicate key, nor anything else
        mine = dict(line.split() for line in out.splitlines())
        assert sorted(mine.values()) == sorted(f"x-{i}" for i in range(parity, ITEMS, 2))
        recorded |= {int(review_id): item_id for review_id, item_id in mine.items()}
    assert len(recorded) == ITEMS  # no review id handed to both processes
    return recorded


def test_two_processes_grade_at_once(drill_home: Path) -> None:
    write_deck(drill_home / "decks", "many.toml", [(f"x-{i}", "memory") for i in range(ITEMS)])
    recorded = grade_at_once([dict(os.environ)] * 2)
    connection = sqlite3.connect(drill_home / "drill.db")
    assert dict(connection.execute("SELECT id, item_id FROM review")) == recorded
    assert connection.execute("SELECT COUNT(*) FROM item WHERE interval = 1").fetchone() == (ITEMS,)
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)

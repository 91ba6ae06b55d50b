"""Two drill processes grading against one database at once: nothing lost, no lock errors."""

import sqlite3
import subprocess
import sys
from pathlib import Path

from conftest import write_deck

GRADER = """
import sys
from drill.paths import Paths
from drill.study import Study
study = Study.open(Paths.resolve())
mine = [card for card in study.cards([f"x-{i}" for i in range(400)]) if int(card.item_id[2:]) % 2 == int(sys.argv[1])]
for card in mine:
    study.record(study.grade(card, 3, 500))
print(len(mine))
"""


def test_two_processes_grade_at_once(drill_home: Path) -> None:
    write_deck(drill_home / "decks", "many.toml", [(f"x-{i}", "memory") for i in range(400)])
    processes = [
        subprocess.Popen([sys.executable, "-c", GRADER, parity], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for parity in ("0", "1")
    ]
    outputs = [process.communicate(timeout=120) for process in processes]
    for process, (out, err) in zip(processes, outputs):
        assert process.returncode == 0, err
        assert "locked" not in err
    graded = sum(int(out) for out, _ in outputs)
    assert graded == 400
    connection = sqlite3.connect(drill_home / "drill.db")
    assert connection.execute("SELECT COUNT(*) FROM review").fetchone() == (400,)
    assert connection.execute("SELECT COUNT(*) FROM item WHERE interval = 1").fetchone() == (400,)
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)

"""The app grades while `drill import --history` of 200,000 reviews runs in another process on the
same SQLite file: every grade is stored (none waits out the busy timeout), and afterwards every
item's review rows and schedule are what replaying its whole stored history gives."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from drill.paths import Paths
from drill.schedule.grading import ItemState
from drill.schedule.rebuild import replay_grades
from drill.store import review_log
from drill.study import Study
from drill.study.writes import write_grade

ROWS = 200_000
GRADES = """SELECT item_id, id, study_day, quality, counted, reps_after, interval_after FROM review
    WHERE cram = FALSE OR counted = TRUE ORDER BY item_id, reviewed_at, id"""


def card_id(item_id: str) -> int:
    return int.from_bytes(hashlib.sha256(item_id.encode()).digest(), "big") >> (256 - 53)


def write_history(path: Path, item_ids: list[str]) -> None:
    """ROWS reviews of random items over the year before the last hour."""
    rng = random.Random(5)
    end = int((datetime.now(UTC) - timedelta(hours=1)).timestamp() * 1000)
    start = end - 365 * 86_400_000
    cards = [card_id(item_id) for item_id in item_ids]
    with path.open("w") as out:
        out.write("card_id,review_time,review_rating,review_duration\n")
        for n in range(ROWS):
            out.write(f"{rng.choice(cards)},{start + n * (end - start) // ROWS},{rng.choice((1, 2, 3, 3, 4))},900\n")


@pytest.mark.slow
def test_grades_given_while_a_large_history_imports_are_all_kept_and_replayed(drill_home: Path, tmp_path: Path) -> None:
    paths = Paths.resolve()
    paths.ensure()
    paths.config.write_text("fuzz = false\n")  # due days exactly as a replay gives them
    app = Study.open(paths)
    item_ids = review_log.item_ids(app.engine)
    source = tmp_path / "history.csv"
    write_history(source, item_ids)
    rng = random.Random(9)
    graded: list[datetime] = []
    slowest = 0.0
    importer = subprocess.Popen(
        [sys.executable, "-m", "drill", "import", "--history", str(source), "--json"],
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while importer.poll() is None:
            card = app.reviews.cards([rng.choice(item_ids)])[0]
            grade = app.reviews.grade(card, rng.choice((1, 3, 4)), 1000)
            started = time.monotonic()
            write_grade(app, grade)  # raises if it waited out the busy timeout
            slowest = max(slowest, time.monotonic() - started)
            graded.append(grade.reviewed_at)
            time.sleep(0.02)
        _, err = importer.communicate(timeout=60)
        assert importer.returncode == 0, err
        assert len(graded) >= 20, "the import ended before the app could grade much"
        assert slowest < 10, f"a grade waited {slowest:.1f} s for the import's write lock"

        stored = [review.reviewed_at for review in review_log.stream_reviews(app.engine)]
        assert len(stored) == ROWS + len(graded)
        assert set(graded) <= set(stored)

        histories: dict[str, list] = {item_id: [] for item_id in item_ids}
        with app.engine.connect() as connection:
            for row in connection.execute(text(GRADES)):
                histories[row.item_id].append(row)
        states = {card.item_id: card.state for card in app.reviews.cards(item_ids)}
        for item_id, rows in histories.items():
            steps = list(
                replay_grades(
                    [(row.id, date.fromisoformat(row.study_day), row.quality) for row in rows], app.config.scheduler
                )
            )
            assert [(row.counted, row.reps_after, row.interval_after) for row in rows] == [
                (step.counted, step.after.repetitions, step.after.interval) for step in steps
            ], item_id
            assert states[item_id] == (steps[-1].after if steps else ItemState()), item_id
    finally:
        if importer.poll() is None:
            importer.kill()
            importer.wait()
        app.close()

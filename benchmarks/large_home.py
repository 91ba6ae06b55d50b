"""A DRILL_HOME with 10,000 items and 100,000 reviews, for the speed benchmarks."""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

BLOCKS = ("memory", "compute", "inference", "training", "communication")


def build(home: Path, items: int = 10_000, reviews: int = 100_000, today: date | None = None) -> Path:
    """Write a user deck of `items` cards, sync it, then add `reviews` past reviews directly."""
    from drill.paths import Paths
    from drill.study import Study

    today = today or datetime.now(UTC).astimezone().date()  # local on purpose: drill's due dates are local days
    rng = random.Random(7)
    decks = home / "decks"
    decks.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(items):
        lines.append(
            f'[[item]]\nid = "bench-{i:05d}"\nkind = "card"\nblock = "{BLOCKS[i % 5]}"\ntopic = "Topic {i % 40}"\n'
            f'prompt = "Benchmark prompt {i}: what is the KV cache of model {i}?"\n'
            f'answer = """\nCore answer for {i}.\n\n- point one `2·L·H·d·S·b`\n- point two\n"""\n'
            f'source = "benchmark"\n'
        )
    (decks / "bench.toml").write_text("\n".join(lines))
    study = Study.open(Paths(home))
    study.close()
    connection = sqlite3.connect(home / "drill.db")
    ids = [f"bench-{i:05d}" for i in range(items)]
    seen = ids[: int(items * 0.8)]
    rows = []
    start = datetime.now(UTC) - timedelta(days=365)
    for n in range(reviews):
        item = rng.choice(seen)
        when = start + timedelta(minutes=n * 5)
        rows.append(
            (
                item,
                when.isoformat(),
                when.date().isoformat(),
                rng.randint(1, 4),
                4,
                8000,
                1,
                1,
                6,
                2.5,
                None,
                None,
                2,
                15,
                2.5,
                (when.date() + timedelta(days=15)).isoformat(),
            )
        )
    connection.executemany(
        """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
        reps_before, interval_before, ease_before, due_before, last_day_before, reps_after, interval_after,
        ease_after, due_after) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""",
        rows,
    )
    states = []
    for item in seen:
        interval = rng.randint(1, 60)
        due = (today + timedelta(days=rng.randint(-30, 30))).isoformat()
        states.append((interval, due, (today - timedelta(days=interval)).isoformat(), float(interval), due, item))
    connection.executemany(
        """UPDATE item SET repetitions = 3, interval = ?, easiness = 2.5, due_day = ?, last_review_day = ?,
        fsrs_stability = ?, fsrs_difficulty = 5.0, fsrs_due_day = ? WHERE id = ?""",
        states,
    )
    # A store in use: every seen item has its FSRS memory (so opening it replays nothing).
    connection.commit()
    connection.close()
    return home

"""Two machines (processes with their own DRILL_HOME) on one PostgreSQL database: both sync the
same new content at once, then grade 500 items each at once; nothing is lost or doubled."""

from __future__ import annotations

import os
import subprocess
import sys

from sqlalchemy import create_engine, text

from conftest import write_deck
from test_concurrency import GRADER, ITEMS


def test_two_machines_grade_at_once(pg_url, tmp_path) -> None:
    homes = [tmp_path / "machine-a", tmp_path / "machine-b"]
    for home in homes:
        write_deck(home / "decks", "many.toml", [(f"x-{i}", "memory") for i in range(ITEMS)])
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", GRADER, parity, str(ITEMS)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "DRILL_HOME": str(home), "DRILL_DB_URL": pg_url},
        )
        for parity, home in zip(("0", "1"), homes)
    ]
    for process in processes:
        assert process.stdout.readline() == "ready\n", process.stderr.read()
    for process in processes:
        process.stdin.write("go\n")
        process.stdin.flush()
    outputs = [process.communicate(timeout=300) for process in processes]
    recorded = {}
    for parity, (process, (out, err)) in enumerate(zip(processes, outputs)):
        assert (process.returncode, err) == (0, "")  # both synced the new items at once: no duplicate-key error
        mine = dict(line.split() for line in out.splitlines())
        assert sorted(mine.values()) == sorted(f"x-{i}" for i in range(parity, ITEMS, 2))
        recorded |= {int(review_id): item_id for review_id, item_id in mine.items()}
    assert len(recorded) == ITEMS  # no review id handed to both machines
    engine = create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            assert dict(connection.execute(text("SELECT id, item_id FROM review")).all()) == recorded
            assert connection.execute(text("SELECT COUNT(*) FROM item WHERE id LIKE 'x-%'")).scalar_one() == ITEMS
            assert connection.execute(text("SELECT COUNT(*) FROM item WHERE interval = 1")).scalar_one() == ITEMS
    finally:
        engine.dispose()
    assert not any((home / "drill.db").exists() for home in homes)

"""CodingAttempt: a test run as the drill screen hands it over, and the coding_attempt row it becomes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text

from drill.coding.attempt import CodingAttempt
from drill.coding.runner.result import TestRun
from drill.store.coding import record_attempt
from drill.store.engine import open_engine

STARTED = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
FINISHED = datetime(2026, 11, 22, 12, 5, tzinfo=UTC)


def test_an_attempt_takes_the_runs_verdict() -> None:
    run = TestRun(status="fail", passed=2, failed=1, device="cuda", speed_ratio=1.4, reason="1 failing")
    attempt = CodingAttempt.of(run, "kernel:vector-add", STARTED, FINISHED, 1, 312.5, "/ws/1")
    assert attempt == CodingAttempt(
        "kernel:vector-add", STARTED, FINISHED, "fail", 2, 1, "cuda", 1, 312.5, 1.4, "/ws/1"
    )


def test_its_row_fills_every_column_but_the_ids(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "d.db")
    with engine.begin() as connection:
        connection.execute(
            text("""INSERT INTO item (id, kind, block, topic, deck, position, prompt, answer, source,
            content_hash, created_at, updated_at) VALUES ('kernel:vector-add', 'coding', 'compute', 'Triton',
            'kernels', 0, 'p', 'a', 's', 'h', :at, :at)"""),
            {"at": STARTED},
        )
        columns = {row[1] for row in connection.execute(text("PRAGMA table_info(coding_attempt)"))}
    attempt = CodingAttempt("kernel:vector-add", STARTED, FINISHED, "pass", 3, 0, "cpu", 0, 200.0, None, "/ws/2")
    assert set(attempt.row()) == columns - {"id", "review_id"}
    assert record_attempt(engine, attempt, None, lambda _grade, state: state) is None
    with engine.connect() as connection:
        stored = connection.execute(
            text("""SELECT item_id, status, passed, failed, device, hints_used, seconds,
            speed_ratio, workspace FROM coding_attempt""")
        ).one()
    assert tuple(stored) == ("kernel:vector-add", "pass", 3, 0, "cpu", 0, 200.0, None, "/ws/2")

"""The schema as an ordered list of migrations, tracked by SQLite's user_version.

Never edit a shipped migration: append a new one. A database written by any earlier release
opens and is brought up to date inside one transaction.
"""

from __future__ import annotations

import sqlite3

MIGRATIONS: list[str] = [
    # 1: items, their text history, and reviews.
    """
    CREATE TABLE item (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        block TEXT NOT NULL,
        topic TEXT NOT NULL,
        deck TEXT NOT NULL,
        position INTEGER NOT NULL,
        prompt TEXT NOT NULL,
        answer TEXT NOT NULL,
        source TEXT NOT NULL,
        points TEXT NOT NULL DEFAULT '[]',
        target_seconds INTEGER,
        content_hash TEXT NOT NULL,
        repetitions INTEGER NOT NULL DEFAULT 0,
        interval INTEGER NOT NULL DEFAULT 0,
        easiness FLOAT NOT NULL DEFAULT 2.5,
        due_day DATE,
        last_review_day DATE,
        suspended BOOLEAN NOT NULL DEFAULT 0,
        retired BOOLEAN NOT NULL DEFAULT 0,
        created_at DATETIME NOT NULL,
        updated_at DATETIME NOT NULL
    );
    CREATE TABLE item_revision (
        id INTEGER PRIMARY KEY,
        item_id TEXT NOT NULL REFERENCES item(id),
        content_hash TEXT NOT NULL,
        prompt TEXT NOT NULL,
        answer TEXT NOT NULL,
        replaced_at DATETIME NOT NULL
    );
    CREATE TABLE review (
        id INTEGER PRIMARY KEY,
        item_id TEXT NOT NULL REFERENCES item(id),
        reviewed_at DATETIME NOT NULL,
        study_day DATE NOT NULL,
        button INTEGER NOT NULL,
        quality INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        counted BOOLEAN NOT NULL,
        reps_before INTEGER NOT NULL,
        interval_before INTEGER NOT NULL,
        ease_before FLOAT NOT NULL,
        due_before DATE,
        last_day_before DATE,
        reps_after INTEGER NOT NULL,
        interval_after INTEGER NOT NULL,
        ease_after FLOAT NOT NULL,
        due_after DATE
    );
    """,
    # 2: indexes for the queue, the home counts and per-item history.
    """
    CREATE INDEX ix_item_due ON item (retired, suspended, due_day, kind, block, position, id);
    CREATE INDEX ix_item_new ON item (retired, suspended, last_review_day, kind, block, position, id);
    CREATE INDEX ix_review_item ON review (item_id, reviewed_at);
    CREATE INDEX ix_review_day ON review (study_day);
    """,
    # 3: estimation attempts and mock rounds, coding-drill attempts.
    """
    CREATE TABLE mock_round (
        id INTEGER PRIMARY KEY,
        started_at DATETIME NOT NULL,
        finished_at DATETIME,
        problems INTEGER NOT NULL,
        time_limit_s INTEGER NOT NULL,
        blocks TEXT NOT NULL,
        score FLOAT,
        abandoned BOOLEAN NOT NULL DEFAULT 0
    );
    CREATE TABLE estimate_attempt (
        id INTEGER PRIMARY KEY,
        item_id TEXT NOT NULL REFERENCES item(id),
        review_id INTEGER REFERENCES review(id) ON DELETE SET NULL,
        mock_round_id INTEGER REFERENCES mock_round(id),
        attempted_at DATETIME NOT NULL,
        params TEXT NOT NULL,
        answer TEXT NOT NULL,
        parsed FLOAT,
        truth FLOAT NOT NULL,
        unit TEXT NOT NULL,
        score FLOAT NOT NULL,
        log_error FLOAT,
        slip TEXT,
        error TEXT,
        seconds FLOAT NOT NULL
    );
    CREATE INDEX ix_estimate_item ON estimate_attempt (item_id, attempted_at);
    CREATE TABLE coding_attempt (
        id INTEGER PRIMARY KEY,
        item_id TEXT NOT NULL REFERENCES item(id),
        review_id INTEGER REFERENCES review(id) ON DELETE SET NULL,
        started_at DATETIME NOT NULL,
        finished_at DATETIME NOT NULL,
        status TEXT NOT NULL,
        passed INTEGER NOT NULL,
        failed INTEGER NOT NULL,
        device TEXT NOT NULL,
        hints_used INTEGER NOT NULL DEFAULT 0,
        seconds FLOAT NOT NULL,
        speed_ratio FLOAT,
        workspace TEXT NOT NULL
    );
    CREATE INDEX ix_coding_item ON coding_attempt (item_id, started_at);
    """,
    # 4: indexes for the stats, covering what the figures read: reviews per study day, and per
    # item with the day (a block filter, the pitch ladder); estimation attempts per family over
    # time and in order of error (medians); a mock round's attempts.
    """
    CREATE INDEX ix_review_stats_day ON review (study_day, counted, interval_before, button, duration_ms);
    CREATE INDEX ix_review_stats_item ON review (item_id, study_day, counted, interval_before, button, duration_ms);
    CREATE INDEX ix_estimate_stats ON estimate_attempt (item_id, attempted_at, score, log_error, slip);
    CREATE INDEX ix_estimate_error ON estimate_attempt (item_id, log_error, attempted_at);
    CREATE INDEX ix_estimate_round ON estimate_attempt (mock_round_id);
    """,
    # 5: FSRS memory per item, kept beside SM-2's whichever scheduler is in use (predicted
    # recall, switching schedulers), and small facts about the store (which scheduler set the
    # due days).
    """
    ALTER TABLE item ADD COLUMN fsrs_stability FLOAT;
    ALTER TABLE item ADD COLUMN fsrs_difficulty FLOAT;
    ALTER TABLE item ADD COLUMN fsrs_due_day DATE;
    CREATE TABLE store_fact (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)


class NewerDatabaseError(Exception):
    """The database was written by a newer drill than this one."""


def migrate(connection: sqlite3.Connection) -> int:
    """Apply every pending migration; return how many ran."""
    if _version(connection) == SCHEMA_VERSION:
        return 0
    connection.execute("BEGIN IMMEDIATE")  # another process may be migrating: wait, then re-read
    try:
        version = _version(connection)
        pending = MIGRATIONS[version:]
        for number, script in enumerate(pending, start=version + 1):
            for statement in filter(str.strip, script.split(";")):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number}")
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return len(pending)


def _version(connection: sqlite3.Connection) -> int:
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise NewerDatabaseError(
            f"the database has schema {version}, newer than this drill's {SCHEMA_VERSION}; upgrade drill"
        )
    return version

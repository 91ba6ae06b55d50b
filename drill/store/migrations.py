"""The schema as an ordered list of migrations, tracked by SQLite's user_version (on PostgreSQL,
by the one-row table schema_version).

Never edit a shipped migration: append a new one. A database written by any earlier release
opens and is brought up to date inside one write transaction (on PostgreSQL that transaction
holds the store's write lock, so two machines opening a new database at once migrate it once).
The scripts are SQLite's DDL; PostgreSQL runs the same scripts with its own types.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from drill.errors import UserFacingError

if TYPE_CHECKING:
    from sqlalchemy import Connection

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
    # 6: mock interviews (one countdown over grill, pitch, estimation and coding sections) and
    # their answers; a graded answer points at the review it also was.
    """
    CREATE TABLE mock_interview (
        id INTEGER PRIMARY KEY,
        started_at DATETIME NOT NULL,
        finished_at DATETIME,
        seconds_allowed INTEGER NOT NULL,
        seconds_used FLOAT,
        sections TEXT NOT NULL,
        grill_score FLOAT,
        pitch_score FLOAT,
        estimate_score FLOAT,
        coding_score FLOAT,
        score FLOAT,
        ended TEXT,
        abandoned BOOLEAN NOT NULL DEFAULT 0
    );
    CREATE TABLE mock_interview_answer (
        id INTEGER PRIMARY KEY,
        interview_id INTEGER NOT NULL REFERENCES mock_interview(id),
        position INTEGER NOT NULL,
        section TEXT NOT NULL,
        item_id TEXT NOT NULL REFERENCES item(id),
        review_id INTEGER REFERENCES review(id) ON DELETE SET NULL,
        answered_at DATETIME NOT NULL,
        button INTEGER,
        score FLOAT NOT NULL,
        seconds FLOAT NOT NULL,
        target_seconds INTEGER,
        answer TEXT,
        result TEXT,
        detail TEXT
    );
    CREATE INDEX ix_interview_answer ON mock_interview_answer (interview_id, position);
    CREATE INDEX ix_interview_started ON mock_interview (started_at);
    """,
    # 7: the item's FSRS memory just before each review (NULL before its first), so calibration
    # reads FSRS's prediction for a review as SM-2's from the row. Rows written before this have
    # none: the partial index lists those with an earlier review (a before-state with a last day),
    # which opening replays once (reschedule.reviews_without_memory); kept up to date, it is empty.
    """
    ALTER TABLE review ADD COLUMN fsrs_stability_before FLOAT;
    ALTER TABLE review ADD COLUMN fsrs_difficulty_before FLOAT;
    CREATE INDEX ix_review_without_memory ON review (item_id)
        WHERE fsrs_stability_before IS NULL AND last_day_before IS NOT NULL;
    """,
    # 8: an item's errata: where the source notes are wrong and why, kept apart from the answer.
    """
    ALTER TABLE item ADD COLUMN errata TEXT;
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)

# SQLite type → PostgreSQL type, applied to each script on PostgreSQL.
POSTGRES_TYPES: list[tuple[str, str]] = [
    (r"\bINTEGER PRIMARY KEY\b", "INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),  # SQLite's rowid ids
    (r"\bDATETIME\b", "TIMESTAMP WITH TIME ZONE"),  # the store writes aware UTC moments
    (r"\bFLOAT\b", "DOUBLE PRECISION"),
    (r"\b(BOOLEAN NOT NULL DEFAULT) 0\b", r"\1 FALSE"),
    (r"\b(BOOLEAN NOT NULL DEFAULT) 1\b", r"\1 TRUE"),
]
VERSION_TABLE = "schema_version"


class NewerDatabaseError(UserFacingError):
    """The database was written by a newer drill than this one."""


def statements(script: str, postgres: bool) -> list[str]:
    """A migration script's statements, in PostgreSQL's types when `postgres`."""
    found = [statement.strip() for statement in script.split(";") if statement.strip()]
    if postgres:
        for pattern, replacement in POSTGRES_TYPES:
            found = [re.sub(pattern, replacement, statement) for statement in found]
    return found


def schema_version(connection: "Connection") -> int:
    """The schema version of the database (0 when new); refuses one newer than this drill's."""
    if _postgres(connection):
        exists = connection.exec_driver_sql(f"SELECT to_regclass('{VERSION_TABLE}')").scalar() is not None
        version = connection.exec_driver_sql(f"SELECT version FROM {VERSION_TABLE}").scalar() if exists else None
    else:
        version = connection.exec_driver_sql("PRAGMA user_version").scalar()
    version = version or 0
    if version > SCHEMA_VERSION:
        raise NewerDatabaseError(
            f"the database has schema {version}, newer than this drill's {SCHEMA_VERSION}; upgrade drill"
        )
    return version


def migrate(connection: "Connection") -> int:
    """Apply every pending migration inside the caller's write transaction; return how many ran."""
    postgres = _postgres(connection)
    if postgres:
        # Created before the version is read: creating it (or finding it) refreshes this session's
        # view of the catalog, which may predate the migration another machine committed while
        # this transaction waited for the lock.
        connection.exec_driver_sql(f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER NOT NULL)")
        connection.exec_driver_sql(
            f"INSERT INTO {VERSION_TABLE} (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM {VERSION_TABLE})"
        )
    version = schema_version(connection)
    pending = MIGRATIONS[version:]
    for number, script in enumerate(pending, start=version + 1):
        for statement in statements(script, postgres):
            connection.exec_driver_sql(statement)
        if postgres:
            connection.exec_driver_sql(f"UPDATE {VERSION_TABLE} SET version = {number}")
        else:
            connection.exec_driver_sql(f"PRAGMA user_version = {number}")
    return len(pending)


def _postgres(connection: "Connection") -> bool:
    return connection.dialect.name == "postgresql"

"""1: items, their text history, and reviews."""

from drill.store.ddl import run

revision = "0001"
down_revision = None

SCRIPT = """
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
"""


def upgrade() -> None:
    run(SCRIPT)

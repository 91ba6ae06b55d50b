"""3: estimation attempts and mock rounds, coding-drill attempts."""

from drill.store.ddl import run

revision = "0003"
down_revision = "0002"

SCRIPT = """
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
"""


def upgrade() -> None:
    run(SCRIPT)

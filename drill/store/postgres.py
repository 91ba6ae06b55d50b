"""The store on PostgreSQL, when DRILL_DB_URL names a database, so that machines share progress.

- DRILL_DB_URL is `postgresql://user[:password]@host[:port]/db` (or `postgresql+psycopg://…`),
  driven by psycopg 3 (the `postgres` extra). The schema and migrations are the SQLite ones.
- Every write transaction (drill.store.transactions.writing) first takes one transaction-level
  advisory lock, so writes queue one behind another as SQLite's BEGIN IMMEDIATE makes them:
  two machines syncing content or grading at once never insert the same ids twice, and each
  write reads what the one before it committed. Reads take no lock.
- No wait is unbounded: the write lock is waited for at most LOCK_TIMEOUT (lock_timeout, which
  covers advisory locks), a statement runs at most STATEMENT_TIMEOUT, and a session that sits
  idle inside a transaction (a stuck client holding the write lock) is ended by the server after
  IDLE_IN_TRANSACTION_TIMEOUT, releasing the lock. A write that times out waiting is retried by
  the app's writer, which says on screen that another drill is writing.
- Anything that stops the database from opening (no driver, a malformed URL, a server that
  refuses) is one DatabaseUrlError naming the URL with its password masked.

SQLAlchemy loads only when a database is opened (this module is imported by the CLI's error
handling, which must stay light).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from drill.errors import UserFacingError

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

ENV = "DRILL_DB_URL"
DRIVER = "postgresql+psycopg://"
SCHEMES = ("postgresql://", DRIVER)
WRITE_LOCK = 0x6472696C6C  # "drill" in ASCII: the advisory lock key of every write transaction
CONNECT_TIMEOUT_S = 10
LOCK_TIMEOUT = "5s"
STATEMENT_TIMEOUT = "120s"
IDLE_IN_TRANSACTION_TIMEOUT = "60s"
SESSION_OPTIONS = (
    f"-c lock_timeout={LOCK_TIMEOUT} -c statement_timeout={STATEMENT_TIMEOUT} "
    f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_TIMEOUT}"
)


class DatabaseUrlError(UserFacingError):
    """DRILL_DB_URL cannot be opened; the message names it (password masked) and says why."""


def database_url() -> str | None:
    """DRILL_DB_URL, or None when the store is the embedded SQLite file."""
    return os.environ.get(ENV) or None


def masked(url: str) -> str:
    """`url` with any password replaced by ***."""
    url = re.sub(r"(://[^/@:]*):[^/@]*@", r"\1:***@", url)
    return re.sub(r"(password=)[^&]*", r"\1***", url)


def _driver_url(url: str) -> str:
    for scheme in SCHEMES:
        if url.startswith(scheme):
            return DRIVER + url.removeprefix(scheme)
    raise ValueError("it must start with postgresql:// or postgresql+psycopg://")


def _lock_writes(connection: Connection) -> None:
    from drill.store.busy import acquiring_write_lock

    if connection.get_execution_options().get("write"):
        with acquiring_write_lock():
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})")


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def open_postgres(url: str) -> Engine:
    """An engine on the database `url` names, migrated; DatabaseUrlError when it cannot be opened."""
    from sqlalchemy import create_engine, event
    from sqlalchemy.exc import ArgumentError, DBAPIError

    from drill.store.transactions import migrated

    def failure(reason: str) -> DatabaseUrlError:
        return DatabaseUrlError(f"cannot open DRILL_DB_URL {masked(url)}: {reason}")

    try:
        engine = create_engine(
            _driver_url(url),
            connect_args={"connect_timeout": CONNECT_TIMEOUT_S, "options": SESSION_OPTIONS},
            pool_pre_ping=True,
        )
    except ImportError:
        raise failure("the psycopg driver is not installed (pip install 'drill[postgres]')") from None
    except (ValueError, ArgumentError) as error:
        raise failure(_one_line(error)) from None
    event.listen(engine, "begin", _lock_writes)
    try:
        return migrated(engine)
    except DBAPIError as error:
        raise failure(_one_line(error.orig or error)) from None

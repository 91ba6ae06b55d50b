"""The schema's version, read on every open with plain SQL, and bringing a database up to date
with Alembic (imported only then).

The revisions are drill/store/revisions/versions/NNNN_*.py: never edit a shipped one, add the next
and move HEAD. A database written by any earlier drill opens and is brought up to date inside one
write transaction (on PostgreSQL that transaction holds the store's write lock, so two machines
opening a new database at once migrate it once). Databases from before Alembic kept their version
in SQLite's user_version or PostgreSQL's one-row schema_version table: they are stamped at that
revision, then upgraded. Both are still kept in step, so an older drill refuses a newer database
and a backup's version reads without Alembic.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from drill.errors import UserFacingError

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy import Connection

HEAD = "0017"
SCHEMA_VERSION = int(HEAD)
SCRIPTS = Path(__file__).with_name("revisions")  # Alembic's script directory: env.py and versions/
ALEMBIC_TABLE = "alembic_version"
LEGACY_TABLE = "schema_version"  # PostgreSQL before Alembic (SQLite kept PRAGMA user_version)
CREATE_ALEMBIC_TABLE = (
    f"CREATE TABLE IF NOT EXISTS {ALEMBIC_TABLE} (version_num VARCHAR(32) NOT NULL, "
    f"CONSTRAINT {ALEMBIC_TABLE}_pkc PRIMARY KEY (version_num))"
)


class NewerDatabaseError(UserFacingError):
    """The database was written by a newer drill than this one."""


def schema_version(connection: Connection) -> int:
    """The schema version of the database (0 when new); refuses one newer than this drill's."""
    return _versions(connection)[0]


def up_to_date(connection: Connection) -> bool:
    """Whether Alembic has the database at HEAD (what every open checks; no Alembic import)."""
    return _versions(connection)[1] == SCHEMA_VERSION


def _versions(connection: Connection) -> tuple[int, int | None]:
    """(the schema version, Alembic's stamp or None); refuses a database newer than this drill."""
    stamped = _stamped(connection)
    version = _legacy_version(connection) if stamped is None else stamped
    if version > SCHEMA_VERSION:
        raise NewerDatabaseError(
            f"the database has schema {version}, newer than this drill's {SCHEMA_VERSION}; upgrade drill"
        )
    return version, stamped


def migrate(connection: Connection, on_revision: Callable[[int, int], object] = lambda _step, _of: None) -> int:
    """Apply every pending revision inside the caller's write transaction; return how many ran.
    Upgrading a database that had a schema, `on_revision(step, of)` is told as each revision
    begins (creating a new database is said to no one)."""
    if _postgres(connection):
        # Created before the version is read: creating it (or finding it) refreshes this session's
        # view of the catalog, which may predate the migration another machine committed while
        # this transaction waited for the lock.
        connection.exec_driver_sql(CREATE_ALEMBIC_TABLE)
    version, stamped = _versions(connection)
    pending = SCHEMA_VERSION - version
    told = on_revision if version else lambda _step, _of: None
    if pending:
        told(1, pending)
    from alembic import command

    config = alembic_config(connection)
    if stamped is None and version:
        command.stamp(config, f"{version:04d}")
    applied = 0

    def next_begins(**_applied: object) -> None:
        nonlocal applied
        applied += 1
        if applied < pending:
            told(applied + 1, pending)

    config.attributes["on_version_apply"] = next_begins
    command.upgrade(config, "head")
    _keep_legacy_version(connection)
    return pending


def alembic_config(connection: Connection) -> Config:
    """Alembic's configuration for running drill's revisions on `connection` (imports Alembic)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    config.attributes["connection"] = connection
    return config


def _stamped(connection: Connection) -> int | None:
    """Alembic's revision of the database as a number (None where Alembic has not stamped it)."""
    if not _has_table(connection, ALEMBIC_TABLE):
        return None
    revision = connection.exec_driver_sql(f"SELECT version_num FROM {ALEMBIC_TABLE}").scalar()
    if revision is None:
        return None
    if not revision.isdigit():
        raise NewerDatabaseError(f"the database has schema revision {revision!r}, unknown to this drill; upgrade drill")
    return int(revision)


def _legacy_version(connection: Connection) -> int:
    if not _postgres(connection):
        return connection.exec_driver_sql("PRAGMA user_version").scalar() or 0
    if not _has_table(connection, LEGACY_TABLE):
        return 0
    return connection.exec_driver_sql(f"SELECT version FROM {LEGACY_TABLE}").scalar() or 0


def _keep_legacy_version(connection: Connection) -> None:
    """Older drills read these: keep them at HEAD so they refuse this schema."""
    if not _postgres(connection):
        connection.exec_driver_sql(f"PRAGMA user_version = {SCHEMA_VERSION}")
    elif _has_table(connection, LEGACY_TABLE):
        connection.exec_driver_sql(f"UPDATE {LEGACY_TABLE} SET version = {SCHEMA_VERSION}")


def _has_table(connection: Connection, name: str) -> bool:
    if _postgres(connection):
        return connection.exec_driver_sql(f"SELECT to_regclass('{name}')").scalar() is not None
    found = connection.exec_driver_sql(f"SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '{name}'")
    return found.scalar() is not None


def _postgres(connection: Connection) -> bool:
    return connection.dialect.name == "postgresql"

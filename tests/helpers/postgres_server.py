"""A throwaway PostgreSQL server, started once per session from Debian's binaries (initdb, pg_ctl)
in a temporary folder, reached only through a Unix socket there; a fresh database per test, named
to drill through DRILL_DB_URL. Import the fixtures by name: `pg_server`, `pg_url`.

A test that asks for them skips, with the reason, where the binaries are missing or the server
cannot start (.ci/run installs Debian's postgresql package). initdb refuses to run as root, so as
root the server runs as the `postgres` system user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SUPERUSER = "drill"


@dataclass(frozen=True)
class Server:
    socket_dir: Path
    port: int

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket_dir}&port={self.port}"

    def create_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(
            host=str(self.socket_dir), port=self.port, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)


def _binaries() -> Path | None:
    """The newest folder holding initdb and pg_ctl (Debian keeps them off PATH), else PATH's."""
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    for folder in sorted(versions, key=lambda path: int(Path(path).parent.name), reverse=True):
        if Path(folder, "initdb").exists() and Path(folder, "pg_ctl").exists():
            return Path(folder)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _as_server_user(root: Path) -> list[str]:
    """The command prefix that runs the server binaries as an unprivileged user."""
    if os.geteuid() != 0:
        return []
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("running as root and there is no `postgres` system user to run the PostgreSQL server as")
    if not shutil.which("runuser"):
        pytest.skip("running as root and runuser is missing: cannot run the PostgreSQL server unprivileged")
    os.chown(root, user.pw_uid, user.pw_gid)
    return ["runuser", "-u", "postgres", "--"]


def _run(command: list[str], what: str) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        pytest.skip(f"PostgreSQL {what} failed: {(result.stderr or result.stdout).strip()[-500:]}")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    pytest.importorskip("psycopg", reason="psycopg (the postgres extra) is not installed")
    binaries = _binaries()
    if binaries is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install postgresql")
    root = Path(tempfile.mkdtemp(prefix="drill-pg-"))
    try:
        prefix = _as_server_user(root)
        data = root / "data"
        _run(
            [
                *prefix,
                str(binaries / "initdb"),
                "-D",
                str(data),
                "-U",
                SUPERUSER,
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
            "initdb",
        )
        port = _free_port()
        options = (
            f"-k {root} -p {port} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        _run(
            [
                *prefix,
                str(binaries / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(root / "server.log"),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                "start",
            ],
            "server start",
        )
        try:
            yield Server(root, port)
        finally:
            subprocess.run(
                [*prefix, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                capture_output=True,
                timeout=60,
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: Server, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh database for this test, set as DRILL_DB_URL."""
    url = pg_server.create_database()
    monkeypatch.setenv("DRILL_DB_URL", url)
    return url

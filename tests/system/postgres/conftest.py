"""Every test here runs against the throwaway PostgreSQL server of helpers/postgres_server.py."""

from helpers.postgres_server import pg_server, pg_url  # noqa: F401  (fixtures)

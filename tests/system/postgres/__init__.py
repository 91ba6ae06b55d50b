"""The store on a real PostgreSQL server (a package, so its conftest does not shadow tests/conftest.py)."""

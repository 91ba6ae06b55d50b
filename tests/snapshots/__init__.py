"""Screen snapshots at 80×24 and 120×36 (a package, so its conftest does not shadow tests/conftest.py)."""

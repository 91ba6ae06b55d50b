"""Fixtures of the estimation tests: the shipped catalogs as plain TOML, read without drill, so a test
can recompute a figure independently of the loader that binds catalog fields to parameters."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"


@pytest.fixture(scope="session")
def catalogs() -> dict[str, dict[str, dict[str, Any]]]:
    """{'models': {id: fields}, 'gpus': …, 'networks': …, 'precisions': …} straight from the files."""
    out = {}
    for name in ("models", "gpus", "networks", "precisions"):
        data = tomllib.loads((PROBLEMS / f"{name}.toml").read_text(encoding="utf-8"))
        out[name] = {key: value for key, value in data.items() if isinstance(value, dict)}
    return out

"""The FSRS parameters fitted to this store's own reviews (`drill scheduler optimize`).

They live in the store (a store_fact), not in config.toml: they are a fact about the reviews in
this database, so they go with it through a backup, a restore or a move to PostgreSQL, and a
fresh database starts from FSRS's defaults rather than from another history's fit.
"""

from __future__ import annotations

import json
import math

from sqlalchemy import Engine

from drill.store import facts
from drill.store.facts import read_fact, write_fact
from drill.store.transactions import writing


def read_parameters(engine: Engine) -> tuple[float, ...] | None:
    """The fitted parameters, or None when none were fitted (or what is stored is not a list of numbers)."""
    stored = read_fact(engine, facts.FSRS_PARAMETERS)
    if stored is None:
        return None
    try:
        values = json.loads(stored)
    except ValueError:
        return None
    if not isinstance(values, list) or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in values):
        return None
    return tuple(float(v) for v in values)


def write_parameters(engine: Engine, parameters: tuple[float, ...] | None) -> None:
    """Store fitted parameters (None forgets them: FSRS goes back to its defaults)."""
    with writing(engine) as connection:
        write_fact(connection, facts.FSRS_PARAMETERS, None if parameters is None else json.dumps(list(parameters)))

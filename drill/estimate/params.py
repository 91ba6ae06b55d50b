"""Parameter values from the command line or a stored problem: `key=value` → checked dict.

Values are numbers (safe-parsed: `8192`, `1.2e9`, `2**30`, `50GB/s` where the parameter
declares a unit) or catalog entry names for draws (`model=llama-3-70b`, any case, or
the display name `Llama-3-70B`). A draw fills the parameters bound to it; explicit
values win over the catalog's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from drill.estimate.parser import AnswerError, parse_value
from drill.estimate.schema import Family
from drill.estimate.units import FAMILY_UNITS
from drill.words import noun_for

Value = int | float | str


class ParamError(ValueError):
    """Parameters that do not fit the family; the message names the culprit."""


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """['layers=80', 'model=llama-3-70b'] → {'layers': '80', 'model': 'llama-3-70b'}."""
    out: dict[str, str] = {}
    for item in items:
        if not isinstance(item, str) or "=" not in item:
            raise ParamError(f"expected key=value, got {item!r}")
        key, value = (s.strip() for s in item.split("=", 1))
        if not key:
            raise ParamError(f"missing name in {item!r}")
        if key in out:
            raise ParamError(f"{key} given twice")
        out[key] = value
    return out


def _number(family: Family, name: str, raw: Any) -> int | float:
    spec = family.params[name]
    if isinstance(raw, bool):
        raise ParamError(f"{name}: expected a number")
    if isinstance(raw, (int, float)):
        value: float = raw
    else:
        want = FAMILY_UNITS[spec.unit] if spec.unit else None
        try:
            value = parse_value(str(raw), want)
        except AnswerError as exc:
            raise ParamError(f"{name}: {exc}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ParamError(f"{name}: must be a finite number")
    if spec.range is not None:
        lo, hi = spec.range
        if not lo <= value <= hi:
            raise ParamError(f"{name}: must be between {lo:g} and {hi:g}")
    elif value <= 0:
        raise ParamError(f"{name}: must be positive")
    if spec.is_integer:
        if float(value) != int(value):
            raise ParamError(f"{name}: must be a whole number")
        return int(value)
    return float(value) if isinstance(value, float) else value


def complete(family: Family, given: Mapping[str, Any]) -> dict[str, Value]:
    """Check and complete parameters: expand draws, apply defaults, convert numbers.

    Raises ParamError for unknown names, unknown or excluded catalog entries, bad values
    and missing parameters (all missing names at once).
    """
    unknown = [k for k in given if k not in family.params and k not in family.draws]
    if unknown:
        known = ", ".join(list(family.params) + list(family.draws))
        raise ParamError(
            f"unknown {noun_for(len(unknown), 'parameter')} {', '.join(unknown)} for {family.id}; known: {known}"
        )
    out: dict[str, Value] = {}
    for dname, draw in family.draws.items():
        if dname not in given:
            continue
        catalog = family.catalogs.get(draw.catalog)
        if catalog is None:
            raise ParamError(f"{dname}: no catalog {draw.catalog!r}")
        entry = catalog.find(str(given[dname]))
        if entry is None:
            raise ParamError(
                f"{dname}: unknown {draw.catalog} entry {given[dname]!r}; known: {', '.join(catalog.entries)}"
            )
        if entry in draw.exclude or (draw.pick is not None and entry not in draw.pick):
            why = f" ({draw.reason})" if draw.reason else ""
            raise ParamError(f"{dname}: {entry} is not used by {family.id}{why}")
        out[dname] = entry
        for pname, field in family.bound_params(dname).items():
            if pname not in given:
                out[pname] = _number(family, pname, catalog.entries[entry][field])
    for pname, spec in family.params.items():
        if pname in given:
            out[pname] = _number(family, pname, given[pname])
        elif pname not in out and spec.default is not None:
            out[pname] = _number(family, pname, spec.default)
    missing = [p for p in family.params if p not in out]
    if missing:
        hint = ""
        draws = {source.split(".")[0] for p in missing if (source := family.params[p].from_)}
        if draws:
            hint = " (or give " + ", ".join(f"{d}=<{family.draws[d].catalog} entry>" for d in sorted(draws)) + ")"
        raise ParamError(f"missing {noun_for(len(missing), 'parameter')} for {family.id}: {', '.join(missing)}{hint}")
    return out

"""Name the usual slip behind a wrong answer from the ratio answer/truth.

Three groups are tried in order, each picking its closest match within tolerance:

1. the family's own `[[slips]]` (forgot the 2 for K and V, used 2·N·D instead of 6·N·D...);
2. a parameter left out or counted twice (a missing layer count, batch, bytes per element);
3. generic factors: 2, 8 (bits vs bytes), 1000 / 1024 / 1e6 (prefixes), 60 / 3600 / 86400
   (time units), 100 (percent).

A correct answer in bytes can still carry a note when it matches GB-vs-GiB exactly in the unit typed.
"""

from __future__ import annotations

import math
import re
from typing import Any

from drill.estimate import formula
from drill.estimate.schema import Family
from drill.estimate.template import TemplateError, render

MATCH_TOLERANCE = 0.025  # |log10| distance for parameter and generic factors (about 6%)

GENERIC: list[tuple[float, str]] = [
    (2.0, "your answer is 2× the truth: a factor of 2 counted twice?"),
    (0.5, "your answer is half the truth: a factor of 2 missing?"),
    (8.0, "your answer is 8× the truth: bits vs bytes?"),
    (1 / 8, "your answer is 1/8 of the truth: bits vs bytes?"),
    (1000.0, "your answer is 1000× the truth: check the prefixes (K/M/G/T, ms vs s)"),
    (1e-3, "your answer is 1/1000 of the truth: check the prefixes (K/M/G/T, ms vs s)"),
    (1024.0, "your answer is 1024× the truth: a binary prefix applied once too often?"),
    (1 / 1024, "your answer is 1/1024 of the truth: a binary prefix missing?"),
    (1e6, "your answer is a million times the truth: check the prefixes"),
    (1e-6, "your answer is a millionth of the truth: check the prefixes"),
    (1e9, "your answer is 1e9× the truth: GB written as bytes, or a missing unit?"),
    (1e-9, "your answer is 1e-9 of the truth: a number in GB without the unit?"),
    (1e12, "your answer is 1e12× the truth: check the prefixes"),
    (1e-12, "your answer is 1e-12 of the truth: a number in T-units without the unit?"),
    (100.0, "your answer is 100× the truth: a percentage where a fraction was wanted?"),
    (0.01, "your answer is 1/100 of the truth: a fraction where a percentage was wanted?"),
    (60.0, "your answer is 60× the truth: minutes vs seconds or hours?"),
    (1 / 60, "your answer is 1/60 of the truth: minutes vs seconds or hours?"),
    (3600.0, "your answer is 3600× the truth: hours vs seconds?"),
    (1 / 3600, "your answer is 1/3600 of the truth: seconds vs hours?"),
    (86400.0, "your answer is 86400× the truth: days vs seconds?"),
    (1 / 86400, "your answer is 1/86400 of the truth: a number of days without the unit?"),
    (4.0, "your answer is 4× the truth: two factors of 2 too many?"),
    (0.25, "your answer is 1/4 of the truth: two factors of 2 missing?"),
]

# (the unit the user typed, the factor their answer is off by, the note): a correct answer in bytes
# whose number is the truth in the other kind of prefix, labelled with this one.
BINARY_NOTES: list[tuple[str, float, str]] = [
    ("GiB", 2**30 / 1e9, "note: your number is the answer in GB, labelled GiB (1 GiB = 1.074 GB)"),
    ("GB", 1e9 / 2**30, "note: your number is the answer in GiB, labelled GB (1 GiB = 1.074 GB)"),
    ("TiB", 2**40 / 1e12, "note: your number is the answer in TB, labelled TiB (1 TiB = 1.1 TB)"),
    ("TB", 1e12 / 2**40, "note: your number is the answer in TiB, labelled TB (1 TiB = 1.1 TB)"),
    ("MiB", 2**20 / 1e6, "note: your number is the answer in MB, labelled MiB (1 MiB = 1.049 MB)"),
    ("MB", 1e6 / 2**20, "note: your number is the answer in MiB, labelled MB (1 MiB = 1.049 MB)"),
]


def _closest(lr: float, candidates: list[tuple[float, str]], tol: float) -> str | None:
    best: tuple[float, str] | None = None
    for factor, message in candidates:
        if not (factor > 0 and math.isfinite(factor)):
            continue
        lf = math.log10(factor)
        if abs(lf) <= tol:  # a factor near 1 explains nothing
            continue
        d = abs(lr - lf)
        if d <= tol and (best is None or d < best[0]):
            best = (d, message)
    return best[1] if best else None


def _param_candidates(family: Family, params: dict[str, Any], truth: float) -> list[tuple[float, str]]:
    out: list[tuple[float, str]] = []
    for name in family.params:
        v = params.get(name)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0 or v == 1:
            continue
        bumped = dict(params)
        bumped[name] = v * 1.01
        moved = formula.evaluate(family, bumped)
        if moved == truth:  # a parameter the answer does not depend on explains nothing
            continue
        grows = moved > truth
        shown = f"{name} = {v:g}"
        if grows:
            out.append((1 / v, f"did you leave out {shown}?"))
            out.append((v, f"did you count {shown} twice?"))
        else:
            out.append((v, f"did you forget to divide by {shown}?"))
            out.append((1 / v, f"did you divide by {shown} twice?"))
    return out


def _binary_note(family: Family, lr: float, unit_text: str) -> str | None:
    """The decimal/binary prefix note for a correct answer: only for a size in bytes, typed in the
    unit the note names, and off by that prefix's factor."""
    if family.unit != "byte" or abs(lr) <= 0.015:
        return None
    typed = unit_text.strip()
    return _closest(
        lr, [(factor, note) for unit, factor, note in BINARY_NOTES if unit.casefold() == typed.casefold()], 0.004
    )


_BIT_UNIT = re.compile(r"(?:^|[\s/])(?:[kKMGTPE]i?)?(?:b|bit|bits|bps)(?:$|[\s/])")


def diagnose(
    family: Family, params: dict[str, Any], truth: float, answer: float, correct: bool, unit_text: str = ""
) -> str | None:
    """The likely slip behind `answer` (base units), or None. `unit_text` is the unit the user typed."""
    if not (truth > 0 and answer > 0 and math.isfinite(truth) and math.isfinite(answer)):
        return None
    ratio = answer / truth
    lr = math.log10(ratio)
    if correct:
        return _binary_note(family, lr, unit_text)
    tol = min(max(family.tolerance, 0.02), 0.05)
    if _BIT_UNIT.search(unit_text) and abs(lr - math.log10(1 / 8)) <= tol:
        return f"{unit_text.strip()} is in bits (lower-case b); the question asks for bytes (B): 1 byte = 8 bits"
    values: dict[str, Any] = dict(params)
    values.update(formula.evaluate_derived(family, params))
    own = []
    for factor, spec in zip(formula.slip_factors(family, params), family.slips, strict=True):
        try:
            own.append((factor, render(spec.message, values)))
        except (TemplateError, ValueError, KeyError):
            own.append((factor, spec.message))
    found = _closest(lr, own, tol)
    if found:
        return found
    # Guesses without a family's say-so need a closer match, or small parameters explain anything.
    strict = min(tol, MATCH_TOLERANCE)
    generic = _closest(lr, GENERIC, strict)
    found = _closest(lr, _param_candidates(family, params, truth), strict)
    if found and generic:
        return f"{found} (or: {generic})"
    return found or generic

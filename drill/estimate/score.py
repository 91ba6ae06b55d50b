"""Solve and grade: the truth, the user's parsed answer, a score on |log10(answer/truth)|.

Scoring: full credit (1.0) within the family's tolerance (a max |log10 error|); beyond
it, partial credit starts at 0.8 and falls linearly to 0 at one order of magnitude.
SM-2 quality comes from the score (`quality_from_score`, in result.py), never from self-grading.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from drill.estimate import formula, slips
from drill.estimate.answer_check import read_answer
from drill.estimate.feasible import refuse_impossible
from drill.estimate.params import complete
from drill.estimate.parser import AnswerError
from drill.estimate.pretty import pretty, sig
from drill.estimate.result import GradeResult
from drill.estimate.schema import Family
from drill.estimate.worked import answer_text, worked_solution

PARTIAL_START = 0.8  # credit just beyond the tolerance
ZERO_AT = 1.0  # |log10 error| at which credit reaches 0 (a factor of 10)


def score_from_log_error(log_error: float, tolerance: float) -> float:
    if not math.isfinite(log_error):
        return 0.0
    if log_error <= tolerance + 1e-12:
        return 1.0
    if log_error >= ZERO_AT:
        return 0.0
    return round(PARTIAL_START * (1 - (log_error - tolerance) / (ZERO_AT - tolerance)), 4)


def truth(family: Family, params: dict[str, Any]) -> float:
    value = formula.evaluate(family, params)
    if not (math.isfinite(value) and value > 0):
        from drill.estimate.params import ParamError

        raise ParamError(f"{family.id}: these parameters give no positive finite answer ({value})")
    return value


def solve(family: Family, params: Mapping[str, Any]) -> dict[str, Any]:
    """{'value': float in base units, 'unit': str, 'pretty': str}; ParamError on bad or physically
    impossible params (the reason named)."""
    full = complete(family, params)
    refuse_impossible(family, full)
    value = truth(family, full)
    return {"value": value, "unit": family.unit, "pretty": pretty(value, family.display_kind)}


def grade(family: Family, params: Mapping[str, Any], answer_text_in: object) -> GradeResult:
    """Grade one answer. Never raises for any answer text; ParamError only for bad params."""
    full = complete(family, params)
    true_value = truth(family, full)
    ungraded = GradeResult(truth=true_value, unit=family.unit, truth_pretty=answer_text(family, true_value))
    error: str | None
    try:
        parsed, value = read_answer(answer_text_in, family.unit)
    except AnswerError as exc:
        error = str(exc)
    except Exception:  # noqa: BLE001 - a grader bug must not become a traceback for the user
        error = "could not read that answer"
    else:
        error = None
    if error is not None:
        return replace(
            ungraded,
            error=error,
            feedback=f"Could not grade: {error}.",
            worked=tuple(worked_solution(family, full, true_value)),
        )

    log_error = abs(math.log10(value / true_value))
    score = score_from_log_error(log_error, family.tolerance)
    correct = log_error <= family.tolerance + 1e-12
    slip = slips.diagnose(family, full, true_value, value, correct, parsed.unit_text)
    factor = value / true_value
    truth_text = ungraded.truth_pretty
    if correct:
        feedback = f"Correct: {truth_text}."
    else:
        direction = "high" if factor > 1 else "low"
        off = factor if factor > 1 else 1 / factor
        feedback = f"Off by {sig(off, 2)}× (too {direction}); the answer is {truth_text}. Score {score:.2f}."
    if slip:
        feedback += f" {slip[0].upper()}{slip[1:]}"
    return replace(
        ungraded,
        score=score,
        parsed=value,
        log_error=log_error,
        parsed_pretty=answer_text(family, value),
        feedback=feedback,
        slip=slip,
        worked=tuple(worked_solution(family, full, true_value, value)),
    )

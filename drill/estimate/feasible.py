"""Physically possible parameters: why a set breaks a family's `require` constraints, and the
share of raw draws the constraints reject (`drill check` fails a family above MAX_REJECTED)."""

from __future__ import annotations

import random
from typing import Any

from drill.estimate import formula
from drill.estimate.draw import draw_params, template_values
from drill.estimate.params import ParamError
from drill.estimate.schema import Family, Requirement
from drill.estimate.template import TemplateError, render

MAX_REJECTED = 0.9  # a family whose constraints reject more of its draws should narrow its distributions
SHARE_DRAWS = 400  # raw draws `drill check` makes to measure that share


def _reason(requirement: Requirement, values: dict[str, Any]) -> str:
    if requirement.reason:
        try:
            return render(requirement.reason, values)
        except (TemplateError, ValueError, KeyError):
            pass  # `drill check` names the bad template; the check itself still says what failed
    return f"needs {requirement.check}"


def impossible(family: Family, params: dict[str, Any]) -> list[str]:
    """Why these parameters are physically impossible for the family, one reason per broken
    constraint (empty when they are possible; `draws_only` constraints are not limits)."""
    broken = [i for i in formula.broken_requirements(family, params) if not family.require[i].draws_only]
    if not broken:
        return []
    values = template_values(family, params)
    return [_reason(family.require[i], values) for i in broken]


def refuse_impossible(family: Family, params: dict[str, Any]) -> None:
    """ParamError naming every broken constraint, if any."""
    reasons = impossible(family, params)
    if reasons:
        raise ParamError(f"{family.id}: impossible parameters: {'; '.join(reasons)}")


def rejected_share(family: Family, draws: int = SHARE_DRAWS, seed: int = 0) -> float:
    """The share of `draws` raw draws (seeded) that the family's constraints reject."""
    rng = random.Random(seed)
    rejected = sum(not formula.requirements_met(family, draw_params(family, rng)) for _ in range(draws))
    return rejected / draws

"""The worked solution shown after an answer: formula, numbers substituted, result.

Each family's `steps` are templates over its params and derived values plus
`{answer}` (the truth in sensible units); a step with `when` is shown only where it holds.
Without steps, the answer formula is shown with its numbers substituted. The last line puts
the result next to the user's.
"""

from __future__ import annotations

import re
from typing import Any

from drill.estimate import formula
from drill.estimate.draw import template_values
from drill.estimate.pretty import binary_bytes_text, plain, pretty
from drill.estimate.schema import Family
from drill.estimate.template import render

_NAME = re.compile(r"\b[a-z_][a-z0-9_]*\b")


def _substituted(family: Family, params: dict[str, Any]) -> str:
    return _NAME.sub(lambda m: plain(params[m.group()]) if m.group() in params else m.group(), family.answer)


def answer_text(family: Family, value: float) -> str:
    """A value in the family's sensible units; bytes also in binary units."""
    text = pretty(value, family.display_kind)
    if family.display_kind == "byte" and value >= 1024:
        text += f" ({binary_bytes_text(value)})"
    return text


def worked_solution(family: Family, params: dict[str, Any], truth: float, yours: float | None = None) -> list[str]:
    values = template_values(family, params)
    values["answer"] = answer_text(family, truth)
    values["answer_value"] = truth
    if family.steps:
        shown = formula.steps_shown(family, params)
        lines = [render(step.text, values) for step, show in zip(family.steps, shown, strict=True) if show]
    else:
        lines = [f"{family.id} = {family.answer}", f"= {_substituted(family, params)}", f"= {values['answer']}"]
    result = f"Answer: {answer_text(family, truth)}"
    if yours is not None:
        result += f"   ·   yours: {answer_text(family, yours)}"
    lines.append(result)
    return lines

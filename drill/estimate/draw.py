"""Fresh numbers for a family: draw parameters with a seeded `random.Random`, render the prompt."""

from __future__ import annotations

import math
import random
from typing import Annotated, Any

from pydantic import ConfigDict, Field
from pydantic.dataclasses import dataclass

from drill.estimate import formula
from drill.estimate.pretty import pretty
from drill.estimate.schema import Family, ParamSpec
from drill.estimate.template import Given, render

MAX_ATTEMPTS = 500


class GenerationError(RuntimeError):
    """No parameters met the family's `require` constraints, or the answer was not positive."""

    def __init__(self, message: str, where: str = "require") -> None:
        super().__init__(message)
        self.where = where


@dataclass(frozen=True, config=ConfigDict(serialize_by_alias=True))
class Problem:
    """One instance of a family: its parameters, the question and the true answer. Made per
    question, so a pydantic dataclass: `TypeAdapter(Problem)` writes it as JSON."""

    family_id: Annotated[str, Field(serialization_alias="family")]
    block: str
    params: dict[str, Any]
    prompt: str
    truth: float  # in base units
    unit: str
    pretty: str = ""
    tolerance: float = 0.05
    topic: str = Field(default="", exclude=True)  # the family's title, for lists ("KV cache size")


def round_sig(x: float, digits: int) -> float:
    if x == 0:
        return 0.0
    return round(x, digits - 1 - math.floor(math.log10(abs(x))))


def _draw_one(spec: ParamSpec, rng: random.Random) -> int | float:
    if spec.choice is not None:
        value: float = rng.choice(spec.choice)
    elif spec.log_uniform is not None:
        lo, hi = spec.log_uniform
        value = round_sig(math.exp(rng.uniform(math.log(lo), math.log(hi))), spec.sig)
    elif spec.uniform is not None:
        lo, hi = spec.uniform
        value = rng.uniform(lo, hi)
        value = round(round(value / spec.step) * spec.step, 10) if spec.step else round_sig(value, spec.sig)
    elif spec.int_range is not None:
        lo, hi = spec.int_range
        step = int(spec.step) if spec.step else 1
        value = rng.randrange(lo, hi + 1, step)
    else:
        assert spec.default is not None  # a parameter without a distribution has a default (ParamSpec)
        value = spec.default
    if spec.is_integer:
        return round(value)
    return value


def draw_params(family: Family, rng: random.Random) -> dict[str, Any]:
    """One draw of every parameter (draws first, then distributions, in file order)."""
    params: dict[str, Any] = {}
    for dname, dspec in family.draws.items():
        entry = rng.choice(family.draw_entries(dname))
        params[dname] = entry
        fields = family.catalogs[dspec.catalog].entries[entry]
        for pname, fname in family.bound_params(dname).items():
            value = fields[fname]
            assert isinstance(value, (int, float))  # the loader refuses a draw whose field is no number
            params[pname] = int(value) if family.params[pname].is_integer else value
    for pname, spec in family.params.items():
        if spec.from_ is None:
            params[pname] = _draw_one(spec, rng)
    # keep the family's parameter order, draws first
    return {**{d: params[d] for d in family.draws}, **{p: params[p] for p in family.params}}


def template_values(family: Family, params: dict[str, Any]) -> dict[str, Any]:
    """Names a template may use: params (Given: shown as exactly as they are), derived values,
    draws by display name and text fields."""
    values: dict[str, Any] = {
        name: Given(value) if isinstance(value, float) else value for name, value in params.items()
    }
    for dname, dspec in family.draws.items():
        if dname in params:
            values.update(family.draw_texts(dname, params[dname]))
        elif dspec.unnamed:  # its texts may quote the values given: "each sending at {bandwidth:byte/s}"
            values.update({k: render(v, params) for k, v in family.draw_texts(dname, None).items()})
    values.update(formula.evaluate_derived(family, params))
    return values


def generate(family: Family, rng: random.Random) -> Problem:
    """A fresh problem: parameters drawn from `rng`, satisfying every `require`."""
    for _ in range(MAX_ATTEMPTS):
        params = draw_params(family, rng)
        if not formula.requirements_met(family, params):
            continue
        truth = formula.evaluate(family, params)
        if not (math.isfinite(truth) and truth > 0):
            raise GenerationError(f"answer: {params} gives {truth}, not a positive finite number", "answer")
        break
    else:
        raise GenerationError(f"{family.id}: no parameters met the constraints in {MAX_ATTEMPTS} draws")
    return instance(family, params, truth)


def instance(family: Family, params: dict[str, Any], truth: float | None = None) -> Problem:
    """The problem these parameters make (a stored answer's problem, read back); its truth is
    evaluated unless given."""
    if truth is None:
        truth = formula.evaluate(family, params)
    return Problem(
        family_id=family.id,
        block=family.block,
        params=params,
        prompt=render(family.prompt, template_values(family, params)),
        truth=truth,
        unit=family.unit,
        pretty=pretty(truth, family.display_kind),
        tolerance=family.tolerance,
        topic=family.topic,
    )

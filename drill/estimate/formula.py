"""Formulas from problem content → sympy expressions → fast float functions.

Problem files are shared, so formulas are untrusted: formula_syntax.py translates them
through a whitelist with bounded sizes, nothing is folded on the way, and the compiled
functions do float arithmetic on floats, so no step can hang. User answers never come
here: they go through parser.py.

sympy is imported inside the functions, never at import time, so the app's start-up
path does not pay for it. A family is compiled once, on first use, and the result is
kept on the family object.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from drill.estimate.formula_syntax import FormulaError, Term, measure, to_sympy
from drill.estimate.schema import Family

MAX_FORMULAS = 64  # derived values, answer, slips, requirements and step conditions of one family
MAX_FAMILY_SIZE = 2000  # terms in all of a family's formulas together


@dataclass
class Compiled:
    """A family's formulas, ready to evaluate with floats."""

    names: tuple[str, ...]  # parameter names, in the order the functions take them
    answer_fn: Callable[..., float]
    derived_fns: dict[str, Callable[..., float]] = field(default_factory=dict)
    slip_fns: list[Callable[..., float]] = field(default_factory=list)
    require_fns: list[Callable[..., bool]] = field(default_factory=list)
    step_fns: list[Callable[..., bool] | None] = field(default_factory=list)  # None: always shown


def compile_family(family: Family) -> Compiled:
    """Compile (once) and return the family's formulas; FormulaError if any is bad."""
    cached = family._compiled
    if cached is not None:
        return cached
    with family._lock:
        if family._compiled is None:
            family._compiled = _compile(family)
        return family._compiled


def warm_up(family: Family | None = None) -> None:
    """Import sympy, and compile `family`'s formulas, now: call it in a worker thread to spare the
    first estimate the wait (about half a second)."""
    import sympy  # noqa: F401

    if family is not None:
        with contextlib.suppress(FormulaError):  # a broken family fails where it is drawn; `drill check` says why
            compile_family(family)


def _compile(family: Family) -> Compiled:
    import sympy
    from sympy.printing.pycode import PythonCodePrinter

    conditions = {i: step.when for i, step in enumerate(family.steps) if step.when is not None}
    count = len(family.derived) + 1 + len(family.slips) + len(family.require) + len(conditions)
    if count > MAX_FORMULAS:
        raise FormulaError(("answer",), f"{count} formulas: a family may hold at most {MAX_FORMULAS}")
    names = list(family.params)
    scope = {n: Term(sympy.Symbol(n), None) for n in names}
    for dname, text in family.derived.items():
        scope[dname] = to_sympy(text, scope, ("derived", dname))
    derived = {d: scope[d].expr for d in family.derived}
    answer = to_sympy(family.answer, scope, ("answer",)).expr
    slip_exprs = [to_sympy(s.factor, scope, ("slips", i, "factor")).expr for i, s in enumerate(family.slips)]
    require_exprs = [
        to_sympy(r.check, scope, ("require", i, "check"), relational=True).expr for i, r in enumerate(family.require)
    ]
    step_exprs = {i: to_sympy(text, scope, ("steps",), relational=True).expr for i, text in conditions.items()}
    seen: dict[int, Any] = {}
    formulas = [*derived.values(), answer, *slip_exprs, *require_exprs, *step_exprs.values()]
    terms = sum(measure(e, seen).terms for e in formulas)
    if terms > MAX_FAMILY_SIZE:
        raise FormulaError(("answer",), f"the family's formulas hold {terms} terms; at most {MAX_FAMILY_SIZE}")
    args = [sympy.Symbol(n) for n in names]

    def fn(expr: Any, where: tuple[str | int, ...]) -> Callable[..., Any]:
        # Printed as built, terms in their order, nothing worked out: sorting terms (as the default
        # printing and lambdify's docstring do) asks sympy for their values, which can take forever.
        printer = PythonCodePrinter(
            {"fully_qualified_modules": False, "inline": True, "order": "none", "allow_unknown_functions": True}
        )  # shard: its own implementation
        try:
            with sympy.evaluate(False):
                return sympy.lambdify(args, expr, modules="math", printer=printer, docstring_limit=0)
        except Exception as exc:  # noqa: BLE001 - sympy failing on hostile content is a content error
            raise FormulaError(where, f"cannot be compiled: {type(exc).__name__}") from None

    return Compiled(
        names=tuple(names),
        answer_fn=fn(answer, ("answer",)),
        derived_fns={d: fn(e, ("derived", d)) for d, e in derived.items()},
        slip_fns=[fn(e, ("slips", i, "factor")) for i, e in enumerate(slip_exprs)],
        require_fns=[fn(e, ("require", i, "check")) for i, e in enumerate(require_exprs)],
        step_fns=[fn(step_exprs[i], ("steps",)) if i in step_exprs else None for i in range(len(family.steps))],
    )


def _args(compiled: Compiled, params: dict[str, Any]) -> list[float]:
    """The parameters as floats: float arithmetic keeps every step quick (2**k with an
    integer k in the millions would be exact, and slow, on ints)."""
    return [float(params[n]) for n in compiled.names]


def _number(value: Any) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError, OverflowError):
        return math.nan
    return out


def evaluate(family: Family, params: dict[str, Any]) -> float:
    """The answer in base units (NaN if the formula cannot be evaluated there)."""
    compiled = compile_family(family)
    try:
        return _number(compiled.answer_fn(*_args(compiled, params)))
    except (ZeroDivisionError, OverflowError, ValueError, TypeError):
        return math.nan


def evaluate_derived(family: Family, params: dict[str, Any]) -> dict[str, float]:
    compiled = compile_family(family)
    out = {}
    for name, f in compiled.derived_fns.items():
        try:
            out[name] = _number(f(*_args(compiled, params)))
        except (ZeroDivisionError, OverflowError, ValueError, TypeError):
            out[name] = math.nan
    return out


def slip_factors(family: Family, params: dict[str, Any]) -> list[float]:
    compiled = compile_family(family)
    out = []
    for f in compiled.slip_fns:
        try:
            out.append(_number(f(*_args(compiled, params))))
        except (ZeroDivisionError, OverflowError, ValueError, TypeError):
            out.append(math.nan)
    return out


def _holds(compiled: Compiled, condition: Callable[..., bool], params: dict[str, Any]) -> bool:
    """A comparison at these parameters; one that cannot be evaluated does not hold."""
    try:
        return bool(condition(*_args(compiled, params)))
    except (ZeroDivisionError, OverflowError, ValueError, TypeError):
        return False


def broken_requirements(family: Family, params: dict[str, Any]) -> list[int]:
    """The indices of the family's `require` constraints these parameters break."""
    compiled = compile_family(family)
    return [i for i, f in enumerate(compiled.require_fns) if not _holds(compiled, f, params)]


def requirements_met(family: Family, params: dict[str, Any]) -> bool:
    compiled = compile_family(family)
    return all(_holds(compiled, f, params) for f in compiled.require_fns)


def steps_shown(family: Family, params: dict[str, Any]) -> list[bool]:
    """For each worked step, whether it is shown at these parameters (its `when` holds)."""
    compiled = compile_family(family)
    return [f is None or _holds(compiled, f, params) for f in compiled.step_fns]

"""Formulas from problem content → sympy expressions → fast float functions.

Only *content* (the trusted TOML under problems/) is parsed here, with sympy's
`parse_expr` against a restricted namespace. User text never comes here: answers
go through parser.py, which has its own whitelisted evaluator.

sympy is imported inside the functions, never at import time, so the app's start-up
path does not pay for it. A family is compiled once, on first use, and the result is
kept on the family object.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from drill.estimate.schema import FUNCTION_NAMES, Family


class FormulaError(ValueError):
    """A content formula that does not parse or uses unknown names."""

    def __init__(self, where: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.where = where


@dataclass
class Compiled:
    """A family's formulas, ready to evaluate with floats."""

    names: tuple[str, ...]  # parameter names, in the order the functions take them
    answer_expr: Any  # sympy expression over the parameters only (derived substituted)
    answer_fn: Callable[..., float]
    derived_fns: dict[str, Callable[..., float]] = field(default_factory=dict)
    slip_fns: list[Callable[..., float]] = field(default_factory=list)
    require_fns: list[Callable[..., bool]] = field(default_factory=list)


def _namespace(names: list[str]) -> dict[str, Any]:
    import sympy

    def shard(stage: Any, from_stage: Any, ranks: Any) -> Any:
        """1/ranks once `stage` reaches `from_stage`, else 1 (ZeRO-style sharding)."""
        return sympy.Piecewise((1 / sympy.sympify(ranks), sympy.Ge(stage, from_stage)), (1, True))

    functions = {
        "ceil": sympy.ceiling,
        "ceiling": sympy.ceiling,
        "floor": sympy.floor,
        "Min": sympy.Min,
        "Max": sympy.Max,
        "min": sympy.Min,
        "max": sympy.Max,
        "sqrt": sympy.sqrt,
        "log": sympy.log,
        "log2": lambda x: sympy.log(x, 2),
        "log10": lambda x: sympy.log(x, 10),
        "exp": sympy.exp,
        "shard": shard,
        "pi": sympy.pi,
    }
    assert set(functions) == FUNCTION_NAMES
    ns: dict[str, Any] = {n: sympy.Symbol(n) for n in names}
    ns.update(functions)
    return ns


def parse(text: str, names: list[str], where: tuple[str | int, ...], relational: bool = False) -> Any:
    """Parse one content formula over `names`; FormulaError on any problem."""
    import sympy
    from sympy.core.function import AppliedUndef
    from sympy.parsing.sympy_parser import parse_expr, standard_transformations

    if not isinstance(text, str) or not text.strip():
        raise FormulaError(where, "empty formula")
    if "^" in text:
        raise FormulaError(where, "use ** for powers, not ^")
    if "__" in text or "lambda" in text:
        raise FormulaError(where, "formula contains a forbidden name")
    global_dict = {
        "Integer": sympy.Integer,
        "Float": sympy.Float,
        "Rational": sympy.Rational,
        "Symbol": sympy.Symbol,
        "Function": sympy.Function,
        "__builtins__": {},
    }
    try:
        expr = parse_expr(
            text, local_dict=_namespace(names), global_dict=global_dict, transformations=standard_transformations
        )
    except Exception as exc:  # noqa: BLE001 - any failure is a content error
        raise FormulaError(where, f"cannot parse formula {text!r}: {type(exc).__name__}: {exc}") from None
    if relational:
        if not isinstance(expr, sympy.core.relational.Relational):
            raise FormulaError(where, f"{text!r} is not a comparison (use <, <=, >, >=)")
    elif not isinstance(expr, sympy.Expr):
        raise FormulaError(where, f"{text!r} is not an arithmetic expression")
    undefined = sorted(str(f.func) for f in expr.atoms(AppliedUndef))
    if undefined:
        raise FormulaError(where, f"unknown function(s): {', '.join(undefined)}")
    unknown = sorted(str(s) for s in expr.free_symbols if str(s) not in names)
    if unknown:
        raise FormulaError(where, f"unbound symbol(s): {', '.join(unknown)}")
    return expr


def compile_family(family: Family) -> Compiled:
    """Compile (once) and return the family's formulas; FormulaError if any is bad."""
    cached = family._compiled
    if cached is not None:
        return cached
    with family._lock:
        if family._compiled is None:
            family._compiled = _compile(family)
        return family._compiled


def _compile(family: Family) -> Compiled:
    import sympy

    names = list(family.params)
    known = list(names)
    substitutions: dict[Any, Any] = {}
    derived_exprs: dict[str, Any] = {}
    for dname, text in family.derived.items():
        expr = parse(text, known, ("derived", dname))
        expr = expr.xreplace(substitutions)
        derived_exprs[dname] = expr
        substitutions[sympy.Symbol(dname)] = expr
        known.append(dname)
    answer = parse(family.answer, known, ("answer",)).xreplace(substitutions)
    args = [sympy.Symbol(n) for n in names]

    def fn(expr: Any) -> Callable[..., float]:
        return sympy.lambdify(args, expr, modules="math")

    slip_fns = [fn(parse(s.factor, known, ("slips", i, "factor")).xreplace(substitutions)) for i, s in enumerate(family.slips)]
    require_fns = [
        fn(parse(text, known, ("require",), relational=True).xreplace(substitutions)) for text in family.require
    ]
    return Compiled(
        names=tuple(names),
        answer_expr=answer,
        answer_fn=fn(answer),
        derived_fns={d: fn(e) for d, e in derived_exprs.items()},
        slip_fns=slip_fns,
        require_fns=require_fns,
    )


def _args(compiled: Compiled, params: dict[str, Any]) -> list[float]:
    return [params[n] for n in compiled.names]


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


def requirements_met(family: Family, params: dict[str, Any]) -> bool:
    compiled = compile_family(family)
    try:
        return all(bool(f(*_args(compiled, params))) for f in compiled.require_fns)
    except (ZeroDivisionError, OverflowError, ValueError, TypeError):
        return False

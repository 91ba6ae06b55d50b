"""A problem formula's text → a sympy expression, through a whitelist of Python syntax.

Problem files are shared between users, so a formula is untrusted text. `ast` parses it
(parsing runs nothing) and only the nodes below are translated, one by one, into sympy
objects built here: numbers, parameter names, + - * / **, unary -, one comparison, and
calls of the functions in FUNCTION_NAMES. No text from the file reaches sympify,
parse_expr or eval.

sympy works numbers out exactly, and asked about `floor(exp(exp(exp(exp(5)))))` or
`9**10**7` it would never answer. So every size is bounded: the text, its nesting and
terms, each number written, each number in an exponent, each exact number built before it
goes into a power or a function, and each part made of numbers alone, which is worked out
in floats first and refused beyond 1e100 (a part whose parameters cancel out, like x - x,
is refused, as sympy would work it out unchecked). An exponent holds no `**`.
"""

from __future__ import annotations

import ast
import functools
import math
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from drill.estimate.schema import FUNCTION_NAMES
from drill.words import counted

MAX_LENGTH = 2000  # characters in one formula
MAX_NODES = 400  # syntax nodes in one formula
MAX_DEPTH = 50  # nesting, as written and once derived values are substituted in
MAX_LITERAL = 1e30  # a number as written
MAX_NUMBER = 10**100  # an exact number built (numerator and denominator); a part of numbers alone
MAX_EXPONENT = 100  # a number in an exponent
MAX_ARGS = 16  # arguments to one call
MAX_SIZE = 1000  # terms in one formula once derived values are substituted in

_TEXT = re.compile(r"[ -~\t\n\r]*")  # printable ASCII: Python would NFKC-fold look-alike letters
_COMPARE = ("Lt", "LtE", "Gt", "GtE")
ALLOWED = "numbers, parameter names, + - * / ** ( ) and calls of the functions"


class FormulaError(ValueError):
    """A content formula that does not parse, uses unknown names or breaks a bound."""

    def __init__(self, where: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.where = where


class Term(NamedTuple):
    """A formula or a part of one: its sympy expression, and its float value when it holds
    no parameter (None when it does)."""

    expr: Any
    value: float | None


class _Function(NamedTuple):
    fewest: int  # arguments
    most: int
    build: Callable[..., Any]  # sympy
    value: Callable[..., float]  # the same on floats


class _Refused(Exception):
    """Why a formula is refused (to_sympy adds which formula)."""


@functools.cache
def _functions() -> dict[str, _Function]:
    """The functions a formula may call, by name."""
    import sympy
    from sympy.utilities.lambdify import implemented_function

    def shard_value(stage: float, from_stage: float, ranks: float) -> float:
        """1/ranks once `stage` reaches `from_stage`, else 1 (ZeRO-style sharding)."""
        return 1 / ranks if stage >= from_stage else 1.0

    # Opaque to sympy (a Piecewise gets its conditions solved when printed, which can take
    # forever); lambdify calls shard_value.
    shard = implemented_function("shard", shard_value)

    functions = {
        "ceil": _Function(1, 1, sympy.ceiling, math.ceil),
        "ceiling": _Function(1, 1, sympy.ceiling, math.ceil),
        "floor": _Function(1, 1, sympy.floor, math.floor),
        "Min": _Function(1, MAX_ARGS, sympy.Min, min),
        "Max": _Function(1, MAX_ARGS, sympy.Max, max),
        "min": _Function(1, MAX_ARGS, sympy.Min, min),
        "max": _Function(1, MAX_ARGS, sympy.Max, max),
        "sqrt": _Function(1, 1, sympy.sqrt, math.sqrt),
        "log": _Function(1, 2, sympy.log, math.log),
        "log2": _Function(1, 1, lambda x: sympy.log(x, 2), math.log2),
        "log10": _Function(1, 1, lambda x: sympy.log(x, 10), math.log10),
        "exp": _Function(1, 1, sympy.exp, math.exp),
        "shard": _Function(3, 3, shard, shard_value),
    }
    assert set(functions) | {"pi"} == FUNCTION_NAMES
    return functions


_OPERATORS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
}


def _worked_out(compute: Callable[..., Any], values: list[float | None]) -> float | None:
    """A part's float value when it holds numbers alone (else None); refuses one that is
    undefined or beyond MAX_NUMBER, before sympy is asked to build it."""
    numbers = [v for v in values if v is not None]
    if len(numbers) < len(values):
        return None
    try:
        value = float((math.pow if compute is _OPERATORS[ast.Pow] else compute)(*numbers))
    except (ArithmeticError, ValueError, TypeError):  # overflow, division by zero, a domain error
        raise _Refused("works out, from numbers alone, to something undefined or too large") from None
    if not abs(value) <= MAX_NUMBER:
        raise _Refused(f"works out, from numbers alone, to a number beyond {MAX_NUMBER:.0e}")
    return value


class Size(NamedTuple):
    """A sympy expression's size as a tree (each shared part counted where it appears)."""

    terms: int
    depth: int
    symbolic: bool  # it holds a parameter


def measure(expr: Any, seen: dict[int, tuple[Any, Size]], visit: Callable[[Any], None] = lambda node: None) -> Size:
    """The Size of a sympy expression, in time linear in its distinct parts (`seen` remembers
    them across calls); `visit` sees each new part."""
    stack = [(expr, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in seen:
            continue
        if not done:
            visit(node)
            stack.append((node, True))
            stack.extend((arg, False) for arg in node.args if id(arg) not in seen)
            continue
        sizes = [seen[id(arg)][1] for arg in node.args]
        seen[id(node)] = (
            node,
            Size(
                1 + sum(s.terms for s in sizes),
                1 + max((s.depth for s in sizes), default=0),
                node.is_Symbol or any(s.symbolic for s in sizes),
            ),
        )
    return seen[id(expr)][1]


def _check_number(node: Any) -> None:
    """Refuse an exact number too big to raise to a power, and infinity or nan."""
    if node.args:
        return
    if node.is_Rational and (abs(node.p) > MAX_NUMBER or node.q > MAX_NUMBER):
        raise _Refused(f"builds an exact number beyond {MAX_NUMBER:.0e} (or a fraction finer than 1/{MAX_NUMBER:.0e})")
    if node.is_Float and not abs(float(node)) <= MAX_NUMBER:
        raise _Refused(f"builds a number beyond {MAX_NUMBER:.0e}")
    if (node.is_Number and not (node.is_Rational or node.is_Float)) or node.is_infinite:  # nan, oo, zoo
        raise _Refused("is infinite or undefined (a division by zero?)")


def _literal(node: ast.Constant) -> Term:
    import sympy

    value = node.value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Refused(f"holds a {type(value).__name__} constant where only numbers are allowed (no text in quotes)")
    if abs(value) > MAX_LITERAL or not math.isfinite(value):  # an int beyond floats stops at the first test
        raise _Refused(f"writes a number beyond {MAX_LITERAL:.0e}")
    return Term(sympy.Integer(value) if type(value) is int else sympy.Float(value), float(value))


def _has_power(node: ast.AST) -> bool:
    return any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow) for n in ast.walk(node))


class _Translator:
    """Walks one formula's syntax tree, building Terms; refuses anything else."""

    def __init__(self, scope: Mapping[str, Term]) -> None:
        import sympy

        self.sympy = sympy
        self.scope = scope
        self.functions = _functions()
        self.constants = {"pi": Term(sympy.pi, math.pi)}
        self.seen: dict[int, tuple[Any, Size]] = {}

    def build(self, node: ast.AST, depth: int) -> Term:
        if depth > MAX_DEPTH:
            raise _Refused(f"is nested more than {MAX_DEPTH} deep")
        if isinstance(node, ast.Constant):
            return _literal(node)
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            term = self.build(node.operand, depth + 1)
            if isinstance(node.op, ast.UAdd):
                return term
            return Term(-term.expr, None if term.value is None else -term.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return self.binary(node, depth)
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        if isinstance(node, ast.Compare):
            raise _Refused("may hold a comparison only as the whole of a `require` formula")
        raise _Refused(f"uses {_describe(node)}; a formula holds only {ALLOWED} {', '.join(sorted(self.functions))}")

    def name(self, name: str) -> Term:
        if name in self.scope:
            return self.scope[name]
        if name in self.constants:
            return self.constants[name]
        if name in self.functions:
            raise _Refused(f"names the function {name} without calling it")
        raise _Refused(f"unbound symbol: {name}")

    def binary(self, node: ast.BinOp, depth: int) -> Term:
        power = isinstance(node.op, ast.Pow)
        if power and _has_power(node.right):
            raise _Refused("has ** inside an exponent (no towers like 2**2**30: write the exponent without **)")
        left, right = self.build(node.left, depth + 1), self.build(node.right, depth + 1)
        operator = _OPERATORS[type(node.op)]
        value = _worked_out(operator, [left.value, right.value])
        if power:  # sympy works b**(n + x) out as b**n * b**x: keep n small
            self.check(left, right)
            if any(abs(n) > MAX_EXPONENT for n in right.expr.atoms(self.sympy.Number)):
                raise _Refused(f"has a number beyond {MAX_EXPONENT} in an exponent")
        return Term(operator(left.expr, right.expr), value)

    def call(self, node: ast.Call, depth: int) -> Term:
        known = ", ".join(sorted(self.functions))
        if not isinstance(node.func, ast.Name):
            raise _Refused(f"calls {_describe(node.func)}; only these functions may be called: {known}")
        if node.func.id not in self.functions:
            raise _Refused(f"unknown function: {node.func.id} (known: {known})")
        name = node.func.id
        function = self.functions[name]
        if node.keywords or any(isinstance(arg, ast.Starred) for arg in node.args):
            raise _Refused(f"passes {name} keyword or * arguments; give plain arguments")
        if not function.fewest <= len(node.args) <= function.most:
            count = (
                str(function.fewest) if function.fewest == function.most else f"{function.fewest} to {function.most}"
            )
            raise _Refused(f"calls {name} with {counted(len(node.args), 'argument')}; it takes {count}")
        args = [self.build(arg, depth + 1) for arg in node.args]
        value = _worked_out(function.value, [arg.value for arg in args])
        self.check(*args)
        return Term(function.build(*(arg.expr for arg in args)), value)

    def compare(self, node: ast.Compare) -> Term:
        if len(node.ops) != 1 or type(node.ops[0]).__name__ not in _COMPARE:
            raise _Refused("is not one comparison with <, <=, > or >= (no chains, == or !=)")
        left, right = self.build(node.left, 1), self.build(node.comparators[0], 1)
        self.check(left, right)
        relation = {"Lt": self.sympy.Lt, "LtE": self.sympy.Le, "Gt": self.sympy.Gt, "GtE": self.sympy.Ge}
        expr = relation[type(node.ops[0]).__name__](left.expr, right.expr)
        if not isinstance(expr, self.sympy.core.relational.Relational):
            raise _Refused("compares numbers only: it is always true or always false")
        return Term(expr, None)

    def check(self, *terms: Term) -> None:
        """Refuse a part too big, too deep, holding an exact number too large to go on with, or
        whose parameters cancel out (its value was not worked out in floats, so sympy would)."""
        for term in terms:
            size = measure(term.expr, self.seen, _check_number)
            if size.terms > MAX_SIZE:
                raise _Refused(f"holds more than {MAX_SIZE} terms once derived values are substituted in")
            if size.depth > MAX_DEPTH:
                raise _Refused(f"is nested more than {MAX_DEPTH} deep once derived values are substituted in")
            if term.value is None and not size.symbolic:
                raise _Refused("has a part whose parameters cancel out (like x*0 or x - x): write the number")


def _describe(node: ast.AST) -> str:
    kinds = {
        "Attribute": "attribute access (a.b)",
        "Subscript": "indexing (a[b])",
        "Lambda": "lambda",
        "JoinedStr": "an f-string",
        "NamedExpr": "the walrus operator (:=)",
        "IfExp": "if/else",
        "BoolOp": "and/or",
        "GeneratorExp": "a comprehension",
    }
    name = type(node).__name__
    if isinstance(node, (ast.BinOp, ast.UnaryOp)):
        return f"the operator {type(node.op).__name__}"
    return kinds.get(name, "a comprehension" if "Comp" in name else f"Python syntax ({name})")


def _short(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def to_sympy(text: object, scope: Mapping[str, Term], where: tuple[str | int, ...], relational: bool = False) -> Term:
    """The Term a content formula means, `scope` giving each name's (parameters: a Symbol and
    no value; derived values: their Terms); FormulaError if it is refused."""
    if not isinstance(text, str) or not text.strip():
        raise FormulaError(where, "empty formula")
    try:
        return _translate(text, scope, relational)
    except _Refused as exc:
        raise FormulaError(where, f"formula {_short(text)} {exc}") from None
    except Exception as exc:  # noqa: BLE001 - sympy failing on hostile content is a content error
        raise FormulaError(
            where, f"formula {_short(text)} cannot be built: {type(exc).__name__}: {str(exc)[:80]}"
        ) from None


def _translate(text: str, scope: Mapping[str, Term], relational: bool) -> Term:
    if len(text) > MAX_LENGTH:
        raise _Refused(f"is longer than {MAX_LENGTH} characters")
    if not _TEXT.fullmatch(text):
        raise _Refused("holds a character other than printable ASCII (letters a-z, digits, + - * / ( ) ...)")
    if "^" in text:
        raise _Refused("uses ^: use ** for powers")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise _Refused(f"cannot parse: {type(exc).__name__}: {exc}") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise _Refused(f"has more than {MAX_NODES} parts")
    translator = _Translator(scope)
    if not relational:
        term = translator.build(tree.body, 1)
    elif isinstance(tree.body, ast.Compare):
        term = translator.compare(tree.body)
    else:
        raise _Refused("is not a comparison (use <, <=, >, >=)")
    if not relational:
        translator.check(term)
    return term

"""The safe answer parser: a number or arithmetic expression, then an optional unit.

Accepted: `2.7 GB`, `2.5GiB`, `2*80*8*128*8192*2 bytes`, `1.2e9`, `61 days`, `0.49 s`,
`3.2 TFLOP`, `300 GB/s`, `18%`, `2^30 B`, `1,000,000 tokens`, `(4+4)*1e9`.

User text is data, never code. This module does not call eval, exec, compile,
ast.parse, sympify, parse_expr or lambdify: it tokenizes against a whitelist (ASCII
digits, `+ - * / ** ^ ( )`, a few typographic operators) and evaluates with a small
recursive-descent parser of its own, with limits on length, token count, nesting
depth, exponent size and magnitude. Every failure is an `AnswerError` with a message
fit to show the user.

Stdlib only: this module is on the app's start-up path.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from drill.estimate import units
from drill.estimate.units import Dim, Quantity, UnitError

MAX_LENGTH = 200
MAX_TOKENS = 100
MAX_DEPTH = 20
MAX_EXPONENT = 100.0
MAX_MAGNITUDE = 1e300


class AnswerError(ValueError):
    """An answer that cannot be read; the message is meant for the user."""


@dataclass(frozen=True)
class Parsed:
    """What the user typed: the number, the unit text and its candidate readings."""

    number: float
    unit_text: str
    readings: tuple[Quantity, ...]

    @property
    def has_unit(self) -> bool:
        return bool(self.unit_text)

    def in_base_units(self, want: Dim | None) -> tuple[float, Dim | None]:
        """The value in base units and its dimension (None for a bare number).

        A bare number is taken to be in the question's base unit, so its dimension is
        reported as None and the caller treats it as matching.
        """
        if not self.unit_text:
            return self.number, None
        if want is not None and all(q.dim != want for q in self.readings):
            scale = units.multiplier_of(self.unit_text)
            if scale is not None:  # "2.4K" where tokens/s are asked: the question's unit is implied
                return self.number * scale, None
        q = units.resolve(self.readings, want)
        return self.number * q.factor, q.dim


# Typographic operators people paste; mapped before tokenizing.
_REPLACEMENTS = {
    "×": "*",
    "·": "*",
    "⋅": "*",
    "∗": "*",
    "−": "-",
    "–": "-",
    "÷": "/",
    "^": "**",
}
# Non-ASCII characters allowed at all (in units or as the operators above).
_ALLOWED_NON_ASCII = set("µμ×·⋅∗−–÷")

_NUMBER = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?", re.ASCII)
_OPERATOR = re.compile(r"\*\*|[-+*/()]")
_UNIT_START = re.compile(r"[A-Za-z%µμ]")
_UNIT_CHARS = re.compile(r"[A-Za-z%µμ/ 1·*]*")


def _normalise(text: str) -> str:
    if len(text) > MAX_LENGTH:
        raise AnswerError(f"answer too long (over {MAX_LENGTH} characters)")
    for ch in text:
        if ord(ch) > 127 and ch not in _ALLOWED_NON_ASCII:
            if ch.isdigit() or ch.isnumeric():
                raise AnswerError(f"unexpected character {ch!r}: write digits as 0-9")
            raise AnswerError(f"unexpected character {ch!r}")
        if ord(ch) < 32 and ch not in "\t":
            raise AnswerError("unexpected control character")
    # "×" between numbers is multiplication; after a number at the end it is a ratio unit.
    stripped = text.strip()
    if stripped.endswith("×"):
        stripped = stripped[:-1] + " x"
    for old, new in _REPLACEMENTS.items():
        stripped = stripped.replace(old, new)
    return stripped


def _tokenize(expr: str) -> list[tuple[str, object]]:
    tokens: list[tuple[str, object]] = []
    i = 0
    n = len(expr)
    while i < n:
        ch = expr[i]
        if ch in " \t":
            i += 1
            continue
        m = _NUMBER.match(expr, i)
        if m:
            literal = m.group().replace(",", "")
            try:
                value = float(literal)
            except ValueError:  # pragma: no cover - the regex only admits float syntax
                raise AnswerError(f"cannot read the number {m.group()!r}") from None
            if not math.isfinite(value) or value > MAX_MAGNITUDE:
                raise AnswerError(f"the number {m.group()!r} is too large")
            tokens.append(("num", value))
            i = m.end()
        else:
            m = _OPERATOR.match(expr, i)
            if not m:
                if ch == ",":
                    raise AnswerError("write 1,000,000 with commas every three digits, or 1e6")
                raise AnswerError(f"unexpected character {ch!r}")
            tokens.append(("op", m.group()))
            i = m.end()
        if len(tokens) > MAX_TOKENS:
            raise AnswerError("expression too long")
    return tokens


def _check(value: float) -> float:
    if isinstance(value, complex) or not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise AnswerError("the number is too large")
    return value


class _Evaluator:
    """expr := term (('+'|'-') term)*;  term := unary (('*'|'/') unary)*;
    unary := ('+'|'-') unary | power;  power := atom ('**' unary)?;  atom := NUM | '(' expr ')'
    """

    def __init__(self, tokens: list[tuple[str, object]]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    def peek(self) -> tuple[str, object] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take_op(self, *ops: str) -> str | None:
        tok = self.peek()
        if tok is not None and tok[0] == "op" and tok[1] in ops:
            self.pos += 1
            return tok[1]
        return None

    def enter(self) -> None:
        """Count one level of parentheses or unary sign; MAX_DEPTH bounds the recursion."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise AnswerError("expression nested too deeply")

    def parse(self) -> float:
        if not self.tokens:
            raise AnswerError("expected a number")
        value = self.expr()
        if self.pos != len(self.tokens):
            tok = self.tokens[self.pos]
            if tok == ("op", ")"):
                raise AnswerError("unbalanced parentheses")
            raise AnswerError("expected an operator between numbers")
        return value

    def expr(self) -> float:
        value = self.term()
        while (op := self.take_op("+", "-")) is not None:
            rhs = self.term()
            value = _check(value + rhs if op == "+" else value - rhs)
        return value

    def term(self) -> float:
        value = self.unary()
        while (op := self.take_op("*", "/")) is not None:
            rhs = self.unary()
            if op == "*":
                value = _check(value * rhs)
            else:
                if rhs == 0:
                    raise AnswerError("division by zero")
                value = _check(value / rhs)
        return value

    def unary(self) -> float:
        op = self.take_op("+", "-")
        if op is None:
            return self.power()
        self.enter()
        value = self.unary()
        self.depth -= 1
        return -value if op == "-" else value

    def power(self) -> float:
        base = self.atom()
        if self.take_op("**") is None:
            return base
        exponent = self.unary()
        if abs(exponent) > MAX_EXPONENT:
            raise AnswerError(f"exponent too large (at most {MAX_EXPONENT:g})")
        if base == 0 and exponent < 0:
            raise AnswerError("division by zero")
        if base < 0 and exponent != int(exponent):
            raise AnswerError("fractional power of a negative number")
        try:
            return _check(math.pow(base, exponent))
        except (OverflowError, ValueError):
            raise AnswerError("the number is too large") from None

    def atom(self) -> float:
        tok = self.peek()
        if tok is None:
            raise AnswerError("the expression is incomplete")
        if tok[0] == "num":
            self.pos += 1
            return tok[1]  # type: ignore[return-value]
        if tok[1] == "(":
            self.pos += 1
            self.enter()
            value = self.expr()
            self.depth -= 1
            if self.take_op(")") is None:
                raise AnswerError("unbalanced parentheses")
            return value
        if tok[1] == ")":
            raise AnswerError("unbalanced parentheses")
        raise AnswerError(f"expected a number before {tok[1]!r}")


def _split_unit(text: str) -> tuple[str, str]:
    """Split 'expr unit' where the unit starts at the first letter, % or µ outside parentheses."""
    depth = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        m = _NUMBER.match(text, i) if ch.isascii() and (ch.isdigit() or ch == ".") else None
        if m:
            i = m.end()
            continue
        if _UNIT_START.match(ch):
            if depth > 0:
                raise AnswerError("put the unit after the number, outside the parentheses")
            return text[:i], text[i:].strip()
        i += 1
    return text, ""


def parse_answer(text: object) -> Parsed:
    """Read an answer; raise AnswerError with a user-facing message if it cannot be read."""
    if not isinstance(text, str):
        raise AnswerError("the answer must be text")
    cleaned = _normalise(text)
    if not cleaned:
        raise AnswerError("empty answer")
    expr_text, unit_text = _split_unit(cleaned)
    if unit_text and expr_text.rstrip().endswith("/"):  # "250/s" means 250 per second
        expr_text, unit_text = expr_text.rstrip()[:-1], "1/" + unit_text
    tokens = _tokenize(expr_text)
    if not tokens:
        raise AnswerError("expected a number" + (f" before the unit {unit_text!r}" if unit_text else ""))
    if not _UNIT_CHARS.fullmatch(unit_text):
        bad = next(ch for ch in unit_text if not _UNIT_CHARS.fullmatch(ch))
        if bad.isdigit() or bad in "+-()":
            raise AnswerError("the unit must come last, after the number")
        raise AnswerError(f"unexpected character {bad!r}")
    number = _Evaluator(tokens).parse()
    try:
        readings = units.parse_unit(unit_text)
    except UnitError as exc:
        raise AnswerError(str(exc)) from None
    return Parsed(number=number, unit_text=unit_text, readings=readings)


def parse_value(text: object, want: Dim | None = None) -> float:
    """A number in base units (e.g. a key=value parameter like `50GB/s`).

    A unit of the wrong dimension raises AnswerError with a message naming both.
    """
    parsed = parse_answer(text)
    value, dim = parsed.in_base_units(want)
    if dim is not None and want is not None and dim != want:
        raise AnswerError(units.mismatch_message(dim, want))
    return value

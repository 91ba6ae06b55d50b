"""The safe answer parser: arithmetic on numbers and quantities, units carried through.

Accepted: `2.7 GB`, `2.5GiB`, `2*80*8*128*8192*2 bytes`, `1.2e9`, `61 days`, `0.49 s`,
`3.2 TFLOP`, `300 GB/s`, `18%`, `2^30 B`, `1,000,000 tokens`, `(4+4)*1e9 B`, `~2.7 GB`,
`≈2.7 GB`, `2.7x10^9 B`, `2.7×10^9 B`, `6 GB / (300 GB/s)`, `2*3/4*4GB / 300GB/s`, `250/s`.

A unit written after a number (or a parenthesised expression) belongs to it: `300GB/s` is one
bandwidth, so `6 GB / 300 GB/s` is a time. Units multiply and divide with their numbers and
must agree to be added; the answer's dimension is what the arithmetic leaves.

User text is data, never code. This module does not call eval, exec, compile,
ast.parse, sympify, parse_expr or lambdify: it tokenizes against a whitelist (ASCII
digits, `+ - * / ** ^ ( )`, a few typographic operators, unit names from units.py) and
evaluates with a small recursive-descent parser of its own, with limits on length, token
count, nesting depth, exponent size, unit powers, ambiguity and magnitude. Every failure is
an `AnswerError` with a message fit to show the user.

Stdlib only: this module is on the app's start-up path.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from drill.estimate import units
from drill.estimate.units import Dim, Quantity, UnitError

MAX_LENGTH = 200
MAX_TOKENS = 100
MAX_DEPTH = 20
MAX_EXPONENT = 100.0
MAX_MAGNITUDE = 1e300
MAX_UNIT_POWER = 4  # GB^4 at most: no question asks for more, and dimensions stay small
MAX_READINGS = 8  # ambiguous units ("B", "flops") multiply their readings; this bounds the work


class AnswerError(ValueError):
    """An answer that cannot be read; the message is meant for the user."""


@dataclass(frozen=True)
class Parsed:
    """What the user typed: its value in base units under each reading of its units, best first,
    and the units as typed ("" for a bare number)."""

    readings: tuple[Quantity, ...]
    unit_text: str

    @property
    def has_unit(self) -> bool:
        return bool(self.unit_text)

    def in_base_units(self, want: Dim | None) -> tuple[float, Dim | None]:
        """The value in base units and its dimension (None for a bare number).

        A bare number is taken to be in the question's base unit, so its dimension is
        reported as None and the caller treats it as matching; so is a number scaled only
        by multipliers ("2.4K" where tokens/s are asked).
        """
        if not self.unit_text:
            return self.readings[0].factor, None
        if want is not None and all(q.dim != want for q in self.readings) and units.only_multipliers(self.unit_text):
            return units.resolve(self.readings, units.NONE).factor, None
        q = units.resolve(self.readings, want)
        return q.factor, q.dim


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
# Non-ASCII characters allowed at all (in units, as the operators above, or as "about").
_ALLOWED_NON_ASCII = set("µμ×·⋅∗−–÷≈")
# "About 2.7 GB": a leading sign of approximation is dropped.
_APPROXIMATELY = re.compile(r"(?:~=?|≈|about\s|approx\.?\s|approximately\s|roughly\s)\s*", re.IGNORECASE)

_NUMBER = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?", re.ASCII)
_OPERATOR = re.compile(r"\*\*|[-+*/()]")
_WORD = re.compile(r"[A-Za-zµμ]+|%")
_TIMES_WORDS = {"x", "X"}  # "2.7x10^9": a times sign before a power of ten, a ratio unit after a number

Token = tuple[str, object]  # ("num", float) | ("op", str) | ("word", str)
Value = tuple[Quantity, ...]  # a value in base units under each reading of its units, best first


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
    stripped = text.strip()
    if m := _APPROXIMATELY.match(stripped):
        stripped = stripped[m.end() :]
    # "×" between numbers is multiplication; after a number at the end it is a ratio unit.
    if stripped.endswith("×"):
        stripped = stripped[:-1] + " x"
    for old, new in _REPLACEMENTS.items():
        stripped = stripped.replace(old, new)
    return stripped


def _tokenize(expr: str) -> list[Token]:
    tokens: list[Token] = []
    i = 0
    n = len(expr)
    while i < n:
        ch = expr[i]
        if ch in " \t":
            i += 1
            continue
        if m := _NUMBER.match(expr, i):
            value = float(m.group().replace(",", ""))
            if not math.isfinite(value) or value > MAX_MAGNITUDE:
                raise AnswerError(f"the number {m.group()!r} is too large")
            tokens.append(("num", value))
        elif m := _OPERATOR.match(expr, i):
            tokens.append(("op", m.group()))
        elif m := _WORD.match(expr, i):
            word = m.group()
            tokens.append(("op", "/") if word == "per" else ("word", word))
        elif ch == ",":
            raise AnswerError("write 1,000,000 with commas every three digits, or 1e6")
        else:
            raise AnswerError(f"unexpected character {ch!r}")
        i = m.end()
        if len(tokens) > MAX_TOKENS:
            raise AnswerError("expression too long")
    return _times_signs(tokens)


def _times_signs(tokens: list[Token]) -> list[Token]:
    """An 'x' between a number and a power of ten multiplies ("2.7x10^9 B"; "0x10" stays unread)."""
    out = list(tokens)
    for i in range(1, len(out) - 3):
        word, after = out[i], out[i + 1 : i + 3]
        if (
            word[0] == "word"
            and word[1] in _TIMES_WORDS
            and out[i - 1][0] == "num"
            and after == [("num", 10.0), ("op", "**")]
        ):
            out[i] = ("op", "*")
    return out


def _check(value: float) -> float:
    if isinstance(value, complex) or not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise AnswerError("the number is too large")
    return value


def _number(value: float) -> Value:
    return (Quantity(value, units.NONE),)


def _is_plain(value: Value) -> bool:
    return len(value) == 1 and value[0].dim == units.NONE


def _combine(left: Value, right: Value, op: Callable[[Quantity, Quantity], Quantity]) -> Value:
    """Every reading of `left` op every reading of `right`, the first of each dimension kept."""
    by_dim: dict[Dim, Quantity] = {}
    for a, b in itertools.product(left, right):
        q = op(a, b)
        if any(abs(power) > MAX_UNIT_POWER for power in q.dim):
            continue
        by_dim.setdefault(q.dim, Quantity(_check(q.factor), q.dim))
    if not by_dim:
        raise AnswerError("too many units multiplied together")
    if len(by_dim) > MAX_READINGS:
        raise AnswerError("too many ambiguous units: write GB for bytes or billion for 1e9")
    return tuple(by_dim.values())


def _add(left: Value, right: Value, sign: float) -> Value:
    """Readings of `left` and `right` that share a dimension, added; an error if none do."""
    sums = []
    for a in left:
        match = next((b for b in right if b.dim == a.dim), None)
        if match is not None:
            sums.append(Quantity(_check(a.factor + sign * match.factor), a.dim))
    if not sums:
        raise AnswerError(
            f"cannot add {units.describe_dim(right[0].dim)} to {units.describe_dim(left[0].dim)}: "
            "give each term its unit (e.g. 1 GB + 500 MB)"
        )
    return tuple(sums)


class _Evaluator:
    """expr := term (('+'|'-') term)*;  term := factor (('*'|'/') (factor | units))*;
    factor := unary units?;  unary := ('+'|'-') unary | power;  power := atom ('**' unary)?;
    atom := NUM | '(' expr ')';  units := WORD+ ('/' WORD+)?
    """

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0
        self.unit_texts: list[str] = []

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take_op(self, *ops: str) -> str | None:
        tok = self.peek()
        if tok is not None and tok[0] == "op" and tok[1] in ops:
            self.pos += 1
            return str(tok[1])
        return None

    def at_word(self, offset: int = 0) -> bool:
        i = self.pos + offset
        return i < len(self.tokens) and self.tokens[i][0] == "word"

    def enter(self) -> None:
        """Count one level of parentheses or unary sign; MAX_DEPTH bounds the recursion."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise AnswerError("expression nested too deeply")

    def parse(self) -> Parsed:
        if not self.tokens:
            raise AnswerError("expected a number")
        value = self.expr()
        if self.pos != len(self.tokens):
            tok = self.tokens[self.pos]
            if tok == ("op", ")"):
                raise AnswerError("unbalanced parentheses")
            raise AnswerError("expected an operator between numbers")
        return Parsed(readings=value, unit_text=" ".join(self.unit_texts))

    def expr(self) -> Value:
        value = self.term()
        while (op := self.take_op("+", "-")) is not None:
            value = _add(value, self.term(), 1.0 if op == "+" else -1.0)
        return value

    def term(self) -> Value:
        value = self.factor()
        while (op := self.take_op("*", "/")) is not None:
            rhs = self.units() if self.at_word() else self.factor()
            if op == "*":
                value = _combine(value, rhs, Quantity.__mul__)
            elif any(q.factor == 0 for q in rhs):
                raise AnswerError("division by zero")
            else:
                value = _combine(value, rhs, Quantity.__truediv__)
        return value

    def factor(self) -> Value:
        value = self.unary()
        if self.at_word():
            value = _combine(value, self.units(), Quantity.__mul__)
        return value

    def unary(self) -> Value:
        op = self.take_op("+", "-")
        if op is None:
            return self.power()
        self.enter()
        value = self.unary()
        self.depth -= 1
        return value if op == "+" else tuple(Quantity(-q.factor, q.dim) for q in value)

    def power(self) -> Value:
        base = self.atom()
        if self.take_op("**") is None:
            return base
        exponent = self.unary()
        if not (_is_plain(base) and _is_plain(exponent)):
            raise AnswerError("only a plain number can be raised to a power (write 2^30 B, not (2 B)^30)")
        b, e = base[0].factor, exponent[0].factor
        if abs(e) > MAX_EXPONENT:
            raise AnswerError(f"exponent too large (at most {MAX_EXPONENT:g})")
        if b == 0 and e < 0:
            raise AnswerError("division by zero")
        if b < 0 and e != int(e):
            raise AnswerError("fractional power of a negative number")
        try:
            return _number(_check(math.pow(b, e)))
        except (OverflowError, ValueError):
            raise AnswerError("the number is too large") from None

    def atom(self) -> Value:
        tok = self.peek()
        if tok is None:
            raise AnswerError("the expression is incomplete")
        kind, content = tok
        if kind == "num":
            self.pos += 1
            return _number(float(content))  # type: ignore[arg-type]
        if kind == "word":
            raise AnswerError(f"expected a number before the unit {content!r}")
        if content == "(":
            self.pos += 1
            self.enter()
            value = self.expr()
            self.depth -= 1
            if self.take_op(")") is None:
                raise AnswerError("unbalanced parentheses")
            return value
        if content == ")":
            raise AnswerError("unbalanced parentheses")
        raise AnswerError(f"expected a number before {content!r}")

    def units(self) -> Value:
        """A unit such as 'GB', 'M params' or 'GB/s': words, then at most one '/' and words."""
        words = self.words()
        if self.peek() == ("op", "/") and (self.at_word(1) or self.pos + 1 == len(self.tokens)):
            self.pos += 1
            if not self.at_word():
                raise AnswerError(f"unit {words + '/'!r} has nothing after '/'")
            words += "/" + self.words()
        self.unit_texts.append(words)
        try:
            return units.parse_unit(words)
        except UnitError as exc:
            raise AnswerError(str(exc)) from None

    def words(self) -> str:
        taken = []
        while self.at_word():
            taken.append(str(self.tokens[self.pos][1]))
            self.pos += 1
        return " ".join(taken)


def parse_answer(text: object) -> Parsed:
    """Read an answer; raise AnswerError with a user-facing message if it cannot be read."""
    if not isinstance(text, str):
        raise AnswerError("the answer must be text")
    cleaned = _normalise(text)
    if not cleaned:
        raise AnswerError("empty answer")
    return _Evaluator(_tokenize(cleaned)).parse()


def parse_value(text: object, want: Dim | None = None) -> float:
    """A number in base units (e.g. a key=value parameter like `50GB/s`).

    A unit of the wrong dimension raises AnswerError with a message naming both.
    """
    parsed = parse_answer(text)
    value, dim = parsed.in_base_units(want)
    if dim is not None and want is not None and dim != want:
        raise AnswerError(units.mismatch_message(dim, want))
    return value

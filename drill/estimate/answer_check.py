"""Can this answer be graded? A check run before grading, so a typo is never scored.

`read_answer(text, unit)` is the grader's own reading of an answer: parse it with the
safe parser, take it to the question's base unit, insist on the right dimension and a
positive value. `check_answer(problem, text)` adds what only a person at a keyboard
needs: an empty box asks for an answer, and a bare number where the question asks for
a quantity with a unit ("2.7" for bytes) asks for the unit instead of being graded as
2.7 bytes (`score.grade` reads a bare number in base units; the app and `drill grade` both
run this check first, so one rule holds for both).

User text is data, never code: this module only calls the parser in `parser.py`.
Stdlib only: the TUI calls it on the UI thread, before anything loads sympy.
"""

from __future__ import annotations

from typing import Any

from drill.estimate import units
from drill.estimate.parser import AnswerError, Parsed, parse_answer

# One unit to suggest per dimension a question may ask for ("add a unit ... e.g. 2.7 GB").
EXAMPLE_UNITS: dict[units.Dim, str] = {
    units.BYTE: "GB",
    units.SECOND: "s",
    units.FLOP: "FLOP",
    units.FLOP_RATE: "TFLOP/s",
    units.BANDWIDTH: "GB/s",
    units.INTENSITY: "FLOP/byte",
    units.PER_SECOND: "tokens/s",
}

EMPTY = "type an answer"
UNREADABLE = "could not read that answer"


def read_answer(text: object, unit: str) -> tuple[Parsed, float]:
    """The parsed answer and its value in the base unit of `unit` (a family unit, e.g. "byte").

    Raises AnswerError with a message for the user when the text cannot be read, has the
    wrong dimension or is not positive. A bare number is read in the base unit.
    """
    want = units.FAMILY_UNITS[unit]
    parsed = parse_answer(text)
    value, dim = parsed.in_base_units(want)
    if dim is not None and dim != want:
        raise AnswerError(units.mismatch_message(dim, want))
    if not (value > 0):
        raise AnswerError("the answer must be a positive number")
    return parsed, value


def _unit_of(problem: Any) -> str:
    return problem if isinstance(problem, str) else problem.unit


def check_answer(problem: Any, text: object) -> str | None:
    """None when `text` can be graded against `problem` (a Problem, or its family unit), else what to fix.

    Never raises and never evaluates `text` as code.
    """
    if not isinstance(text, str) or not text.strip():
        return EMPTY
    try:
        unit = _unit_of(problem)
        parsed, _ = read_answer(text, unit)
    except AnswerError as exc:
        return str(exc)
    except Exception:  # noqa: BLE001 - a parser bug must not become a traceback for the user
        return UNREADABLE
    want = units.FAMILY_UNITS[unit]
    if want != units.NONE and not parsed.has_unit:
        example = f"{text.strip()} {EXAMPLE_UNITS.get(want, units.dim_unit_text(want))}"
        asked = units.asked_dim(want).split(" (")[0]  # "a bandwidth (bytes/s)": the example shows the unit
        return f"add a unit: the question asks for {asked} (e.g. {example})"
    return None

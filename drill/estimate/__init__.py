"""Estimation problems: fresh numbers, a safe answer parser with units, scoring, worked solutions.

Public API (everything else is internal):

    families(problems_dirs) -> list[Family]         valid families, cached until files change
    load(problems_dirs) -> (families, errors)        valid families and structural errors (no sympy)
    family(problems_dirs, id) -> Family              one family; KeyError if unknown
    check(problems_dirs) -> list[ContentError]       what `drill check` reports for problems/
    describe(family) -> dict                         one row of `drill problems --json`
    parse_assignments(["k=v", ...]) -> dict          CLI key=value pairs (values stay strings)
    generate(family, rng) -> Problem                 params, prompt text, truth (rng: random.Random)
    solve(family, params) -> {"value", "unit", "pretty"}
    grade(family, params, answer_text) -> GradeResult   correct, score, truth, parsed, error, ... (result.py)
    quality_from_score(score) -> int                 SM-2 quality 0..5
    parse_answer(text) -> Parsed                     the safe parser (AnswerError on bad input)
    check_answer(problem, text) -> str | None        None if the answer can be graded, else what to fix

`problems_dirs` is one folder or a list of them (Paths.problem_dirs(): the shipped problems,
then DRILL_HOME/problems); catalogs are shared across them and a family id is used once.

`params` may hold numbers or strings (`"8192"`, `"50GB/s"`, `model="llama-3-70b"`);
bad params raise ParamError (a ValueError) with a message for the user. `grade` never
raises for any answer text: a malformed or hostile answer yields `error`.

`check_answer` is the gate before `grade` where a person types: an empty box, an
unreadable or wrong-dimension answer and a bare number where the question has a unit
("2.7" for bytes) each get a message instead of a grade. `grade` itself still reads a
bare number in the question's base unit.

A GradeResult also holds: unit, log_error, quality, truth_pretty, parsed_pretty,
feedback (one line), slip (str | None) and worked (the lines of the worked solution);
`as_json()` is its JSON form and `from_json()` reads that, or a stored attempt row, back.

Import cost: stdlib only at import. pydantic loads with the first call that reads
problems/, sympy (about 0.5 s) only when a formula is first evaluated — call
`warm_up(family)` in a worker to pay it early. Textual is never imported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from drill.content.vocabulary import BLOCKS
from drill.estimate.answer_check import check_answer
from drill.estimate.parser import AnswerError, Parsed, parse_answer

if TYPE_CHECKING:
    import random

    from drill.content.errors import ContentError
    from drill.estimate.draw import Problem
    from drill.estimate.result import GradeResult
    from drill.estimate.schema import Family, ProblemDirs


__all__ = [
    "BLOCKS",
    "AnswerError",
    "ParamError",
    "Parsed",
    "check",
    "check_answer",
    "describe",
    "families",
    "family",
    "generate",
    "grade",
    "load",
    "parse_answer",
    "parse_assignments",
    "quality_from_score",
    "solve",
    "warm_up",
]


def families(problems_dirs: ProblemDirs) -> list[Family]:
    from drill.estimate.schema import families as _families

    return _families(problems_dirs)


def load(problems_dirs: ProblemDirs) -> tuple[list[Family], list[ContentError]]:
    from drill.estimate.schema import load_dir

    loaded, _, errors = load_dir(problems_dirs)
    return loaded, errors


def family(problems_dirs: ProblemDirs, family_id: str) -> Family:
    for fam in families(problems_dirs):
        if fam.id == family_id:
            return fam
    raise KeyError(f"no estimation problem {family_id!r}")


def check(problems_dirs: ProblemDirs) -> list[ContentError]:
    from drill.estimate.validate import check as _check

    return _check(problems_dirs)


def describe(fam: Family) -> dict[str, Any]:
    return fam.describe()


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    from drill.estimate.params import parse_assignments as _parse

    return _parse(items)


def generate(fam: Family, rng: random.Random) -> Problem:
    from drill.estimate.draw import generate as _generate

    return _generate(fam, rng)


def solve(fam: Family, params: Mapping[str, Any]) -> dict[str, Any]:
    from drill.estimate.score import solve as _solve

    return _solve(fam, params)


def grade(fam: Family, params: Mapping[str, Any], answer_text: object) -> GradeResult:
    from drill.estimate.score import grade as _grade

    return _grade(fam, params, answer_text)


def quality_from_score(score: float) -> int:
    from drill.estimate.result import quality_from_score as _q

    return _q(score)


def warm_up(fam: Family | None = None) -> None:
    """Import sympy and compile a family's formulas now (call from a worker thread)."""
    import sympy  # noqa: F401

    if fam is not None:
        from drill.estimate.formula import FormulaError, compile_family

        try:
            compile_family(fam)
        except FormulaError:
            pass  # a broken family fails where it is drawn, and `drill check` names its line


def __getattr__(name: str) -> Any:
    if name == "ParamError":
        from drill.estimate.params import ParamError

        return ParamError
    if name in ("Family", "Catalog"):
        from drill.estimate import schema as _family_mod

        return getattr(_family_mod, name)
    if name == "Problem":
        from drill.estimate.draw import Problem

        return Problem
    raise AttributeError(f"module 'drill.estimate' has no attribute {name!r}")

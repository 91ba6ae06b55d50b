"""`drill problems`, `drill solve` and `drill grade`: the estimation families from scripts."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.estimate.schema import Family

GRADE_KEYS = ("correct", "score", "truth", "parsed", "error")
PARAMS_HELP = """\
ID is an estimation family as `drill problems` lists it (its first column; the other columns are
its block, its answer's unit and the parameters it needs).

Each KEY=VALUE sets one parameter: a number (batch=16, bytes=14e9, bandwidth=50e9) in base units
(bytes, seconds, FLOP). A family that draws from a catalog also takes the entry's name for the
catalog's key (model=llama-3-70b, gpu=h100-sxm, network=rail-hdr, precision=int4): the entry fills
the parameters it defines, and any KEY=VALUE given alongside it wins. The entries are in
problems/models.toml, gpus.toml, networks.toml and precisions.toml.

  drill solve kv-cache model=llama-3-70b batch=1 seq_len=4096 bytes_per_elem=2
  drill solve allreduce-time bytes=14e9 gpus=8 bandwidth=50e9
  drill solve allreduce-time network=rail-hdr bytes=14e9 gpus=64

Parameters that are physically impossible (a sequence beyond the model's context window, weights
larger than the GPUs' memory, more GPUs than the topology holds) are refused with the reason.
"""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    problems = commands.add_parser("problems", help="list the estimation problem families")
    problems.add_argument("--json", action="store_true", help="print a JSON array")
    problems.set_defaults(handler=cmd_problems)
    solve = commands.add_parser(
        "solve",
        help="the true answer of a problem for given parameters",
        epilog=PARAMS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solve.add_argument("family", metavar="ID")
    solve.add_argument("params", nargs="*", metavar="KEY=VALUE")
    solve.set_defaults(handler=cmd_solve)
    grade = commands.add_parser(
        "grade",
        help="grade an answer to a problem for given parameters",
        epilog=PARAMS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    grade.add_argument("family", metavar="ID")
    grade.add_argument("params", nargs="*", metavar="KEY=VALUE")
    grade.add_argument(
        "--answer",
        required=True,
        help="the answer, with its unit where the question has one (as in the app): '2.7 GB', '0.49 s', "
        "'6 GB / (300 GB/s)', '18%%'",
    )
    grade.set_defaults(handler=cmd_grade)


def _family(family_id: str) -> Family:
    from drill.estimate.schema import families, family
    from drill.paths import Paths

    problems = Paths.resolve().problem_dirs()
    try:
        return family(problems, family_id)
    except KeyError:
        known = ", ".join(sorted(found.id for found in families(problems)))
        raise SystemExit(f"drill: no estimation problem {family_id!r}; known: {known}") from None


def cmd_problems(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.estimate.schema import families
    from drill.paths import Paths

    rows = [family.describe() for family in families(Paths.resolve().problem_dirs())]
    if args.json:
        print_json(rows)
    else:
        for row in rows:
            print(f"{row['id']:<24} {row['block']:<13} {row['unit']:<10} {', '.join(row['parameters'])}")
    return 0


def _run(args: argparse.Namespace, answer: str | None) -> int:
    from drill.commands.output import print_json
    from drill.estimate.answer_check import check_answer
    from drill.estimate.feasible import refuse_impossible
    from drill.estimate.params import complete, parse_assignments
    from drill.estimate.score import grade, solve

    family = _family(args.family)
    try:
        params = parse_assignments(args.params)
        if answer is None:
            print_json(solve(family, params))
        else:
            refuse_impossible(family, complete(family, params))
            result = grade(family, params, answer)
            verdict = {key: getattr(result, key) for key in GRADE_KEYS}
            refusal = check_answer(family.unit, answer)  # the TUI's rule: "2.68" for bytes asks for a unit
            if refusal is not None:
                verdict.update(correct=False, score=0.0, parsed=None, error=refusal)
            print_json(verdict)
    except ValueError as error:
        print(f"drill: {error}", file=sys.stderr)
        return 2
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    return _run(args, None)


def cmd_grade(args: argparse.Namespace) -> int:
    return _run(args, args.answer)

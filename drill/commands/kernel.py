"""`drill kernel list | test | verify`: coding drills from the command line.

Only argparse is imported here; each handler imports what it needs, so `drill` starts fast.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.coding.runner.result import TestResult


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `kernel` and its actions to drill's subcommands."""
    kernel = subparsers.add_parser("kernel", help="coding drills: list them, test a solution, verify the drills")
    actions = kernel.add_subparsers(dest="kernel_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="list the coding drills")
    listing.add_argument("--json", action="store_true", help="print a JSON array")
    listing.set_defaults(handler=cmd_list)
    test = actions.add_parser(
        "test",
        help="run a drill's hidden tests against your file (exit 0 whatever the result; "
        "2 when this Python cannot run them)",
    )
    test.add_argument("id", help="the drill id, e.g. quantize-per-channel")
    test.add_argument("--solution", required=True, help="the Python file to test")
    test.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    test.add_argument("--json", action="store_true", help="print the result as JSON")
    test.add_argument("--timeout", type=float, default=None, help="wall-clock limit in seconds (default 60)")
    test.add_argument("--benchmark", action="store_true", help="after a pass, time it against the reference")
    test.set_defaults(handler=cmd_test)
    verify = actions.add_parser(
        "verify",
        help="check every drill folder (path:line errors), then that every "
        "reference and alternate passes and every starter and mutant fails",
    )
    verify.add_argument("ids", nargs="*", metavar="ID", help="only these drills (default: all, yours included)")
    verify.add_argument(
        "--device",
        choices=["cpu", "cuda"],
        action="append",
        help="only this device (repeatable; default cpu, and cuda when present)",
    )
    verify.add_argument("--jobs", type=int, default=2, help="drills checked in parallel (default 2)")
    verify.set_defaults(handler=cmd_verify)


def cmd_list(args: argparse.Namespace) -> int:
    from drill.coding.drills import load_drills
    from drill.commands.output import print_json
    from drill.paths import Paths

    rows = [drill.listing() for drill in load_drills(Paths.resolve().kernel_dirs())]
    if args.json:
        print_json(rows)
    else:
        for row in rows:
            print(
                f"{row['id']:<24} {row['difficulty']:<6} {row['budget_s'] // 60:>3} min  {row['block']:<13} "
                f"{row['title']}"
            )
    return 0


def cmd_test(args: argparse.Namespace) -> int:
    from pathlib import Path

    from drill.coding.drills import DrillError, find_drill
    from drill.coding.runner.api import run_tests
    from drill.coding.runner.environment import describe, missing_requirements
    from drill.coding.runner.invocation import DEFAULT_TIMEOUT_S
    from drill.commands.output import print_json
    from drill.paths import Paths

    try:
        drill = find_drill(Paths.resolve().kernel_dirs(), args.id)
    except DrillError as error:
        print(f"drill: {error}", file=sys.stderr)
        return 2
    solution = Path(args.solution)
    if not solution.is_file():
        what = "is a folder, not a Python file" if solution.is_dir() else "does not exist"
        print(f"drill: --solution {solution} {what}", file=sys.stderr)
        return 2
    if missing := missing_requirements(drill):  # find_spec only: nothing is imported or run
        return environment_error(describe(missing), args.json)
    # one run per command: the cold runner is as fast as starting a worker, and leaves nothing behind
    run = run_tests(
        drill, solution, args.device, args.timeout or DEFAULT_TIMEOUT_S, warm=False, benchmark=args.benchmark or None
    )
    if run.environment:  # this Python's failure, not a verdict on the file
        if args.json:
            print_json(run.as_json())
        print(f"drill: {run.reason}", file=sys.stderr)
        return 2
    if args.json:
        print_json(run.as_json())
        return 0
    print_failures(run.tests)
    print(f"{run.status.upper()}: {run.headline} ({run.seconds:.1f} s)")  # the counts are in the reason
    if run.speed_ratio is not None and run.candidate_s is not None and run.reference_s is not None:
        print(
            f"speed vs reference: {run.speed_ratio:.2f}x "
            f"({run.candidate_s * 1e3:.3f} ms vs {run.reference_s * 1e3:.3f} ms)"
        )
    return 0


def environment_error(message: str, as_json: bool) -> int:
    """This Python cannot run coding drills: the fixing command on stderr (and a JSON error), exit 2."""
    if as_json:
        from drill.coding.runner.result import error_run
        from drill.commands.output import print_json

        print_json(error_run(message, environment=True).as_json())
    print(f"drill: {message}", file=sys.stderr)
    return 2


def print_failures(tests: list[TestResult], groups: int = 5) -> None:
    """Each distinct failure message once, with the tests that share it."""
    by_message: dict[tuple[str, str], list[str]] = {}
    for test in tests:
        if test.outcome in ("failed", "error"):
            by_message.setdefault((test.outcome, test.message), []).append(test.name)
    for (outcome, message), names in list(by_message.items())[:groups]:
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        print(f"{outcome.upper()} {', '.join(names[:3])}{more}\n    " + message.replace("\n", "\n    "))
    if len(by_message) > groups:
        print(f"... and {len(by_message) - groups} more distinct failures")


def cmd_verify(args: argparse.Namespace) -> int:
    from drill.coding.drills import check, load_drills
    from drill.coding.runner.environment import describe, missing_requirements
    from drill.coding.verify import verify
    from drill.paths import Paths
    from drill.words import counted

    kernel_dirs = Paths.resolve().kernel_dirs()
    errors = check(kernel_dirs)  # folders that do not load are reported here, as path:line
    for error in errors:
        print(error, flush=True)
    drills = load_drills(kernel_dirs)
    if unknown := sorted(set(args.ids) - {drill.id for drill in drills}):
        print(f"drill: no loadable drill named {', '.join(unknown)}", file=sys.stderr)
        return 2
    if missing := missing_requirements(*drills):
        print(f"drill: {describe(missing)}", file=sys.stderr)
        return 2
    from drill.coding.sandbox.contain import available

    print(f"runs contained by {available().describe()}", file=sys.stderr, flush=True)
    verdicts = verify(
        kernel_dirs,
        devices=args.device,
        jobs=args.jobs,
        ids=args.ids,
        on_verdict=lambda verdict: print(verdict.line(), flush=True),
    )
    bad = [verdict for verdict in verdicts if not verdict.ok]
    if not verdicts and not errors:
        print("no drills found", file=sys.stderr)
        return 1
    print(
        f"{len(verdicts) - len(bad)}/{len(verdicts)} drill checks ok"
        + (f", {counted(len(errors), 'error')} in drill folders" if errors else ""),
        file=sys.stderr,
    )
    return 1 if bad or errors else 0

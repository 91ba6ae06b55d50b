"""`drill mock`: the TUI straight into the mock-interview setup; `drill mock --history [--json]`:
every mock interview and every mock estimation round so far, each under its own heading.

Only argparse is imported here; the handler imports the store or Textual when it runs.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

EVERY_ROUND = 2**63 - 1  # round_history's limit that lists every round (SQLite's largest LIMIT)

if TYPE_CHECKING:
    from drill.interview.scorecard import Scorecard
    from drill.store.estimates import RoundRow


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mock = commands.add_parser("mock", help="a mock interview (grill, pitch, estimates, a drill) under one countdown")
    mock.add_argument(
        "--history", action="store_true", help="list past mock interviews and estimation rounds instead of starting one"
    )
    mock.add_argument(
        "--json", action="store_true", help='with --history: {"interviews": every interview and answer, "rounds": ...}'
    )
    mock.set_defaults(handler=cmd_mock)


def cmd_mock(args: argparse.Namespace) -> int:
    if args.history or args.json:
        return history(args.json)
    from drill.paths import Paths

    paths = Paths.resolve()
    paths.ensure()
    from drill.tui.app import DrillApp

    DrillApp(paths, start_interview=True).run()
    return 0


def history(as_json: bool) -> int:
    from drill.commands.output import print_json
    from drill.store.estimates import round_history
    from drill.store.interviews import interview_history
    from drill.study import Study

    study = Study.open()
    try:
        interviews = interview_history(study.engine, limit=None)
        rounds = round_history(study.engine, limit=EVERY_ROUND)
    finally:
        study.close()
    if as_json:
        print_json(
            {
                "interviews": [card.model_dump(mode="json") for card in interviews],
                "rounds": [row.model_dump(mode="json") for row in rounds],
            }
        )
        return 0
    print("Mock interviews")
    print("\n".join(history_lines(interviews)) or "none yet: `drill mock` starts one")
    print("\nMock estimation rounds")
    print("\n".join(round_lines(rounds)) or "none yet: m on the home screen starts one")
    return 0


def history_lines(interviews: list[Scorecard]) -> list[str]:
    from drill.interview.settings import SECTION_TITLES
    from drill.stats.text import clock, local_time

    lines = []
    for card in interviews:
        sections = " · ".join(
            f"{SECTION_TITLES[s.section].lower()} {s.score:.0%} ({s.answered}/{s.planned})" for s in card.sections
        )
        started = local_time(card.started_at) if card.started_at else ""
        lines.append(
            f"{started}  {card.score:>4.0%}  {clock(card.seconds_used)}/{clock(card.settings.seconds)}  "
            f"{card.ended:<9}  {sections}"
        )
    return lines


def round_lines(rounds: list[RoundRow]) -> list[str]:
    """A line per mock estimation round, newest first: when, the score, answered, time used, how it
    ended (as an interview's line says it: done, time, abandoned, unfinished)."""
    from drill.estimate.rounds import ending
    from drill.stats.text import clock, local_time

    lines = []
    for row in rounds:
        score = "—" if row.score is None else f"{row.score:.0%}"
        ended = ending(row.problems, row.answered, row.abandoned, finished=row.score is not None)
        lines.append(
            f"{local_time(row.started_at)}  {score:>4}  {row.answered}/{row.problems} answered  "
            f"{clock(row.seconds)}/{clock(row.time_limit_s)}  {ended:<10}".rstrip()
        )
    return lines

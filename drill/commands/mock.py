"""`drill mock`: the TUI straight into the mock-interview setup; `drill mock --history [--json]`:
every mock interview so far.

Only argparse is imported here; the handler imports the store or Textual when it runs.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.interview.scorecard import Scorecard


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mock = commands.add_parser("mock", help="a mock interview (grill, pitch, estimates, a drill) under one countdown")
    mock.add_argument("--history", action="store_true", help="list past mock interviews instead of starting one")
    mock.add_argument("--json", action="store_true", help="with --history: every interview and answer as JSON")
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
    from drill.store.interviews import interview_history
    from drill.study import Study

    study = Study.open()
    try:
        interviews = interview_history(study.engine, limit=None)
    finally:
        study.close()
    if as_json:
        print_json([card.model_dump(mode="json") for card in interviews])
        return 0
    if not interviews:
        print("no mock interviews yet: `drill mock` starts one")
    for line in history_lines(interviews):
        print(line)
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

"""`drill review`: open today's review, or a custom session (blocks, topics, kinds, cram, review
ahead, weakest items) straight from the shell."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from drill.days import MAX_AHEAD_DAYS

if TYPE_CHECKING:
    from drill.schedule.custom import CustomSession

EPILOG = """All options combine. Without any, today's queue opens as from home. --block, --topic and
--kind narrow today's queue (repeat them for several). --cram takes every matching item, due or
not; --ahead DAYS the items due in the next DAYS days; --weakest N the N weakest items (lowest
predicted recall, then most lapses, then lowest estimation score). Cram, ahead and weakest grades
are logged as cram and keep every schedule unless --reschedule is given.
Example: drill review --block inference --weakest 10"""


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return int(text)


def days_ahead(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_AHEAD_DAYS:
        raise argparse.ArgumentTypeError(f"must be a whole number of days from 1 to {MAX_AHEAD_DAYS}, not {text!r}")
    return int(text)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from drill.content.vocabulary import BLOCKS
    from drill.schedule.custom import SESSION_KINDS

    review = commands.add_parser(
        "review",
        help="open today's review, or a custom session",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    review.add_argument(
        "--block",
        action="append",
        choices=BLOCKS,
        default=[],
        metavar="BLOCK",
        help=f"only this block ({', '.join(BLOCKS)})",
    )
    review.add_argument("--topic", action="append", default=[], metavar="TEXT", help="only topics containing TEXT")
    review.add_argument("--kind", action="append", choices=SESSION_KINDS, default=[], help="only this kind")
    review.add_argument("--weakest", type=positive, metavar="N", help="only the N weakest items")
    review.add_argument(
        "--ahead", type=days_ahead, metavar="DAYS", help=f"items due in the next DAYS days (1 to {MAX_AHEAD_DAYS})"
    )
    review.add_argument("--cram", action="store_true", help="every matching item, due or not")
    review.add_argument("--reschedule", action="store_true", help="let cram, ahead and weakest grades move schedules")
    review.set_defaults(handler=cmd_review)


def session(args: argparse.Namespace) -> CustomSession | None:
    """The custom session the options ask for; None when they ask for none (today's queue)."""
    from drill.schedule.custom import CustomSession

    spec = CustomSession(
        tuple(args.block), tuple(args.topic), tuple(args.kind), args.weakest, args.ahead, args.cram, args.reschedule
    )
    return None if spec == CustomSession() else spec


def cmd_review(args: argparse.Namespace) -> int:
    from drill.errors import UserFacingError
    from drill.paths import Paths

    spec = session(args)
    if args.reschedule and (spec is None or not spec.early):
        raise UserFacingError("--reschedule only applies with --cram, --ahead or --weakest")
    paths = Paths.resolve()
    paths.ensure()
    from drill.tui.app import DrillApp

    DrillApp(paths, start_review=True, custom=spec).run()
    return 0

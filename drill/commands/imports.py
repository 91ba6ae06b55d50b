"""`drill import FILE [--block B] [--topic T] [--json]` and `drill import --history FILE`.

Only argparse is imported here; the handler imports the importers when it runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from drill.commands.stats import BLOCKS


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "import", help="import cards from a Markdown deck or an Anki text export, or past reviews (--history)"
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="a Markdown deck (.md: Q:/A: blocks) or an "
                        "Anki 'Notes in Plain Text' export (.txt/.csv/.tsv)")
    parser.add_argument("--history", action="store_true",
                        help="FILE is a review log (card_id,review_time,review_rating,review_duration)")
    parser.add_argument("--block", choices=BLOCKS, help="block of the cards that name none (an Anki tag can name one)")
    parser.add_argument("--topic", help="topic of the cards that name none (default: the file name)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.interop.errors import InteropError

    if args.history and (args.block or args.topic):
        print("drill: --block and --topic are for card imports, not --history", file=sys.stderr)
        return 2
    try:
        report = _import_history(args.file) if args.history else _import_deck(args)
    except InteropError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"drill: {args.file} was not imported ({len(error.problems)} problem(s)); nothing was changed",
              file=sys.stderr)
        return 1
    if args.json:
        print_json(report.as_json())
    else:
        print("\n".join(report.lines()))
    return 0


def _import_deck(args: argparse.Namespace):
    from drill.interop.deck_import import import_deck
    from drill.paths import Paths
    from drill.study import Study

    paths = Paths.resolve()
    report = import_deck(paths, args.file, args.block, args.topic)
    Study.open(paths).close()  # the sync adds, edits and retires the imported cards
    return report


def _import_history(path: Path):
    from drill.interop.history_csv import import_history
    from drill.study import Study

    study = Study.open()
    try:
        return import_history(study, path)
    finally:
        study.close()

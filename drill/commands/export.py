"""`drill export --anki PATH.apkg [--with-schedule]` / `--history PATH.csv`: cards for Anki, reviews
for FSRS tools. `-` is standard output; what an export did is said on stderr when its data goes to
standard output."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from drill.words import counted

if TYPE_CHECKING:
    from drill.interop.anki_schedule import Schedules
    from drill.paths import Paths


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = commands.add_parser("export", help="write the cards as an Anki package, or the review history as CSV")
    export.add_argument(
        "--anki",
        type=Path,
        metavar="PATH.apkg",
        help="every card and pitch as Anki notes (- for standard output); a note keeps its modification time "
        "until its text changes, so Anki updates only the notes that changed (edits made to those in Anki are lost)",
    )
    export.add_argument(
        "--with-schedule",
        action="store_true",
        help="with --anki: each card's schedule and review log too (Anki takes them when it first adds a card, "
        'if "Import any learning progress" is ticked)',
    )
    export.add_argument(
        "--history",
        type=Path,
        metavar="PATH.csv",
        help="every review as card_id,review_time,review_rating,review_duration,cram (- for standard output)",
    )
    export.set_defaults(handler=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from drill.interop.atomic import STDOUT, is_stdout, shown

    problem = None
    if args.anki is None and args.history is None:
        problem = "export needs --anki PATH.apkg, --history PATH.csv or both"
    elif args.with_schedule and args.anki is None:
        problem = "--with-schedule goes with --anki PATH.apkg"
    elif args.anki == args.history == STDOUT:
        problem = "only one of --anki and --history can write to standard output (-)"
    elif args.anki is not None and is_stdout(args.anki) and sys.stdout.isatty():
        problem = "an Anki package is binary: send it to a file or a pipe (drill export --anki - > drill.apkg)"
    if problem:
        print(f"drill: {problem}", file=sys.stderr)
        return 2
    from drill.paths import Paths

    paths = Paths.resolve()
    to_stdout = any(target is not None and is_stdout(target) for target in (args.anki, args.history))
    said = sys.stderr if to_stdout else sys.stdout
    for target, write in ((args.anki, _anki), (args.history, _history)):
        if target is None:
            continue
        try:
            print("\n".join(write(paths, target, args.with_schedule)), file=said)
        except OSError as error:
            print(f"drill: cannot write {shown(target)}: {error.strerror or error}", file=sys.stderr)
            return 1
    return 0


def _anki(paths: Paths, target: Path, with_schedule: bool) -> list[str]:
    from drill.interop.anki_export import export_anki

    return export_anki(paths, target, _schedules(paths) if with_schedule else None).lines()


def _schedules(paths: Paths) -> Schedules:
    """Every item's schedule as the store holds it today (the content synced first)."""
    from drill.interop.anki_schedule import Schedules
    from drill.store.schedules import item_schedules
    from drill.study import Study

    study = Study.open(paths)
    try:
        return Schedules(item_schedules(study.engine), study.today, study.config.rollover_hour)
    finally:
        study.close()


def _history(paths: Paths, target: Path, _with_schedule: bool) -> list[str]:
    from drill.interop.atomic import shown
    from drill.interop.history_csv import export_history
    from drill.study import Study

    study = Study.open(paths)
    try:
        return [f"{shown(target)}: {counted(export_history(study.engine, target), 'review')}"]
    finally:
        study.close()

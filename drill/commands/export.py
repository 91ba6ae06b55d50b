"""`drill export --anki PATH.apkg` / `--history PATH.csv`: cards for Anki, reviews for FSRS tools."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.paths import Paths


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = commands.add_parser("export", help="write the cards as an Anki package, or the review history as CSV")
    export.add_argument("--anki", type=Path, metavar="PATH.apkg", help="every card and pitch as Anki notes")
    export.add_argument(
        "--history",
        type=Path,
        metavar="PATH.csv",
        help="every review as card_id,review_time,review_rating,review_duration",
    )
    export.set_defaults(handler=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    if args.anki is None and args.history is None:
        print("drill: export needs --anki PATH.apkg, --history PATH.csv or both", file=sys.stderr)
        return 2
    from drill.paths import Paths

    paths = Paths.resolve()
    for target, write in ((args.anki, _anki), (args.history, _history)):
        if target is None:
            continue
        try:
            print("\n".join(write(paths, target)))
        except OSError as error:
            print(f"drill: cannot write {target}: {error.strerror or error}", file=sys.stderr)
            return 1
    return 0


def _anki(paths: Paths, target: Path) -> list[str]:
    from drill.interop.anki_export import export_anki

    return export_anki(paths, target).lines()


def _history(paths: Paths, target: Path) -> list[str]:
    from drill.interop.history_csv import export_history
    from drill.study import Study

    study = Study.open(paths)
    try:
        return [f"{target}: {export_history(study.engine, target)} review(s)"]
    finally:
        study.close()

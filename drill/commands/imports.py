"""`drill import FILE [--block B] [--topic T] [--write-ids] [--json]` and `drill import --history FILE`.

Only argparse is imported here; the handler imports the importers when it runs. A history import
backs the database up first (its report says where) and shows its progress on stderr when that is
a terminal (rich's progress bar, gone when it ends).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from drill.commands.stats import BLOCKS
from drill.words import counted

if TYPE_CHECKING:
    from rich.progress import TaskID

    from drill.interop.anki_import import AnkiImportReport
    from drill.interop.deck_import import ImportReport
    from drill.interop.history_csv import HistoryImportReport, Progress
    from drill.paths import Paths


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "import", help="import cards from a Markdown deck or an Anki text export, or past reviews (--history)"
    )
    parser.add_argument(
        "file",
        type=Path,
        metavar="FILE",
        help="a Markdown deck (.md: hashcards' Q:/A: and C: cards), an Anki plain-text export (.txt/.csv/.tsv) "
        "or an Anki package; - reads stdin",
    )
    parser.add_argument(
        "--history",
        action="store_true",
        help="FILE is a review log (card_id,review_time,review_rating,review_duration)",
    )
    parser.add_argument("--block", choices=BLOCKS, help="block of the cards that name none (an Anki tag can name one)")
    parser.add_argument("--topic", help="topic of the cards that name none (default: the file name; stdin's: stdin)")
    parser.add_argument(
        "--write-ids",
        action="store_true",
        help="also write each card's id into FILE (drill otherwise never writes to it)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.interop.errors import InteropError

    if args.history and (args.block or args.topic or args.write_ids):
        print("drill: --block, --topic and --write-ids are for card imports, not --history", file=sys.stderr)
        return 2
    report: HistoryImportReport | ImportReport | AnkiImportReport
    lines: list[str] = []  # after the report's
    extra: dict[str, str | None] = {}  # in its JSON
    try:
        if args.history:
            report, backup = _import_history(args.file)
            lines, extra = [_backup_line(backup)], {"backup": None if backup is None else str(backup)}
        else:
            report = _import_deck(args)
    except InteropError as error:
        for line in error.lines():
            print(line, file=sys.stderr)
        print(
            f"drill: {args.file} was not imported ({counted(error.count, 'problem')}); nothing was changed",
            file=sys.stderr,
        )
        return 1
    if args.json:
        print_json(report.model_dump(mode="json") | extra)
    else:
        print("\n".join([*report.lines(), *lines]))
    return 0


def _import_deck(args: argparse.Namespace) -> ImportReport | AnkiImportReport:
    from drill.interop.deck_format import detect_format, read_deck
    from drill.interop.deck_import import import_deck
    from drill.paths import Paths
    from drill.study import Study

    data = read_deck(args.file)  # read once: stdin and pipes cannot be read again
    if detect_format(args.file, data) == "anki-package":
        return _import_package(args, data)
    paths = Paths.resolve()
    report = import_deck(paths, args.file, args.block, args.topic, write_ids=args.write_ids, data=data)
    Study.open(paths).close()  # the sync adds, edits and retires the imported cards
    return report


def _import_package(args: argparse.Namespace, data: bytes) -> AnkiImportReport:
    """Anki's own file: its notes, and its review log merged into drill's history."""
    from drill.interop.anki_import import import_anki_package
    from drill.interop.errors import InteropError
    from drill.study import Study

    if args.write_ids:
        raise InteropError([f"{args.file}: --write-ids is for text decks; drill never writes into an Anki file"])
    with _readable_again(args.file, data) as source:
        study = Study.open()
        try:
            with _progress_bar() as progress:
                report = import_anki_package(study, source, args.block, args.topic, progress)
            return report.model_copy(update={"source": args.file})  # `-`, not the temporary copy
        finally:
            study.close()


@contextmanager
def _readable_again(source: Path, data: bytes) -> Iterator[Path]:
    """`source`, or, when it is a stream already read into `data`, a temporary file holding those
    bytes under the same name (stdin's: `stdin`)."""
    from drill.interop.textfile import is_stream

    if not is_stream(source):
        yield source
        return
    with tempfile.TemporaryDirectory(prefix="drill-import-") as folder:
        copy = Path(folder) / ("stdin" if source == Path("-") else source.name)
        copy.write_bytes(data)
        yield copy


def _import_history(path: Path) -> tuple[HistoryImportReport, Path | None]:
    """Import the review log at `path` after backing the database up: the report and the backup."""
    from drill.interop.history_csv import import_history
    from drill.study import Study

    study = Study.open()
    try:
        backup = _back_up(study.paths, study.config.backups_keep_manual)
        with _progress_bar() as progress:
            return import_history(study, path, progress), backup
    finally:
        study.close()


def _back_up(paths: Paths, keep: int) -> Path | None:
    """A backup of the database as `drill backup` makes one (`keep` of those kept); None with DRILL_DB_URL."""
    from drill.days import utc_now
    from drill.store.backup import make_backup, uses_server

    return None if uses_server() else make_backup(paths.database, paths.backups, keep, utc_now())


def _backup_line(backup: Path | None) -> str:
    from drill.store.backup import SERVER_MESSAGE

    if backup is None:
        return f"no backup before the import: {SERVER_MESSAGE}"
    return f"backup before the import: {backup} (drill restore {backup} undoes the import)"


@contextmanager
def _progress_bar() -> Iterator[Progress]:
    """A Progress callback drawing a bar per stage on stderr when it is a terminal; silent otherwise."""
    if not sys.stderr.isatty():
        yield lambda _what, _done, _total: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        tasks: dict[str, TaskID] = {}

        def update(what: str, done: int, total: int) -> None:
            if what not in tasks:
                tasks[what] = bar.add_task(what, total=total)
            bar.update(tasks[what], completed=done, total=total)

        yield update

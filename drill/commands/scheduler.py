"""`drill scheduler compare`: which registered memory model (SM-2, FSRS, …) fits the user's own
reviews better; `drill scheduler optimize`: FSRS's parameters fitted to those reviews."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.paths import Paths


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from drill.schedule import memory

    labels = ", ".join(model.label for model in memory.models())
    scheduler = commands.add_parser("scheduler", help=f"compare the memory models ({labels}) on your history")
    actions = scheduler.add_subparsers(dest="scheduler_command", metavar="ACTION", required=True)
    compare = actions.add_parser(
        "compare",
        help=f"replay your reviews through each memory model ({labels}, and FSRS with your fitted "
        "parameters once `drill scheduler optimize` stored some); report log loss and RMSE of their recall predictions",
    )
    compare.add_argument("--json", action="store_true", help="print JSON")
    compare.set_defaults(handler=cmd_compare)
    optimize = actions.add_parser(
        "optimize",
        help="fit FSRS's parameters to your own reviews (fsrs-rs, the optimizer Anki uses; py-fsrs's on a "
        "recent window when it is not installed) and store them when they predict your recall better than "
        "the defaults; FSRS then schedules with them",
    )
    optimize.add_argument("--json", action="store_true", help="print JSON")
    optimize.set_defaults(handler=cmd_optimize)


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def cmd_compare(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.config import Config
    from drill.paths import Paths
    from drill.schedule.fsrs_model import FSRSSettings
    from drill.schedule.replay import compare, label
    from drill.store.engine import open_store
    from drill.store.fsrs_parameters import read_parameters
    from drill.store.history import review_counts, review_history
    from drill.words import counted

    paths = Paths.resolve()
    paths.ensure()
    current = Config.load(paths.config).scheduler
    engine = open_store(paths)
    try:
        total, _counted = review_counts(engine)
        fitted = read_parameters(engine)
        result = compare(review_history(engine), None if fitted is None else FSRSSettings(parameters=fitted))
    finally:
        engine.dispose()
    if args.json:
        print_json({"scheduler": current, "reviews_stored": total, **result.model_dump(mode="json")})
        return 0
    print(
        f"{counted(total, 'review')} stored, {result.reviews} counted (one per item and day) "
        f"over {counted(result.items, 'item')}; "
        f"{result.compared} have an earlier review and are scored ({result.passed} passed)."
    )
    if result.compared:
        width = max(6, *(len(label(model)) for model in result.fits))
        print(f"  {'model':<{width}} {'log loss':>9} {'RMSE':>8} {'mean R':>8}")
        for model, fit in result.fits.items():
            print(
                f"  {label(model):<{width}} {_fmt(fit.log_loss):>9} {_fmt(fit.rmse):>8} {_fmt(fit.mean_prediction):>8}"
            )
        print(f"  actual pass rate {result.passed / result.compared:.4f}; scheduler in use: {current}")
    print(result.verdict)
    return 0


def _stored_line(paths: Paths) -> str:
    """What storing fitted parameters changes: FSRS schedules with them only where it is the scheduler."""
    from drill.config import Config
    from drill.schedule import memory

    current = Config.load(paths.config).scheduler
    if current == "fsrs":
        return "Stored: FSRS now schedules with them (`drill scheduler compare` shows both)."
    return (
        f"Stored for FSRS; {memory.get(current).label} still schedules your reviews. To switch, set "
        f'scheduler = "fsrs" in {paths.config} (`drill config` shows the setting; '
        "`drill scheduler compare` shows both)."
    )


def _tell(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def cmd_optimize(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.errors import UserFacingError
    from drill.paths import Paths
    from drill.schedule.fsrs_fit import MIN_REVIEWS, fit_history
    from drill.schedule.fsrs_optimize import FitError
    from drill.store.engine import open_store
    from drill.store.fsrs_parameters import write_parameters
    from drill.store.history import days_and_buttons

    progress = _tell if sys.stderr.isatty() else None  # the steps as they come, on a terminal only
    paths = Paths.resolve()
    paths.ensure()
    engine = open_store(paths)
    try:
        if progress is not None:
            progress("Reading your reviews…")
        histories = days_and_buttons(engine)
        try:
            report = fit_history(histories, announce=_tell, progress=progress)
        except ImportError as error:
            raise UserFacingError(
                f"fitting FSRS needs fsrs-rs-python, or py-fsrs's optimizer and torch: {error}"
            ) from None
        except FitError as error:
            raise UserFacingError(f"{error}; nothing changed") from None
        stored = report.better
        if stored:
            write_parameters(engine, report.parameters)
    finally:
        engine.dispose()
    if args.json:
        print_json({**report.model_dump(mode="json"), "stored": stored})
        return 0
    if report.parameters is None:
        print(
            f"Fitting FSRS needs at least {MIN_REVIEWS} reviews that follow an earlier review of the same item "
            f"on another day; you have {report.scored}. Nothing changed."
        )
        return 0
    print(
        f"Fitted FSRS with {report.optimizer} on {report.fitted_on:,} of your {report.scored:,} scored reviews "
        f"({report.reviews:,} counted): log loss {report.log_loss_default:.4f} with the default parameters, "
        f"{report.log_loss_fitted:.4f} with the fitted ones, over every scored review."
    )
    if stored:
        print(_stored_line(paths))
    else:
        print("The defaults predict your recall at least as well; nothing changed.")
    return 0

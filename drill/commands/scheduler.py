"""`drill scheduler compare`: which registered memory model (SM-2, FSRS, …) fits the user's own
reviews better."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    from drill.schedule import memory

    labels = ", ".join(model.label for model in memory.models())
    scheduler = commands.add_parser("scheduler", help=f"compare the memory models ({labels}) on your history")
    actions = scheduler.add_subparsers(dest="scheduler_command", metavar="ACTION", required=True)
    compare = actions.add_parser(
        "compare", help=f"replay your reviews through each memory model ({labels}); "
        "report log loss and RMSE of their recall predictions"
    )
    compare.add_argument("--json", action="store_true", help="print JSON")
    compare.set_defaults(handler=cmd_compare)


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.4f}"


def cmd_compare(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.config import Config
    from drill.paths import Paths
    from drill.schedule.replay import compare, label
    from drill.store.engine import open_store
    from drill.store.history import review_counts, review_history

    paths = Paths.resolve()
    paths.ensure()
    current = Config.load(paths.config).scheduler
    engine = open_store(paths)
    try:
        total, _counted = review_counts(engine)
        result = compare(review_history(engine))
    finally:
        engine.dispose()
    if args.json:
        print_json({"scheduler": current, "reviews_stored": total, **result.as_json()})
        return 0
    print(
        f"{total} reviews stored, {result.reviews} counted (one per item and day) over {result.items} items; "
        f"{result.compared} have an earlier review and are scored ({result.passed} passed)."
    )
    if result.compared:
        width = max(6, *(len(label(model)) for model in result.fits))
        print(f"  {'model':<{width}} {'log loss':>9} {'RMSE':>8} {'mean R':>8}")
        for model, fit in result.fits.items():
            print(f"  {label(model):<{width}} {_fmt(fit.log_loss):>9} {_fmt(fit.rmse):>8} {_fmt(fit.mean_prediction):>8}")
        print(f"  actual pass rate {result.passed / result.compared:.4f}; scheduler in use: {current}")
    print(result.verdict)
    return 0

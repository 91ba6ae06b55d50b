"""`drill list` (every item with its state, filtered) and `drill suspend|unsuspend|forget ID…`.

Only argparse is imported here; the handlers open the store when they run.
"""

from __future__ import annotations

import argparse
import sys

from drill.content.vocabulary import BLOCKS


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    listing = commands.add_parser("list", help="list every item with its state (due, interval, reviews, lapses…)")
    listing.add_argument(
        "--json",
        action="store_true",
        help='print a JSON array of {"id", "kind", "block", "topic", "prompt", "answer", "source", '
        '"state": {"due", "interval", "reviews", "lapses", "suspended", "leech"}}',
    )
    listing.add_argument("--suspended", action="store_true", help="only suspended items")
    listing.add_argument("--leech", action="store_true", help="only leeches")
    listing.add_argument("--due", action="store_true", help="only items due today or overdue (not suspended)")
    listing.add_argument("--block", choices=BLOCKS, default=None, help="only this block")
    listing.set_defaults(handler=cmd_list)
    for name, does in (
        ("suspend", "stop showing these items in reviews until unsuspended"),
        ("unsuspend", "show these suspended items in reviews again"),
        ("forget", "put these items back to new (their review history is kept, the forget in it)"),
    ):
        command = commands.add_parser(name, help=does)
        command.add_argument("ids", nargs="+", metavar="ID", help="an item id, as `drill list` prints it")
        command.set_defaults(handler=cmd_change, change=name)


def cmd_list(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.store.browse import item_rows
    from drill.store.browse_filter import ItemFilter, ItemIndex
    from drill.study import Study

    study = Study.open()
    try:
        choice = ItemFilter(block=args.block, suspended=args.suspended, leech=args.leech, due=args.due)
        index = ItemIndex(item_rows(study.engine, study.config.leech_threshold))
        rows, errors = index.select(choice, study.today), study.content_errors
        if not args.json:  # the JSON keeps each template; the lines show an example draw of it
            rows = study.estimation.as_drawn(rows)
    finally:
        study.close()
    if args.json:
        print_json(
            [
                {
                    "id": row.item_id,
                    "kind": row.kind,
                    "block": row.block,
                    "topic": row.topic,
                    "prompt": row.prompt,
                    "answer": row.answer,
                    "source": row.source,
                    "state": row.state_json(),
                }
                for row in rows
            ]
        )
    else:
        for row in rows:
            due = "new" if row.due is None else row.due.isoformat()
            flags = " ".join(flag for flag, on in (("suspended", row.suspended), ("leech", row.leech)) if on)
            prompt = " ".join(row.prompt.split())[:60]
            print(f"{row.item_id:<32} {row.kind:<8} {row.block:<13} {due:<10} {flags:<16} {prompt}".rstrip())
    for error in errors:
        print(error, file=sys.stderr)
    return 0


def cmd_change(args: argparse.Namespace) -> int:
    """Suspend, unsuspend or forget every id given; an unknown id changes nothing and exits 1."""
    from drill.store.browse import unknown_ids
    from drill.store.recorder import WriteFailures
    from drill.study import Study
    from drill.words import counted

    ids = list(dict.fromkeys(args.ids))
    study = Study.open()
    try:
        unknown = unknown_ids(study.engine, ids)
        if unknown:
            print(
                f"drill: no item with the id {', '.join(unknown)} (`drill list` prints the ids); nothing changed",
                file=sys.stderr,
            )
            return 1
        for item_id in ids:
            if args.change == "forget":
                study.reviews.save_forget(item_id)
            else:
                study.reviews.save_suspended(item_id, args.change == "suspend")
        study.drain()
    except WriteFailures as error:
        print(f"drill: not saved — {error}", file=sys.stderr)
        return 1
    finally:
        study.close()
    done = {"suspend": "suspended", "unsuspend": "unsuspended", "forget": "forgot (back to new, history kept)"}
    print(f"{done[args.change]} {counted(len(ids), 'item')}: {', '.join(ids)}")
    return 0

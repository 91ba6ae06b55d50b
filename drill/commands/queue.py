"""`drill queue`: today's review queue in order, as the review screen will show it."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    queue = commands.add_parser("queue", help="today's queue in order: due and new items of every kind")
    queue.add_argument(
        "--json", action="store_true", help='print [{"id", "kind", "block", "topic", "new"}] in review order'
    )
    queue.set_defaults(handler=cmd_queue)


def cmd_queue(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.paths import Paths
    from drill.study import Study
    from drill.words import counted

    paths = Paths.resolve()
    paths.ensure()
    study = Study.open(paths)
    try:
        cards = study.reviews.cards(study.reviews.queue())
    finally:
        study.close()
    rows = [
        {"id": card.item_id, "kind": card.kind, "block": card.block, "topic": card.topic, "new": card.state.is_new}
        for card in cards
    ]
    if args.json:
        print_json(rows)
        return 0
    for row in rows:
        print(f"{row['id']:<36} {row['kind']:<8} {row['block']:<13} {'new' if row['new'] else 'due':<4} {row['topic']}")
    kinds = {kind: sum(row["kind"] == kind for row in rows) for kind in ("card", "pitch", "estimate", "coding")}
    print(f"{counted(len(rows), 'item')}: " + ", ".join(f"{number} {kind}" for kind, number in kinds.items()))
    return 0

"""Today's queue: due items (most overdue first, blocks interleaved), then new items chosen by
the daily mix of kinds, the whole queue spread so that every kind recurs through the session;
siblings of an item earlier in it or reviewed today wait for another day (drill.schedule.siblings)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from itertools import groupby

from drill.schedule.siblings import bury

KINDS = ("card", "pitch", "estimate", "coding")
# New items a day per kind: at least one estimation problem and one coding drill from day one.
DEFAULT_NEW_MIX: Mapping[str, int] = {"card": 10, "pitch": 2, "estimate": 2, "coding": 1}
FILL_KINDS = ("card", "pitch", "estimate")  # kinds that may take up room another kind left unused


@dataclass(frozen=True)
class Candidate:
    """What the queue needs to know about an item."""

    item_id: str
    block: str
    due_day: date | None = None  # None for an item never reviewed
    kind: str = "card"
    siblings: str | None = None  # its sibling group (drill.schedule.siblings.group)


@dataclass(frozen=True)
class Limits:
    new_per_day: int = 15  # all kinds together
    max_reviews_per_day: int = 200
    new_done_today: int = 0
    reviews_done_today: int = 0
    new_mix: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_NEW_MIX))
    new_done_by_kind: Mapping[str, int] = field(default_factory=dict)


def kind_quotas(mix: Mapping[str, int], total: int) -> dict[str, int]:
    """New items a day per kind when `total` may be introduced: the mix itself when it fits,
    else the mix scaled down, every kind in it keeping one while the total allows (estimation
    first), the rest by largest remainder."""
    shares = {kind: number for kind, number in mix.items() if number > 0}
    whole = sum(shares.values())
    if total >= whole:
        return shares
    quotas = {kind: total * number // whole for kind, number in shares.items()}
    left = total - sum(quotas.values())
    order = sorted(shares, key=lambda kind: (quotas[kind] > 0, kind != "estimate", -(total * shares[kind] % whole)))
    for kind in order[:left]:
        quotas[kind] += 1
    return quotas


def choose_new(new: list[Candidate], limits: Limits) -> list[Candidate]:
    """Today's new items: each kind's quota (blocks round-robin within it), then room the
    quotas left unused filled from the other kinds, coding drills excepted."""
    room = max(0, limits.new_per_day - limits.new_done_today)
    quotas = kind_quotas(limits.new_mix, limits.new_per_day)
    by_kind: dict[str, list[Candidate]] = defaultdict(list)
    for candidate in new:
        by_kind[candidate.kind].append(candidate)
    chosen: list[Candidate] = []
    leftover: list[Candidate] = []
    for kind in KINDS:
        lane = interleave_blocks(by_kind.get(kind, []))
        take = max(0, quotas.get(kind, 0) - limits.new_done_by_kind.get(kind, 0))
        chosen += lane[:take]
        if kind in FILL_KINDS:
            leftover += lane[take:]
    return (chosen + spread_kinds(leftover))[:room]


def spread_kinds(items: list[Candidate]) -> list[Candidate]:
    """Each kind's items spaced evenly through the list, keeping their order within the kind."""
    counts: dict[str, int] = defaultdict(int)
    for item in items:
        counts[item.kind] += 1
    seen: dict[str, int] = defaultdict(int)
    keyed = []
    for index, item in enumerate(items):
        keyed.append(((seen[item.kind] + 0.5) / counts[item.kind], index, item))
        seen[item.kind] += 1
    return [item for _, _, item in sorted(keyed, key=lambda entry: entry[:2])]


def interleave_blocks(items: list[Candidate]) -> list[Candidate]:
    """Round-robin over blocks, keeping each block's own order."""
    by_block: dict[str, list[Candidate]] = defaultdict(list)
    for item in items:
        by_block[item.block].append(item)
    lanes = [iter(lane) for lane in by_block.values()]
    out: list[Candidate] = []
    while lanes:
        still = []
        for lane in lanes:
            following = next(lane, None)
            if following is not None:
                out.append(following)
                still.append(lane)
        lanes = still
    return out


def room_left(limits: Limits) -> int:
    """Reviews still allowed today."""
    return max(0, limits.max_reviews_per_day - limits.reviews_done_today)


def fills_day(due: Iterable[Candidate], limits: Limits, reviewed_today: Iterable[Candidate] = ()) -> bool:
    """Whether `due` alone fills today's room, siblings left out: then no new item, nor any item
    due after them, is shown. (How many siblings burying leaves out does not depend on the order.)"""
    return len(bury(due, reviewed_today)) >= room_left(limits)


def build(
    due: list[Candidate], new: list[Candidate], limits: Limits, reviewed_today: Iterable[Candidate] = ()
) -> list[str]:
    """The ids to review today, in order, within the daily limits (`chosen`'s)."""
    return [candidate.item_id for candidate in chosen(due, new, limits, reviewed_today)]


def chosen(
    due: list[Candidate], new: list[Candidate], limits: Limits, reviewed_today: Iterable[Candidate] = ()
) -> list[Candidate]:
    """The items to review today, in order, within the daily limits.

    `due` holds items whose due day has come; `new` holds unseen items in content order. Due
    items are chosen first, then new ones by the mix; the chosen are spread by kind. A sibling
    of an item reviewed today (`reviewed_today`) or of one earlier in the queue is left out.
    """
    ordered_due: list[Candidate] = []
    for _, same_day in groupby(sorted(due, key=lambda c: c.due_day or date.min), key=lambda c: c.due_day):
        ordered_due.extend(interleave_blocks(list(same_day)))
    shown = list(reviewed_today)
    ordered_due = bury(ordered_due, shown)
    new = bury(new, shown + ordered_due)
    return spread_kinds((ordered_due + choose_new(new, limits))[: room_left(limits)])

"""Mock rounds: which problems to draw, and what the round came to. Pure, no I/O."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from drill.config import MockRound
from drill.content.vocabulary import BLOCKS
from drill.estimate.attempt import Attempt

if TYPE_CHECKING:
    from drill.config import Config
    from drill.estimate.draw import Problem
    from drill.estimate.schema import Family


class RoundSettings(MockRound):
    """A round as the user sets it up (config.toml's [mock_round] remembers the last one). Unlike
    config.toml it may name no block: the setup screen says to pick one."""

    blocks: tuple[str, ...] = BLOCKS

    @property
    def seconds(self) -> int:
        return self.minutes * 60

    @classmethod
    def from_config(cls, config: Config) -> RoundSettings:
        """The setup config.toml remembers."""
        return cls.model_validate(config.mock_round.model_dump())

    def config_values(self) -> dict[str, Any]:
        """The config.toml setting that remembers this setup."""
        return {"mock_round": self}


def draw_round(families: list[Family], settings: RoundSettings, rng: random.Random) -> list[Problem]:
    """`settings.problems` fresh problems from the chosen blocks, no family repeated until all were used."""
    from drill.estimate.draw import generate

    pool = [family for family in families if family.block in settings.blocks]
    if not pool:
        raise ValueError("no estimation problems in the chosen blocks")
    order: list[Family] = []
    while len(order) < settings.problems:
        batch = pool[:]
        rng.shuffle(batch)
        order += batch
    return [generate(family, rng) for family in order[: settings.problems]]


# How a round ended: every problem answered / the clock ran out / Escape / drill closed during it
ENDINGS = ("done", "time", "abandoned", "unfinished")


def ending(problems: int, answered: int, abandoned: bool, finished: bool) -> str:
    """How a stored round ended (one of ENDINGS): a finished round short of answers ran out of time."""
    if abandoned:
        return "abandoned"
    if not finished:
        return "unfinished"
    return "done" if answered >= problems else "time"


@dataclass(frozen=True)
class RoundSummary:
    """The score (unanswered problems count as zero), time per problem and the worst answers."""

    problems: int
    attempts: list[Attempt]
    seconds_used: float | None = None  # the round's clock, start to end (None: the answers' own time)
    ended: str = "done"  # one of ENDINGS

    @property
    def abandoned(self) -> bool:
        return self.ended == "abandoned"

    @property
    def answered(self) -> int:
        return len(self.attempts)

    @property
    def score(self) -> float:
        return sum(attempt.score for attempt in self.attempts) / self.problems if self.problems else 0.0

    @property
    def seconds(self) -> float:
        """Time the round took: its clock when known, else the time spent on the answers."""
        if self.seconds_used is not None:
            return self.seconds_used
        return sum(attempt.seconds for attempt in self.attempts)

    def worst(self, count: int = 3) -> list[Attempt]:
        """The lowest-scoring answers below full credit, worst first."""
        misses = [attempt for attempt in self.attempts if attempt.score < 1.0]
        return sorted(misses, key=lambda attempt: attempt.score)[:count]


def stored_attempt(row: Mapping[str, Any], family: Family | None) -> Attempt:
    """A past round's answer read back from its stored row: the problem rebuilt from the stored
    numbers and graded again for the worked solution, the stored score standing. Without its
    family (removed, or its parameters since changed) only what the row keeps."""
    from pydantic import TypeAdapter

    from drill.estimate.draw import Problem, instance
    from drill.estimate.items import family_id
    from drill.estimate.pretty import pretty
    from drill.estimate.result import GradeResult
    from drill.estimate.score import grade

    stored = TypeAdapter(GradeResult).validate_python(dict(row))  # the columns it keeps; the rest ignored
    answer, seconds = row["answer"], float(row["seconds"])
    if family is not None:
        try:
            problem = instance(family, dict(row["params"]))
            result = replace(grade(family, row["params"], answer), score=stored.score)
        except Exception:  # noqa: BLE001 - the family changed since: what was stored is shown
            family = None
    if family is None:
        problem = Problem(
            family_id(row["item_id"]),
            "",
            dict(row["params"]),
            "(this problem's family is no longer in problems/)",
            stored.truth,
            stored.unit,
        )
        result = replace(stored, truth_pretty=pretty(stored.truth, stored.unit))
    return Attempt(problem, answer, result, seconds, datetime.fromisoformat(row["attempted_at"]))

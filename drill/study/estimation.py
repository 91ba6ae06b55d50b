"""The estimation job: fresh numbers for an estimate item, answers graded into attempts, and mock
rounds (drawn, stored, their answers written, read back). sympy loads only on first use."""

from __future__ import annotations

import random
from concurrent.futures import Future
from dataclasses import replace
from typing import TYPE_CHECKING

from drill.estimate.attempt import Attempt
from drill.estimate.draw import Problem, generate
from drill.estimate.formula import warm_up as warm_up_family
from drill.estimate.items import family_id
from drill.estimate.rounds import RoundSettings, draw_round, stored_attempt
from drill.estimate.schema import families, family
from drill.estimate.score import grade
from drill.store.estimates import round_attempts, start_round
from drill.study.core import Core

if TYPE_CHECKING:
    from drill.store.browse import ItemRow


class Estimation:
    """Estimation problems drawn and graded, and mock rounds."""

    def __init__(self, study: Core) -> None:
        self.study = study

    def warm_up(self) -> None:
        """Pay sympy's import and compile the formulas now (call from a worker thread)."""
        for each in families(self.study.paths.problem_dirs()):
            warm_up_family(each)

    def new_problem(self, item_id: str) -> Problem:
        """Fresh numbers for the family behind an estimate item."""
        return generate(family(self.study.paths.problem_dirs(), family_id(item_id)), self.study.rng)

    def example_prompt(self, item_id: str) -> str:
        """The question of an estimate item as one draw reads, the same each time (seeded by its
        id): what a list shows in place of the template's {placeholders}."""
        return generate(family(self.study.paths.problem_dirs(), family_id(item_id)), random.Random(item_id)).prompt

    def as_drawn(self, rows: list[ItemRow]) -> list[ItemRow]:
        """Rows as a list shows them: each estimate's template read as its example draw."""
        return [
            replace(row, prompt=self.example_prompt(row.item_id)) if row.kind == "estimate" else row for row in rows
        ]

    def answer(self, problem: Problem, answer: str, seconds: float) -> Attempt:
        """Grade `answer` (never raises for any text) into an attempt."""
        result = grade(family(self.study.paths.problem_dirs(), problem.family_id), problem.params, answer)
        return Attempt(problem, answer, result, seconds, self.study.clock())

    # -- mock rounds ------------------------------------------------------------------------

    def start_round(self, settings: RoundSettings) -> tuple[int, list[Problem]]:
        """Draw a mock round's problems and store the round; its id and problems."""
        problems = draw_round(families(self.study.paths.problem_dirs()), settings, self.study.rng)
        round_id = start_round(
            self.study.engine, self.study.clock(), settings.problems, settings.seconds, list(settings.blocks)
        )
        return round_id, problems

    def save_round_answer(self, round_id: int, attempt: Attempt) -> Future[None]:
        return self.study.write("a mock-round answer", "round_answer", round_id, attempt.row())

    def save_round_end(self, round_id: int, score: float, abandoned: bool) -> Future[None]:
        return self.study.write(
            "the end of the mock round", "round_end", round_id, score, abandoned, self.study.clock()
        )

    def round_attempts(self, round_id: int) -> list[Attempt]:
        """A past mock round's answers, in order, with their problems and worked solutions."""
        by_id = {each.id: each for each in families(self.study.paths.problem_dirs())}
        return [
            stored_attempt(row, by_id.get(family_id(row["item_id"])))
            for row in round_attempts(self.study.engine, round_id)
        ]

"""One answered estimation problem, as it is stored and summarised."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from datetime import datetime

from pydantic.dataclasses import dataclass as read_model

from drill.estimate.draw import Problem
from drill.estimate.items import item_id
from drill.estimate.result import GradeResult, StoredGrade


@read_model(frozen=True, kw_only=True)
class AttemptRow(StoredGrade):
    """An estimate_attempt row's columns: the grade as stored, and the attempt's own (its review or
    mock round is the store's to add). The journal keeps it as JSON until the store has it."""

    item_id: str
    attempted_at: datetime
    params: str  # the drawn parameters, JSON
    answer: str
    seconds: float


@dataclass(frozen=True)
class Attempt:
    """A problem, the user's answer and its grade."""

    problem: Problem
    answer: str
    result: GradeResult
    seconds: float
    attempted_at: datetime

    @property
    def score(self) -> float:
        return self.result.score

    def row(self) -> AttemptRow:
        """The estimate_attempt columns (without review or round ids)."""
        return AttemptRow(
            **{column.name: getattr(self.result, column.name) for column in fields(StoredGrade)},
            item_id=item_id(self.problem.family_id),
            attempted_at=self.attempted_at,
            params=json.dumps(self.problem.params, default=str, sort_keys=True),
            answer=self.answer,
            seconds=self.seconds,
        )

    def worked_example(self) -> str:
        """Markdown: the problem solved, for studying before a try (the answer given is ignored)."""
        lines = [self.problem.prompt, "", f"Answer: `{self.result.truth_pretty}`", ""]
        return "\n".join(lines + [f"- {step}" for step in self.result.worked])

    def report(self) -> str:
        """Markdown: the verdict, both answers, and the worked solution."""
        lines = [f"**{self.result.feedback}**", ""]
        shown = self.result.parsed_pretty or (self.answer.strip() or "(no answer)")
        lines.append(f"Your answer: `{shown}` · truth: `{self.result.truth_pretty}` · score {self.score:.2f}")
        lines += ["", "**Worked solution**", ""]
        lines += [f"- {step}" for step in self.result.worked]
        return "\n".join(lines)

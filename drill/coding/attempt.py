"""One stored run of a drill's hidden tests: what the drill screen hands the study layer to keep."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from drill.coding.runner.result import TestRun


@dataclass(frozen=True)
class CodingAttempt:
    """A test run of the user's file, with the time on the drill's clock and the hints shown so far.
    Runs from one workspace (one start of the drill) make one attempt in the stats."""

    item_id: str
    started_at: datetime
    finished_at: datetime
    status: str  # "pass", "fail", "error" or "timeout" (drill.coding.runner.result.Status)
    passed: int
    failed: int
    device: str
    hints_used: int
    seconds: float  # on the drill's clock when the run finished
    speed_ratio: float | None
    workspace: str  # the workspace folder

    @classmethod
    def of(
        cls,
        run: TestRun,
        item_id: str,
        started_at: datetime,
        finished_at: datetime,
        hints_used: int,
        seconds: float,
        workspace: str,
    ) -> CodingAttempt:
        return cls(
            item_id,
            started_at,
            finished_at,
            run.status,
            run.passed,
            run.failed,
            run.device,
            hints_used,
            seconds,
            run.speed_ratio,
            workspace,
        )

    def row(self) -> dict[str, Any]:
        """The coding_attempt columns (without the review id)."""
        return asdict(self)

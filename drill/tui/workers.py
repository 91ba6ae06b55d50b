"""How a background worker's failure is shown: one table by worker group, for the app and every
screen that runs workers. Workers are started with exit_on_error=False, so a failure is said in a
notice and never takes the app down."""

from __future__ import annotations

from typing import Any, Protocol

from textual.notifications import SeverityLevel
from textual.worker import Worker, WorkerState

SHOWN: dict[str, str] = {
    "study": "Could not read the study from the database",
    "mock": "Could not start the mock round",
    "drills": "Could not open the coding drills",
    "interview": "Could not prepare the mock interview",
    "stats": "Could not load the stats",
    "browser": "Could not read the items for the browser",
    "tests": "The tests could not be run",
    "watch": "Watching your file stopped",
    "prewarm": "",  # warming the test runner up is only a speed-up: its failure is silent
}
UNLISTED = "A background task failed"


def failure_notice(worker: Worker[Any]) -> str | None:
    """What to tell the user about a worker that raised (None: nothing)."""
    what = SHOWN.get(worker.group, UNLISTED)
    return f"{what}: {worker.error}" if what else None


class WorkerHost(Protocol):
    """What ShowsWorkerFailures needs of the app or screen it is mixed into."""

    def notify(
        self,
        message: str,
        *,
        title: str = ...,
        severity: SeverityLevel = ...,
        timeout: float | None = ...,
        markup: bool = ...,
    ) -> None: ...

    def worker_failed(self, worker: Worker[Any]) -> None: ...


class ShowsWorkerFailures:
    """Mixed into the app and the screens with workers: a worker that raised is said through SHOWN,
    and `worker_failed` puts the screen back in a usable state."""

    def on_worker_state_changed(self: WorkerHost, event: Worker.StateChanged) -> None:
        if event.state is not WorkerState.ERROR:
            return
        notice = failure_notice(event.worker)
        if notice:
            self.notify(notice, title="Something went wrong", severity="error", timeout=20)
        self.worker_failed(event.worker)

    def worker_failed(self, worker: Worker[Any]) -> None:
        """After `worker` failed (nothing to undo by default)."""

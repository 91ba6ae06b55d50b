"""The study layer the TUI and the CLI share: one user's study, a small core (drill.study.core:
the store opened, content synced, the day, the one writer) with a job for each kind of work:
reviews, estimation, drills, interviews, browsing. Screens hand their intentions to a job's
save methods; each write is journalled and committed in the background, and every one that
fails is reported to the app, which says it. No Textual here."""

from __future__ import annotations

from drill.study.browsing import Browsing
from drill.study.core import Core
from drill.study.drills import Drills
from drill.study.estimation import Estimation
from drill.study.interviews import Interviews
from drill.study.reviews import Reviews


class Study(Core):
    """One user's study: open it once (Study.open), then ask its jobs for cards and hand them answers."""

    reviews: Reviews
    estimation: Estimation
    drills: Drills
    interviews: Interviews
    browsing: Browsing

    def _add_jobs(self) -> None:
        self.reviews = Reviews(self)
        self.estimation = Estimation(self)
        self.drills = Drills(self)
        self.interviews = Interviews(self, self.estimation)
        self.browsing = Browsing(self, self.reviews)

"""Messages posted from workers to the app ("attributes down, messages up")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from drill.home import HomeSummary
    from drill.schedule.custom import CustomSession
    from drill.schedule.leech import Flagged
    from drill.schedule.records import Card, Grade
    from drill.store.recorder import FailedWrite
    from drill.study import Study


class StudyOpened(Message):
    """The database is open and the content synced."""

    def __init__(self, study: Study, home: HomeSummary) -> None:
        super().__init__()
        self.study = study
        self.home = home


class OpeningStep(Message):
    """The open has begun a slow step (an older store's upgrade, reading the decks), in words."""

    def __init__(self, words: str) -> None:
        super().__init__()
        self.words = words


class StudyFailed(Message):
    """Opening the study failed; `reason` is shown to the user."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class HomeRefreshed(Message):
    def __init__(self, home: HomeSummary) -> None:
        super().__init__()
        self.home = home


class QueueLoaded(Message):
    """Today's cards (or a custom session's), ready for the review screen."""

    def __init__(self, cards: list[Card], custom: CustomSession | None = None) -> None:
        super().__init__()
        self.cards = cards
        self.custom = custom


class GradeNotSaved(Message):
    """A grade's write failed (posted from the writer's thread): the review takes it back."""

    def __init__(self, grade: Grade) -> None:
        super().__init__()
        self.grade = grade


class WriteFailed(Message):
    """A write handed to the study did not commit (posted from the writer's thread)."""

    def __init__(self, failure: FailedWrite) -> None:
        super().__init__()
        self.failure = failure


class WriteWaiting(Message):
    """A write waits for the database: another drill holds its write lock (posted from the writer's thread)."""

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what


class HistoryProgress(Message):
    """History work begun by the open (the FSRS memory backfill) moved on (posted from the writer's thread)."""

    def __init__(self, what: str, done: int, total: int) -> None:
        super().__init__()
        self.what, self.done, self.total = what, done, total


class LeechFlagged(Message):
    """A saved grade flagged its item as a leech (posted from the writer's thread)."""

    def __init__(self, flagged: Flagged) -> None:
        super().__init__()
        self.flagged = flagged

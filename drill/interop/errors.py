"""The error every importer raises for a bad file: one `path:line: message` per problem."""

from __future__ import annotations

from drill.errors import UserFacingError
from drill.words import counted

SHOWN = 20  # problems listed; the rest are only counted (a file of a million bad rows prints 22 lines)


class InteropError(UserFacingError):
    """A file could not be imported: `problems` holds the first SHOWN `path:line: message` found,
    `count` how many there are in all."""

    def __init__(self, problems: list[str], count: int | None = None) -> None:
        self.problems = list(problems[:SHOWN])
        self.count = len(problems) if count is None else count
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        """The problems listed, then how many more there are."""
        more = self.count - len(self.problems)
        return self.problems + ([f"… and {counted(more, 'more problem')}"] if more else [])

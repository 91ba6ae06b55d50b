"""The error every importer raises for a bad file: one `path:line: message` per problem."""

from __future__ import annotations

from drill.errors import UserFacingError


class InteropError(UserFacingError):
    """A file could not be imported; `problems` holds every `path:line: message` found."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)

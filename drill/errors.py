"""The one base class of drill's own errors: each carries a one-line message meant for the user."""


class UserFacingError(Exception):
    """Something the user can act on; the CLI prints its message as one line and exits 2, the
    TUI shows it on the home screen."""

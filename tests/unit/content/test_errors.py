"""drill's own errors share one base class, so the CLI and the TUI handle them in one place."""

import pytest

from drill.cli import main
from drill.config import ConfigError
from drill.errors import UserFacingError
from drill.store.migrations import NewerDatabaseError
from drill.store.postgres import DatabaseUrlError


@pytest.mark.parametrize("error", [ConfigError, DatabaseUrlError, NewerDatabaseError])
def test_the_errors_a_user_can_act_on_are_user_facing(error) -> None:
    assert issubclass(error, UserFacingError)


def test_a_bad_database_url_is_one_line_and_exit_2(monkeypatch, drill_home, capsys) -> None:
    monkeypatch.setenv("DRILL_DB_URL", "mysql://me:pw@db.example/drill")
    assert main(["stats"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("drill: ") and err.count("\n") == 1 and "mysql://me:***@db.example/drill" in err

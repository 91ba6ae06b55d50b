"""The sessions lock: sessions share it, a restore takes it alone."""

import threading
import time

import pytest

from drill.store import session_lock
from drill.store.session_lock import (
    SessionLockError,
    hold_alone,
    hold_session,
    sessions_file,
)


def test_sessions_share_the_lock_and_keep_a_restore_out(tmp_path) -> None:
    database = tmp_path / "drill.db"
    first, second = hold_session(database), hold_session(database)
    assert sessions_file(database) == tmp_path / "drill.db.sessions"
    first.close()
    with pytest.raises(SessionLockError, match=f"^{database} is open in another drill"):
        hold_alone(database)
    second.close()
    second.close()  # closing twice is harmless
    with hold_alone(database):
        pass


def test_a_session_waits_for_a_restore_and_gives_up_after_its_wait(tmp_path) -> None:
    database = tmp_path / "drill.db"
    alone = hold_alone(database)
    with pytest.raises(SessionLockError, match="is being restored"):
        hold_session(database, wait=0.1)
    threading.Timer(0.2, alone.close).start()
    started = time.monotonic()
    with hold_session(database, wait=5):
        assert 0.1 < time.monotonic() - started < 5


def test_without_fcntl_nothing_is_locked(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(session_lock, "fcntl", None)
    database = tmp_path / "drill.db"
    with hold_session(database), hold_alone(database), hold_alone(database):
        pass
    assert not sessions_file(database).exists()

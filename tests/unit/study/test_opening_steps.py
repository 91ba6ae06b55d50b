"""An open says each of its slow steps as it begins: upgrading a store an older drill wrote (the
backup first, then each revision), reading the decks when they changed; an open of an up-to-date
store says nothing, and a command says the upgrade once."""

from __future__ import annotations

from helpers.older_store import OLD_REVISION, older_store

from drill.store.backup_files import Kind
from drill.store.engine import BACKING_UP, upgrading
from drill.store.migrations import SCHEMA_VERSION
from drill.study import Study
from drill.study.core import READING_DECKS, UPGRADE_SAID

REVISIONS = SCHEMA_VERSION - int(OLD_REVISION)


def pre_migration_backups(paths) -> list[str]:
    return [path.name for path in paths.backups.glob("*") if Kind.PRE_MIGRATION.value in path.name]


def test_an_older_store_says_its_backup_then_each_revision_then_the_decks(small_paths, clock) -> None:
    older_store(small_paths.database)
    steps: list[str] = []
    backups_when_told: list[int] = []

    def told(words: str) -> None:
        steps.append(words)
        backups_when_told.append(len(pre_migration_backups(small_paths)))

    Study.open(small_paths, clock, on_slow_step=told).close()
    assert REVISIONS == 11
    assert steps == [BACKING_UP, *(upgrading(step, REVISIONS) for step in range(1, REVISIONS + 1)), READING_DECKS]
    assert steps[3] == "Upgrading your store for this drill: step 3 of 11…"
    assert backups_when_told == [0] + [1] * (REVISIONS + 1)  # each step told as it begins: the backup first


def test_an_up_to_date_store_whose_decks_did_not_change_says_nothing(small_paths, clock) -> None:
    older_store(small_paths.database)
    Study.open(small_paths, clock, on_slow_step=lambda _words: None).close()
    steps: list[str] = []
    Study.open(small_paths, clock, on_slow_step=steps.append).close()
    assert steps == []


def test_a_new_store_is_created_without_a_word_of_upgrading(small_paths, clock) -> None:
    steps: list[str] = []
    Study.open(small_paths, clock, on_slow_step=steps.append).close()
    assert steps == [READING_DECKS]
    assert pre_migration_backups(small_paths) == []


def test_changed_decks_are_said_to_be_read(small_paths, clock, deck_dir) -> None:
    Study.open(small_paths, clock).close()
    (deck_dir / "a.toml").write_text((deck_dir / "a.toml").read_text() + "\n")
    steps: list[str] = []
    Study.open(small_paths, clock, on_slow_step=steps.append).close()
    assert steps == [READING_DECKS]


def test_a_command_says_the_upgrade_once(small_paths, clock) -> None:
    older_store(small_paths.database)
    said: list[str] = []
    Study.open(small_paths, clock, say=said.append).close()
    assert said == [UPGRADE_SAID]
    said.clear()
    Study.open(small_paths, clock, say=said.append).close()
    assert said == []

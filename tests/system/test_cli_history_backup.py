"""`drill import --history` backs the database up first and says where; restoring that backup
takes the import back."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from pathlib import Path

from drill.cli import main
from drill.paths import Paths
from drill.store.backup_files import Kind, list_backups
from drill.study import Study


def review_log(tmp_path: Path) -> Path:
    """Two reviews of the first card in today's queue, as Anki's review-log CSV."""
    study = Study.open(Paths.resolve())
    try:
        item_id = study.reviews.queue()[0]
    finally:
        study.close()
    card = int.from_bytes(hashlib.sha256(item_id.encode()).digest(), "big") >> (256 - 53)
    now = int(datetime.now(UTC).timestamp() * 1000)
    log = tmp_path / "log.csv"
    log.write_text(
        f"card_id,review_time,review_rating,review_duration\n{card},{now - 2000},3,100\n{card},{now - 1000},4,100\n"
    )
    return log


def reviews_total(capsys) -> int:
    assert main(["stats", "--json"]) == 0
    return json.loads(capsys.readouterr().out)["reviews_total"]


def test_the_backup_is_named_and_undoes_the_import(capsys, tmp_path: Path) -> None:
    log = review_log(tmp_path)
    assert main(["import", "--history", str(log)]) == 0
    out = capsys.readouterr().out
    [backup] = list_backups(Paths.resolve().backups)
    assert backup.kind is Kind.MANUAL
    assert f"backup before the import: {backup.path} (drill restore {backup.path} undoes the import)" in out
    assert reviews_total(capsys) == 2
    assert main(["restore", str(backup.path)]) == 0
    capsys.readouterr()
    assert reviews_total(capsys) == 0


def test_the_json_report_names_the_backup(capsys, tmp_path: Path) -> None:
    log = review_log(tmp_path)
    assert main(["import", "--history", str(log), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["added"] == 2
    assert re.fullmatch(r"drill-\d{6}-manual-\d{8}-\d{6}\.sqlite", Path(report["backup"]).name)
    assert [backup.path for backup in list_backups(Paths.resolve().backups)] == [Path(report["backup"])]

"""GradeResult: its JSON keeps the grader's keys and values, reads back to the same result, and a
stored estimate_attempt row (one this drill wrote, or an older one) loads; an attempt's row holds
the grade's stored part."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from pydantic import TypeAdapter
from sqlalchemy import text

from drill.estimate.attempt import Attempt
from drill.estimate.draw import generate
from drill.estimate.result import GradeResult, StoredGrade
from drill.estimate.rounds import RoundSettings
from drill.estimate.schema import family
from drill.estimate.score import grade
from drill.paths import Paths
from drill.study import Study

KV = {"model": "llama-3-70b", "seq_len": 8192, "batch": 1, "bytes_per_elem": 2}
KEYS = [
    "correct",
    "score",
    "truth",
    "parsed",
    "error",
    "unit",
    "log_error",
    "quality",
    "truth_pretty",
    "parsed_pretty",
    "feedback",
    "slip",
    "worked",
]
ROW = "SELECT parsed, truth, unit, score, log_error, slip, error FROM estimate_attempt WHERE id = :id"
GRADE = TypeAdapter(GradeResult)


@pytest.fixture(scope="module")
def kv():
    return family("problems", "kv-cache")


@pytest.mark.parametrize("answer", ["2.68 GB", "2.5 GB", "27 GB", "3 seconds", "1+"])
def test_the_json_round_trip_gives_the_same_result(kv, answer: str) -> None:
    result = grade(kv, KV, answer)
    shape = GRADE.dump_python(result, mode="json")
    assert list(shape) == KEYS and isinstance(shape["worked"], list)
    assert GRADE.validate_python(json.loads(json.dumps(shape))) == result


def test_the_json_holds_the_values_the_grader_gives(kv) -> None:
    good, unreadable = (GRADE.dump_python(grade(kv, KV, answer), mode="json") for answer in ("2.68 GB", "3 seconds"))
    assert good["correct"] is True and good["score"] == 1.0 and good["quality"] == 5 and good["error"] is None
    assert good["truth"] == 2684354560 and good["parsed"] == 2.68e9 and good["unit"] == "byte"
    assert good["truth_pretty"] == "2.68 GB (2.5 GiB)" and good["feedback"] == "Correct: 2.68 GB (2.5 GiB)."
    assert unreadable["correct"] is False and unreadable["score"] == 0.0 and unreadable["parsed"] is None
    assert unreadable["error"] and unreadable["feedback"].startswith("Could not grade: ") and unreadable["worked"]


def stored(result: StoredGrade) -> dict:
    """The estimate_attempt columns a result fills."""
    return {column.name: getattr(result, column.name) for column in dataclasses.fields(StoredGrade)}


def test_stored_is_the_attempt_columns(kv, clock) -> None:
    result = grade(kv, KV, "1.34 GB")
    json_form = GRADE.dump_python(result, mode="json")
    assert stored(result) == {key: value for key, value in json_form.items() if key in stored(result)}
    assert set(stored(result)) == {"parsed", "truth", "unit", "score", "log_error", "slip", "error"}
    assert result.slip and 0 < result.score < 1
    problem = generate(kv, random.Random(2))
    row = Attempt(problem, "1.34 GB", result, 12.5, clock()).row()
    assert stored(row) == stored(result)
    assert (row.item_id, row.answer, row.seconds) == ("estimate:kv-cache", "1.34 GB", 12.5)
    assert json.loads(row.params) == problem.params


@pytest.fixture
def study(clock):
    opened = Study.open(Paths.resolve(), clock, random.Random(1))
    yield opened
    opened.close()


def stored_row(study: Study, row_id: int) -> dict:
    with study.engine.connect() as connection:
        return dict(connection.execute(text(ROW), {"id": row_id}).one()._mapping)


def test_a_stored_attempt_reads_back_as_its_result(study) -> None:
    problem = study.estimation.new_problem("estimate:kv-cache")
    attempt = study.estimation.answer(problem, "2 GB", 20.0)
    round_id, _ = study.estimation.start_round(RoundSettings())
    study.estimation.save_round_answer(round_id, attempt).result()
    with study.engine.connect() as connection:
        row_id = connection.execute(text("SELECT MAX(id) FROM estimate_attempt")).scalar_one()
    loaded = GRADE.validate_python(stored_row(study, row_id))
    result = attempt.result
    assert stored(loaded) == stored(result)
    assert (loaded.correct, loaded.quality) == (result.correct, result.quality)
    assert (loaded.feedback, loaded.worked, loaded.parsed_pretty) == ("", (), None)  # not stored


@pytest.mark.parametrize(
    ("score", "log_error", "slip", "error", "correct", "quality"),
    [
        (1.0, 0.01, None, None, True, 5),
        (0.25, 0.6, "bits for bytes", None, False, 1),
        (0.0, None, None, "could not parse", False, 0),
    ],
)
def test_an_older_stored_row_loads(study, score, log_error, slip, error, correct, quality) -> None:
    """A row as drill has written them since migration 3 (only the columns, nothing else)."""
    with study.engine.begin() as connection:
        row_id = connection.execute(
            text(
                """INSERT INTO estimate_attempt (item_id, attempted_at, params, answer, parsed, truth, unit, score,
            log_error, slip, error, seconds) VALUES ('estimate:kv-cache', '2026-11-01 12:00:00+00:00', '{}', '1 GB',
            :parsed, 1e9, 'byte', :score, :log_error, :slip, :error, 30.0) RETURNING id"""
            ),
            {"parsed": None if error else 1e9, "score": score, "log_error": log_error, "slip": slip, "error": error},
        ).scalar_one()
    loaded = GRADE.validate_python(stored_row(study, row_id))
    assert (loaded.score, loaded.log_error, loaded.slip, loaded.error) == (score, log_error, slip, error)
    assert (loaded.truth, loaded.unit, loaded.parsed) == (1e9, "byte", None if error else 1e9)
    assert (loaded.correct, loaded.quality) == (correct, quality)

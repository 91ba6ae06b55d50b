"""`drill mock --history` lists the mock estimation rounds too, under their own heading, and its
JSON carries them beside the interviews."""

import json
import random
from datetime import timedelta

import pytest

from drill.cli import main
from drill.estimate.rounds import RoundSettings
from drill.paths import Paths
from drill.store.estimates import finish_round, record_round_attempt
from drill.study import Study


@pytest.fixture
def study(drill_home, clock):
    study = Study.open(Paths(drill_home), clock, random.Random(3))
    yield study
    study.close()


def mock_round(study: Study, answers: list[str], score: float | None, abandoned: bool = False) -> int:
    round_id, problems = study.estimation.start_round(RoundSettings(problems=3, minutes=5))
    for problem, answer in zip(problems, answers, strict=False):
        record_round_attempt(study.engine, round_id, study.estimation.answer(problem, answer, 40.0).row())
    if score is not None:
        finish_round(study.engine, round_id, study.clock(), score, abandoned)
    return round_id


def test_rounds_are_listed_under_their_heading(study, clock, capsys) -> None:
    done = mock_round(study, ["1 GB", "2 GB", "3 GB"], 0.5)
    clock.now += timedelta(minutes=10)
    abandoned = mock_round(study, ["1 GB"], 0.0, abandoned=True)
    assert main(["mock", "--history"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["Mock interviews", "none yet: `drill mock` starts one"]
    assert out[3] == "Mock estimation rounds"
    assert out[4] == "2026-11-22 15:10    0%  1/3 answered  0:00/5:00  abandoned"
    assert out[5] == "2026-11-22 15:00   50%  3/3 answered  0:00/5:00  done"
    assert len(out) == 6

    assert main(["mock", "--history", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["interviews"] == []
    assert [(row["id"], row["answered"], row["abandoned"]) for row in listed["rounds"]] == [
        (abandoned, 1, True),
        (done, 3, False),
    ]

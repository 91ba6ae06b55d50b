"""Problem templates write counts and articles through drill.words: no 'sequence(s)', no 'a 8B'."""

from pathlib import Path

import pytest

from drill.estimate.template import render

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"


@pytest.mark.parametrize(
    "template,values,said",
    [
        ("{b:of sequence}", {"b": 1}, "1 sequence"),
        ("{b:of sequence}", {"b": 16}, "16 sequences"),
        ("{n:of person/people}", {"n": 2}, "2 people"),
        ("{tp} H100 {tp:noun GPU}", {"tp": 1}, "1 H100 GPU"),
        ("{tp} H100 {tp:noun GPU}", {"tp": 8}, "8 H100 GPUs"),
        ("{tp} H100 {tp:noun GPU/GPUs in tensor parallel}", {"tp": 1}, "1 H100 GPU"),
        ("{tp} H100 {tp:noun GPU/GPUs in tensor parallel}", {"tp": 4}, "4 H100 GPUs in tensor parallel"),
        ("{w:of byte} per weight", {"w": 0.5}, "0.5 bytes per weight"),  # never rounded to '0 bytes'
        ("{w:of byte} per weight", {"w": 1.0}, "1 byte per weight"),
        ("{p:A count}-parameter", {"p": 8e9}, "An 8B-parameter"),
        ("{p:a count}-parameter", {"p": 70e9}, "a 70B-parameter"),
        ("{m:a}×{k}", {"m": 8192, "k": 1024}, "an 8192×1024"),
    ],
)
def test_counts_and_articles(template, values, said) -> None:
    assert render(template, values) == said


def test_no_shipped_problem_hedges_a_plural() -> None:
    hedged = [path.name for path in PROBLEMS.glob("*.toml") if "(s)" in path.read_text(encoding="utf-8")]
    assert hedged == []

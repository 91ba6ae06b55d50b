"""Problem templates write counts and articles through drill.words: no 'sequence(s)', no 'a 8B'."""

from pathlib import Path

import pytest

from drill.estimate.draw import instance
from drill.estimate.params import complete
from drill.estimate.schema import families
from drill.estimate.template import Given, render
from drill.estimate.worked import worked_solution

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


@pytest.mark.parametrize(
    "figure,said",
    [
        (1.555e12, "1.555 TB/s"),  # A100 40GB's HBM: shown as the answer uses it, not as 1.55 or 1.56
        (3.35e12, "3.35 TB/s"),
        (2e12, "2 TB/s"),
        (0.53125e12, "531.25 GB/s"),
    ],
)
def test_a_figure_the_problem_gives_is_shown_to_the_digits_it_has(figure, said) -> None:
    assert render("{bw:byte/s}", {"bw": Given(figure)}) == said


def test_a_figure_worked_out_is_shown_to_three() -> None:
    assert render("{bw:byte/s}", {"bw": 1.555e12}) == "1.55 TB/s"
    assert render("{t:s}", {"t": 7.24e9 / 6.22e12}) == "1.16 ms"


def test_the_decode_problem_quotes_the_bandwidth_its_answer_uses() -> None:
    """4 × A100 40GB (1,555 GB/s each): the prompt and the worked solution say 1.555 TB/s, and
    4 × 1.555 = 6.22 TB/s, so a candidate computing from the prompt lands on drill's answer."""
    decode = {family.id: family for family in families(PROBLEMS)}["decode-tokens-per-s"]
    params = complete(decode, {"model": "mistral-7b", "gpu": "a100-40gb", "precision": "fp8", "tp": 4})
    problem = instance(decode, params)
    assert "(1.555 TB/s of HBM bandwidth per GPU)" in problem.prompt.replace("\n", " ")
    assert "bandwidth = tp · HBM = 4 · 1.555 TB/s = 6.22 TB/s" in worked_solution(decode, params, problem.truth)
    assert problem.truth == pytest.approx(4 * 1.555e12 / (params["params"] * params["bytes_per_param"]))

"""`drill problems`, `drill solve`, `drill grade`: the estimation contracts."""

import json
import subprocess
import sys

import pytest

from drill.cli import main

LLAMA3_70B_8K = ["kv-cache", "model=llama-3-70b", "seq_len=8192", "batch=1", "bytes_per_elem=2"]


def run_json(capsys, *argv: str):
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_problems_json_lists_every_family(capsys) -> None:
    code, rows = run_json(capsys, "problems", "--json")
    assert code == 0 and len(rows) >= 20
    assert {
        "kv-cache",
        "train-memory",
        "activation-memory",
        "allreduce-time",
        "pipeline-bubble",
        "spec-decode-speedup",
        "matmul-intensity",
        "train-time",
    } <= {row["id"] for row in rows}
    assert {row["block"] for row in rows} == {"memory", "compute", "inference", "training", "communication"}
    kv = next(row for row in rows if row["id"] == "kv-cache")
    assert kv["parameters"] == ["layers", "kv_heads", "head_dim", "seq_len", "batch", "bytes_per_elem", "context"]
    assert kv["unit"] == "byte"


def test_solve_prints_value_unit_pretty(capsys) -> None:
    code, out = run_json(capsys, "solve", *LLAMA3_70B_8K)
    assert code == 0
    assert out == {"value": 2 * 80 * 8 * 128 * 8192 * 2, "unit": "byte", "pretty": "2.68 GB"}


def test_solve_pipeline_bubble_is_a_fraction(capsys) -> None:
    code, out = run_json(capsys, "solve", "pipeline-bubble", "stages=4", "microbatches=16")
    assert code == 0 and out["unit"] == "1" and out["value"] == pytest.approx(3 / 19)


@pytest.mark.parametrize(
    "answer, correct, parsed",
    [("2.5 GiB", True, 2.5 * 2**30), ("2*80*8*128*8192*2 bytes", True, 2684354560), ("1.34 GB", False, 1.34e9)],
)
def test_grade_contract(capsys, answer, correct, parsed) -> None:
    code, out = run_json(capsys, "grade", *LLAMA3_70B_8K, "--answer", answer)
    assert code == 0
    assert set(out) == {"correct", "score", "truth", "parsed", "error"}
    assert out["correct"] is correct and out["parsed"] == pytest.approx(parsed) and out["error"] is None
    assert out["truth"] == 2684354560 and (out["score"] == 1.0) is correct


@pytest.mark.slow
@pytest.mark.parametrize("answer", ["__import__('os').system('echo pwned')", "9**9**9**9", "lambda: 1", "(" * 10_000])
def test_hostile_answer_is_an_error_with_exit_zero(answer) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "drill", "grade", *LLAMA3_70B_8K, "--answer", answer],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr and "pwned" not in result.stdout
    out = json.loads(result.stdout)
    assert out["error"] and out["parsed"] is None and out["score"] == 0.0


def test_wrong_dimension_says_what_was_asked(capsys) -> None:
    _, out = run_json(capsys, "grade", *LLAMA3_70B_8K, "--answer", "0.49 s")
    assert "time" in out["error"] and "bytes" in out["error"]


def test_bad_parameter_and_unknown_family(capsys) -> None:
    assert main(["solve", "kv-cache", "seq_len=abc"]) == 2
    assert "seq_len" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="no estimation problem 'nope'"):
        main(["grade", "nope", "--answer", "1"])


@pytest.mark.parametrize("command", [["solve"], ["grade", "--answer", "4.3 GB"]])
def test_impossible_parameters_are_refused_with_the_reason(capsys, command) -> None:
    """Llama-2-7B reads 4096 tokens: an 8192-token cache is no problem to solve; exit 2, nothing printed."""
    argv = ["kv-cache", "model=llama-2-7b", "seq_len=8192", "batch=1", "bytes_per_elem=2"]
    assert main([command[0], *argv, *command[1:]]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == (
        "drill: kv-cache: impossible parameters: Llama-2-7B's context window is 4096 tokens: "
        "a sequence of 8192 cannot be cached"
    )


def test_solve_help_says_where_ids_and_keys_come_from(capsys) -> None:
    import pytest

    from drill.cli import main

    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    text = capsys.readouterr().out
    assert "drill problems" in text and "KEY=VALUE" in text and "model=llama-3-70b" in text
    assert "problems/models.toml" in text and "physically impossible" in text


def test_a_bare_number_follows_the_apps_rule(capsys) -> None:
    """`--answer 2.68` for a size in bytes is refused as the app refuses it, not graded as 2.68 bytes."""
    code, out = run_json(capsys, "grade", *LLAMA3_70B_8K, "--answer", "2.68")
    assert code == 0
    assert out == {
        "correct": False,
        "score": 0.0,
        "truth": 2684354560,
        "parsed": None,
        "error": "add a unit: the question asks for bytes (e.g. 2.68 GB)",
    }
    code, out = run_json(capsys, "grade", "pipeline-bubble", "stages=4", "microbatches=16", "--answer", "3/19")
    assert code == 0 and out["error"] is None and out["correct"] and out["parsed"] == pytest.approx(3 / 19)


def test_arithmetic_with_units_is_graded(capsys) -> None:
    """2*(8-1)/8 * 14 GB over 50 GB/s is 0.49 s, the all-reduce's answer."""
    argv = ["grade", "allreduce-time", "bytes=14e9", "gpus=8", "bandwidth=50e9", "--answer", "2*7/8*14GB / 50GB/s"]
    code, out = run_json(capsys, *argv)
    assert code == 0 and out["error"] is None and out["correct"] and out["parsed"] == pytest.approx(0.49)

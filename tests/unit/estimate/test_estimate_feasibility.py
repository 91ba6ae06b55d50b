"""Every drawn problem is physically possible: 10,000 draws per shipped family meet real limits
written here from the catalogs' own figures (a model's context window, a GPU's memory, a topology's
GPUs per node, a year of training); the constraint engine (`[[require]]`, `draws_only`, `when` steps,
`always_possible`) on small families; and `solve` refusing impossible parameters with the reason."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from drill.estimate import formula
from drill.estimate.draw import GenerationError, draw_params, generate
from drill.estimate.feasible import MAX_REJECTED, impossible, rejected_share
from drill.estimate.items import family_item
from drill.estimate.params import ParamError, complete
from drill.estimate.schema import families, family
from drill.estimate.score import grade, solve
from drill.estimate.validate import check

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"
DRAWS = 10_000
YEAR = 365 * 86400
LARGEST_GPU = 192e9  # B200's HBM3e: no GPU in the catalogs' generation holds more
ADAM_STATE = 16  # bytes per parameter: BF16 weights and gradients, FP32 master, momentum, variance
H100_HBM = 80e9
SEQUENCES = ("seq_len", "prompt_tokens", "prefix_len")


def hbm_of_network(network: str, cat: dict[str, Any]) -> float:
    return cat["gpus"][cat["networks"][network]["gpu"]]["hbm_bytes"]


def group_fits(network: str, count: int) -> bool:
    """GPUs a topology holds: 2–8 inside one NVLink node, 16 or more (whole nodes) across nodes."""
    return 2 <= count <= 8 if network.startswith("nvlink") else count >= 16 and count % 8 == 0


def broken_limits(fid: str, q: dict[str, Any], truth: float, cat: dict[str, Any]) -> list[str]:
    """The real limits a drawn problem breaks, recomputed from the catalogs (empty when possible)."""
    broken = []
    model = cat["models"].get(q.get("model", ""), {})
    for name in SEQUENCES:
        if model and name in q and q[name] > model["context"]:
            broken.append(f"{name} {q[name]} beyond {q['model']}'s context {model['context']}")
    total = model.get("total_params", 0)
    gpu_hbm = cat["gpus"][q["gpu"]]["hbm_bytes"] if "gpu" in q else None
    if fid == "lora-params" and model.get("attention") == "MLA":
        broken.append("LoRA on q_proj/v_proj of an MLA model")
    if fid == "decode-tokens-per-s" and total * q["bytes_per_param"] > q["tp"] * gpu_hbm:
        broken.append("weights larger than the GPUs' memory")
    if fid == "prefill-time" and 2 * total > q["tp"] * gpu_hbm:
        broken.append("BF16 weights larger than the GPUs' memory")
    if fid == "allreduce-time":
        if q["bytes"] > hbm_of_network(q["network"], cat):
            broken.append("gradient buffer larger than one GPU's memory")
        if not group_fits(q["network"], q["gpus"]):
            broken.append("ring size the topology does not hold")
    if fid == "moe-alltoall-time":
        if total * q["weight_bytes"] > q["ep"] * hbm_of_network(q["network"], cat):
            broken.append("weights larger than the expert-parallel GPUs' memory")
        if not group_fits(q["network"], q["ep"]) or q["ep"] > model["experts"]:
            broken.append("expert-parallel group the topology or the experts do not allow")
    if fid == "moe-alltoall-volume" and (total * q["weight_bytes"] > q["ep"] * H100_HBM or q["ep"] > model["experts"]):
        broken.append("weights larger than the H100s' memory, or more GPUs than experts")
    if fid == "tp-allreduce-time" and q["tp"] > 8:
        broken.append("tensor parallelism across nodes")
    if fid == "zero3-comm-volume" and ADAM_STATE * q["params"] / q["dp"] > H100_HBM:
        broken.append("sharded model state larger than an H100")
    if fid == "train-memory" and truth > LARGEST_GPU:
        broken.append("more model state per GPU than any GPU holds")
    if fid in ("train-time", "mfu") and ADAM_STATE * q["params"] > q["gpus"] * gpu_hbm:
        broken.append("model state larger than all the GPUs' memory")
    if fid == "train-time" and truth > YEAR:
        broken.append("more than a year of training")
    if fid == "mfu" and truth > 1:
        broken.append("above the GPUs' peak")
    return broken


def accepted_draws(fam, count: int, seed: int):
    """`count` draws the family's constraints accept, drawn as `generate` draws them."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        params = draw_params(fam, rng)
        if formula.requirements_met(fam, params):
            out.append(params)
    return out


@pytest.fixture(scope="module")
def fams():
    return {f.id: f for f in families(PROBLEMS)}


@pytest.mark.slow
@pytest.mark.parametrize("fid", sorted(f.id for f in families(PROBLEMS)))
def test_ten_thousand_draws_break_no_real_limit(fams, catalogs, fid) -> None:
    fam = fams[fid]
    found: list[str] = []
    for params in accepted_draws(fam, DRAWS, seed=len(fid)):
        truth = formula.evaluate(fam, params)
        found += [f"{params}: {why}" for why in broken_limits(fid, params, truth, catalogs)]
        assert impossible(fam, params) == []
    assert found[:3] == []


@pytest.mark.parametrize("fid", sorted(f.id for f in families(PROBLEMS)))
def test_every_family_keeps_most_of_its_draws(fams, fid) -> None:
    assert rejected_share(fams[fid]) <= MAX_REJECTED


@pytest.mark.parametrize(
    "fid, params",
    [
        ("kv-cache", {"model": "llama-2-7b", "seq_len": 8192, "batch": 1, "bytes_per_elem": 2}),
        ("allreduce-time", {"network": "rail-hdr", "bytes": 200e9, "gpus": 64}),
        ("prefill-time", {"model": "llama-3-1-405b", "gpu": "h100-sxm", "prompt_tokens": 4096, "tp": 8, "mfu": 0.5}),
        ("train-memory", {"params": 70e9, "zero_stage": 1, "dp": 8}),
        ("train-time", {"params": 405e9, "tokens": 15e12, "gpus": 64, "gpu": "h100-sxm", "mfu": 0.4}),
        (
            "moe-alltoall-time",
            {"model": "deepseek-v3", "network": "nvlink-h100", "ep": 8, "tokens": 4096, "bytes_per_elem": 1},
        ),
        ("zero3-comm-volume", {"params": 175e9, "dp": 8, "bytes_per_elem": 2}),
    ],
)
def test_the_issues_impossible_draws_are_never_drawn_and_refused_by_solve(fams, catalogs, fid, params) -> None:
    """The kinds of draw issue 23 found impossible: the oracle here agrees, and solve says why."""
    fam = fams[fid]
    with pytest.raises(ParamError, match=f"{fid}: impossible parameters: "):
        solve(fam, params)


def test_the_refusal_names_the_limit(fams) -> None:
    with pytest.raises(ParamError) as refused:
        solve(fams["kv-cache"], {"model": "llama-2-7b", "seq_len": 8192, "batch": 1, "bytes_per_elem": 2})
    assert "Llama-2-7B's context window is 4096 tokens: a sequence of 8192 cannot be cached" in str(refused.value)
    with pytest.raises(ParamError) as refused:
        solve(fams["allreduce-time"], {"network": "nvlink-h100", "bytes": 1e11, "gpus": 8})
    assert "whole 100 GB buffer it all-reduces, more than its 80 GB of HBM" in str(refused.value)


def test_draws_only_limits_shape_draws_but_solve_accepts_values_outside_them(fams) -> None:
    """An MFU of 80 % is never drawn (the draw keeps 10–70 %) but is possible, so it solves; above
    the GPUs' peak it is impossible."""
    fam = fams["mfu"]
    params = {"gpu": "h100-sxm", "params": 7e9, "gpus": 8, "tokens_per_s": 0.8 * 8 * 989.4e12 / 42e9}
    assert solve(fam, params)["value"] == pytest.approx(0.8)
    assert not formula.requirements_met(fam, complete(fam, params))
    assert all(0.1 <= generate(fam, random.Random(seed)).truth <= 0.7 for seed in range(50))
    too_fast = {**params, "tokens_per_s": 1.01 * 8 * 989.4e12 / 42e9}
    with pytest.raises(ParamError, match="more than the 8 GPUs' peak"):
        solve(fam, too_fast)


def test_values_given_without_a_catalog_entry_are_not_refused(fams) -> None:
    """The limits' helper parameters default to no limit: bare numbers solve as before."""
    shape = {"layers": 32, "kv_heads": 32, "head_dim": 128, "seq_len": 32768, "batch": 1, "bytes_per_elem": 2}
    assert solve(fams["kv-cache"], shape)["value"] == 2 * 32 * 32 * 128 * 32768 * 2
    assert solve(fams["allreduce-time"], {"bytes": 1e12, "gpus": 8, "bandwidth": 50e9})["value"] == pytest.approx(35)


# --- the engine, on a small family -------------------------------------------------------------------

TOY = """id = "toy"
block = "memory"
topic = "Toy"
prompt = "{n} of {model}?"
answer = "n*layers"
unit = "byte"
steps = [
  "n · layers = {n} · {layers}",
  { when = "n > 4", text = "more than four: {n}" },
  "= {answer}",
]
REQUIRE
[draws.model]
catalog = "models"
pick = ["llama-2-7b"]

[params.n]
choice = [1, 2, 3, 4, 5, 6, 7, 8]
[params.layers]
from = "model.layers"
integer = true
[params.context]
from = "model.context"
default = 1000000000
integer = true
"""
LIMIT = """
[[require]]
check = "n*1000 <= context"
reason = "{model} reads {context} tokens, not {n}000"
"""


@pytest.fixture
def toy_dir(tmp_path: Path) -> Path:
    shutil.copy(PROBLEMS / "models.toml", tmp_path / "models.toml")
    return tmp_path


def toy_errors(root: Path, require: str) -> list[str]:
    (root / "toy.toml").write_text(TOY.replace("REQUIRE", require), encoding="utf-8")
    return [f"{error.line}: {error.message}" for error in check(root)]


def test_a_limit_rejects_draws_and_solve_names_it(toy_dir) -> None:
    assert toy_errors(toy_dir, LIMIT) == []
    toy = family(toy_dir, "toy")
    assert {generate(toy, random.Random(seed)).params["n"] for seed in range(60)} == {1, 2, 3, 4}  # Llama-2: 4096
    with pytest.raises(ParamError, match="toy: impossible parameters: Llama-2-7B reads 4096 tokens, not 5000"):
        solve(toy, {"model": "llama-2-7b", "n": 5})
    assert rejected_share(toy, 2000) == pytest.approx(0.5, abs=0.05)


def test_a_step_with_when_is_shown_only_where_it_holds(toy_dir) -> None:
    toy_errors(toy_dir, "")
    toy = family(toy_dir, "toy")
    assert "more than four: 6" in grade(toy, {"layers": 32, "n": 6}, "192 B").worked
    assert not any("more than four" in line for line in grade(toy, {"layers": 32, "n": 3}, "96 B").worked)
    steps = family_item(toy).answer.split("\n\n", 1)[1].splitlines()
    assert steps == ["- n · layers = {n} · {layers}", "- more than four: {n} (when n > 4)", "- = {answer}"]


def test_a_family_drawing_real_entries_declares_limits_or_says_why_it_needs_none(toy_dir) -> None:
    """Without a limit `drill check` names the file's draw; `draws_only` filters are no limit;
    `always_possible` with a reason is enough."""
    draws_line = TOY.replace("REQUIRE", "").splitlines().index("[draws.model]") + 1
    (error,) = toy_errors(toy_dir, "")
    assert error.startswith(f"{draws_line}: draws real models or hardware") and "always_possible" in error
    only_filter = '[[require]]\ncheck = "n >= 2"\ndraws_only = true\n'
    assert len(toy_errors(toy_dir, only_filter)) == 1
    assert toy_errors(toy_dir, 'always_possible = "a toy: layers times a small count"\n') == []


def test_constraints_that_reject_most_draws_fail_check(toy_dir) -> None:
    """n ≤ 1 keeps one draw in eight (87.5 % rejected: allowed); n < 1 keeps none (an error that
    says so, naming the require line, before any draw is tried)."""
    assert toy_errors(toy_dir, LIMIT + '[[require]]\ncheck = "n <= 1"\ndraws_only = true\n') == []
    errors = toy_errors(toy_dir, LIMIT + '[[require]]\ncheck = "n < 1"\n')
    require_line = TOY.replace("REQUIRE", LIMIT).splitlines().index("[[require]]") + 1
    rejecting = "require: the constraints reject 100% of draws (at most 90%); narrow the distributions"
    assert errors == [f"{require_line}: {rejecting} to the possible values"]
    toy = family(toy_dir, "toy")
    with pytest.raises(GenerationError, match="toy: no parameters met the constraints"):
        generate(toy, random.Random(0))


def test_a_reason_with_an_unknown_field_is_named(toy_dir) -> None:
    errors = toy_errors(toy_dir, LIMIT.replace("{context} tokens", "{ctx} tokens"))
    assert any("require.0.reason: unknown field {ctx}" in error for error in errors), errors

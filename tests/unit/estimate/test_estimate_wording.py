"""What the prompts say about hardware and formats is true of every draw: one INT4 convention (4-bit
weights + an FP16 scale and an FP16 zero-point per group of 128 = 4.25 bits), written once in
precisions.toml and used by every family; a GPU's dense figure named in the precision it has (Volta
has no BF16); no "0 bytes per parameter"; no tensor parallelism over one GPU; no LoRA on MLA."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from drill.estimate.draw import generate
from drill.estimate.params import ParamError
from drill.estimate.schema import families
from drill.estimate.score import solve

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"
INT4_BITS = 4 + (16 + 16) / 128  # 4-bit weights, an FP16 scale and an FP16 zero-point per 128
VOLTA = {"v100"}  # tensor cores with FP16, no BF16 (BF16 arrived with Ampere)


@pytest.fixture(scope="module")
def fams():
    return {f.id: f for f in families(PROBLEMS)}


def draws(fam, count: int = 300, seed: int = 5):
    rng = random.Random(seed)
    return [generate(fam, rng) for _ in range(count)]


def test_the_int4_convention_is_written_once_and_is_4_25_bits(catalogs) -> None:
    int4 = catalogs["precisions"]["int4"]
    assert INT4_BITS == 4.25 and int4["bytes_per_param"] == INT4_BITS / 8 == 0.53125
    metadata_bits = 8 * (int4["scale_bytes"] + int4["zero_bytes"])
    assert int4["bytes_per_param"] == (int4["weight_bits"] + metadata_bits / int4["group_size"]) / 8
    assert "4.25 bits" in int4["name"]


def test_quantized_size_spells_the_same_layout(fams, catalogs) -> None:
    """4-bit, group 128 in quantized-size is exactly the INT4 of precisions.toml."""
    for model, fields in catalogs["models"].items():
        size = solve(fams["quantized-size"], {"model": model, "bits": 4, "group_size": 128, "scale_bytes": 2})
        assert size["value"] == pytest.approx(fields["total_params"] * INT4_BITS / 8, rel=1e-12)
    assert solve(fams["quantized-size"], {"params": 70e9, "bits": 4, "group_size": 128, "scale_bytes": 2})[
        "value"
    ] == pytest.approx(37.1875e9)


def test_every_family_storing_weights_at_a_precision_reads_it_from_the_catalog(fams) -> None:
    """No family keeps its own 0.5 for INT4: weight bytes come from precisions.toml."""
    weighted = {
        fid: name
        for fid, fam in fams.items()
        for name, spec in fam.params.items()
        if spec.from_ == "precision.bytes_per_param"
    }
    assert set(weighted) == {"serving-gpus", "decode-tokens-per-s", "moe-alltoall-time", "moe-alltoall-volume"}
    for fam in fams.values():
        for name, spec in fam.params.items():
            assert not (spec.choice and 0.5 in spec.choice and "byte" in name), (fam.id, name)


def test_int4_draws_state_the_convention_and_no_prompt_says_zero_bytes(fams) -> None:
    for fid in ("serving-gpus", "decode-tokens-per-s"):
        problems = draws(fams[fid])
        int4 = [p for p in problems if p.params["precision"] == "int4"]
        assert int4 and all("4.25 bits" in p.prompt for p in int4), fid
        weight_key = "weight_bytes" if fid == "serving-gpus" else "bytes_per_param"
        assert {p.params[weight_key] for p in int4} == {INT4_BITS / 8}
    for fam in fams.values():
        for problem in draws(fam, 100):
            assert not re.search(r"(?<![\d.])0 bytes?\b", problem.prompt), (fam.id, problem.prompt)


def test_a_gpus_dense_figure_is_named_in_a_precision_it_has(fams, catalogs) -> None:
    for gpu, fields in catalogs["gpus"].items():
        assert fields["precision"] == ("FP16" if gpu in VOLTA else "BF16"), gpu
    drawing_gpus = [fam for fam in fams.values() if "gpu" in fam.draws]
    assert {"attainable-flops", "roofline-crossover", "saturating-batch"} <= {fam.id for fam in drawing_gpus}
    for fam in drawing_gpus:
        for problem in draws(fam, 200):
            name = catalogs["gpus"][problem.params["gpu"]]["name"]
            assert name in problem.prompt
            if problem.params["gpu"] in VOLTA:
                assert "BF16" not in problem.prompt and "dense FP16" in problem.prompt, (fam.id, problem.prompt)
            elif "dense" in problem.prompt:
                assert "dense BF16" in problem.prompt, (fam.id, problem.prompt)


def test_no_prompt_puts_tensor_parallelism_over_one_gpu(fams) -> None:
    decode = draws(fams["decode-tokens-per-s"], 400)
    assert {p.params["tp"] for p in decode} == {1, 2, 4, 8}
    for problem in decode:
        single = problem.params["tp"] == 1
        assert ("tensor parallel" in problem.prompt) is not single, problem.prompt
    for fam in fams.values():
        for problem in draws(fam, 100):
            flat = " ".join(problem.prompt.split())
            assert not re.search(
                r"tensor[- ]parallel\w* over 1 |(?<![\d.])1 (?:\S+ ){0,3}GPUs? in tensor parallel", flat
            ), flat


def test_lora_is_never_drawn_on_mla(fams, catalogs) -> None:
    mla = {model for model, fields in catalogs["models"].items() if fields["attention"] == "MLA"}
    assert mla == {"deepseek-v3"}
    assert not {p.params["model"] for p in draws(fams["lora-params"])} & mla
    with pytest.raises(ParamError, match="MLA has no q_proj or v_proj"):
        solve(fams["lora-params"], {"model": "deepseek-v3", "rank": 8})


def test_networks_name_the_memory_of_their_gpus(catalogs) -> None:
    for network, fields in catalogs["networks"].items():
        assert fields["gpu_mem"] == catalogs["gpus"][fields["gpu"]]["hbm_bytes"], network
        generation = network.rsplit("-", 1)[1]  # a100 / h100 / b200, or the NIC's hdr (A100) / ndr (H100)
        assert fields["gpu"].startswith({"hdr": "a100", "ndr": "h100"}.get(generation, generation)), network


def test_every_model_has_its_context_window(catalogs) -> None:
    """From the model cards: Llama 2 4K, Llama 3 8K, Llama 3.1 128K, Mistral-7B v0.2 and Mixtral 32K
    (v0.2: no sliding window, so the KV cache grows with every token), DeepSeek-V3 128K."""
    contexts = {model: fields["context"] for model, fields in catalogs["models"].items()}
    assert contexts == {
        "llama-2-7b": 4096,
        "llama-2-70b": 4096,
        "llama-3-8b": 8192,
        "llama-3-70b": 8192,
        "llama-3-1-405b": 131072,
        "mistral-7b": 32768,
        "mixtral-8x7b": 32768,
        "deepseek-v3": 131072,
    }
    assert "v0.2" in catalogs["models"]["mistral-7b"]["source"]


@pytest.mark.parametrize("fid", ["activation-memory", "checkpoint-memory"])
def test_the_twelve_element_rule_says_what_it_leaves_out(fams, fid: str) -> None:
    """12 elements × 2 bytes is 24 bytes per token per hidden unit, where Korthikanti et al. count 34
    (ch-02-question's erratum): the prompt says which tensors the rule leaves out."""
    prompt = " ".join(draws(fams[fid], 1)[0].prompt.split())
    assert "12·batch·seq_len·hidden" in prompt
    assert all(part in prompt for part in ("layer-norm inputs", "dropout masks", "attention scores")), prompt

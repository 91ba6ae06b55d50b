"""The shipped decks: the grill follows the seed, the ladder is complete, nothing is a placeholder."""

import math
import re
from pathlib import Path

import pytest

from drill.content.decks import load_decks

ROOT = Path(__file__).resolve().parents[3]
SEED_000 = ROOT.parent / "shared" / "seeds" / "000_d69ac9344ab9aae1.txt"
ITEMS = [loaded.item for loaded in load_decks([ROOT / "decks"]).items]
BY_ID = {item.id: item for item in ITEMS}
GROUP_BLOCKS = {
    "Memory": "memory",
    "Compute": "compute",
    "Inference": "inference",
    "Training — mixed precision": "training",
    "Training — data parallelism": "training",
    "Training — pipeline parallelism": "training",
    "Training — tensor parallelism": "training",
    "Training — MoE": "training",
    "Communication primitives": "communication",
}
PITCH_TOPICS = [
    "flash-attention",
    "zero",
    "speculative-decoding",
    "pipeline-parallelism",
    "moe",
    "kv-cache",
    "tensor-parallelism",
    "quantization",
]
TRAIN_70B_RUNGS = {"pitch-train-70b-2m": 120, "pitch-train-70b-5m": 300}
PLACEHOLDER = re.compile(r"\b(TODO|TBD|FIXME|XXX|lorem ipsum)\b|see above|see below|see card", re.IGNORECASE)


def normalise(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def seed_grill() -> list[tuple[str, str]]:
    """(question, block) for each grill line of seed 000 §10, in order."""
    if not SEED_000.exists():
        pytest.skip(f"the seeds are not beside this checkout ({SEED_000})")
    lines = SEED_000.read_text(encoding="utf-8").splitlines()
    start = lines.index("10. Interview Grill — 70 questions")
    questions, block = [], None
    for line in lines[start + 1 :]:
        if line.startswith("11. "):
            break
        if line.startswith("- "):
            questions.append((line[2:], block))
        else:
            block = GROUP_BLOCKS[line.split(" (Q")[0]]
    return questions


# Grill prompts that deliberately differ from the seed's line: {item id: (seed line, our prompt)}.
# The seed line is recorded so the test notices if the seed changes under the correction.
GRILL_PROMPT_CORRECTIONS = {
    "grill-01": ("Why is attention in memory?", "Why is attention O(n²) in memory?"),
}


def test_grill_has_the_seeds_seventy_questions_in_order() -> None:
    seed = seed_grill()
    grill = [item for item in ITEMS if item.id.startswith("grill-")]
    assert len(seed) == 70
    assert [item.id for item in grill] == [f"grill-{n:02d}" for n in range(1, 71)]
    for item, (question, block) in zip(grill, seed, strict=True):
        if item.id in GRILL_PROMPT_CORRECTIONS:
            seed_question, our_prompt = GRILL_PROMPT_CORRECTIONS[item.id]
            assert question == seed_question, f"{item.id}: the seed line changed: {question!r}"
            assert item.prompt == our_prompt, item.id
            assert normalise(our_prompt) != normalise(seed_question), f"{item.id} is no correction"
        else:
            assert normalise(item.prompt) == normalise(question), item.id
        assert item.block == block, item.id
        assert item.kind == "card" and "seed 000 §10" in item.source


def test_pitch_ladder_is_eight_topics_by_three_rungs() -> None:
    words = {30: (50, 120), 120: (220, 420), 300: (550, 950)}
    for topic in PITCH_TOPICS:
        rungs = [BY_ID[f"pitch-{topic}-{rung}"] for rung in ("30s", "2m", "5m")]
        assert [item.target_seconds for item in rungs] == [30, 120, 300]
        for item in rungs:
            low, high = words[item.target_seconds]
            assert low <= len(item.answer.split()) <= high, (item.id, len(item.answer.split()))
            assert item.kind == "pitch" and len(item.points) >= 3 and "seed 000 §9" in item.source
    ladder = {f"pitch-{topic}-{rung}" for topic in PITCH_TOPICS for rung in ("30s", "2m", "5m")}
    assert {item.id for item in ITEMS if item.kind == "pitch"} == ladder | set(TRAIN_70B_RUNGS)


@pytest.mark.parametrize("item", ITEMS, ids=lambda item: item.id)
def test_answers_are_real_and_sourced(item) -> None:
    assert not PLACEHOLDER.search(item.answer), "placeholder text in the answer"
    assert len(item.answer.split()) >= 30, "an answer this short cannot be a model answer"
    assert re.search(r"seed 00[0-4]", item.source), "source must name the seed file"
    in_code = False
    for line in item.answer.splitlines():
        in_code ^= line.startswith("```")
        if in_code:
            assert len(line) <= 80, f"code line wider than the terminal: {line!r}"


def test_every_seed_001_chapter_question_is_a_card() -> None:
    chapters = [item for item in ITEMS if re.fullmatch(r"ch-\d\d-question", item.id)]  # the split-off parts aside
    assert [item.id for item in chapters] == [f"ch-{n:02d}-question" for n in range(11)] + ["ch-11-question"]


SEEDS = ROOT.parent / "shared" / "seeds"
SEED_FILES = {"000": "000_d69ac9344ab9aae1.txt", "001": "001_1eab021579b3b37f.txt", "003": "003_84c71ae1e069a1da.txt"}
# (item id, seed, a phrase of the seed the item answers): the questions and tips issue 13 §2 found
# without a card. Seed 001 tips also name their chapter, which the item's source must cite.
SEED_QUESTIONS = [
    ("pitch-train-70b-2m", "000", "Walk me through how you'd train a 70B model from scratch"),
    ("pitch-train-70b-5m", "000", "Walk me through how you'd train a 70B model from scratch"),
    ("scale-what-runs-out-first", "000", "how do you scale to N billion parameters"),
    ("fund-backpropagation", "003", "Forward Pass vs. Backward Pass (Backpropagation)"),
    ("fund-activation-functions", "003", "Common Activation & Loss Functions"),
    ("fund-loss-functions", "003", "Role of loss functions in model training"),
    ("fund-training-pipeline", "003", "High-level overview of pre-training, fine-tuning, and RLHF"),
    ("fund-gradient-accumulation", "003", "Gradient Accumulation: Enables large batch sizes"),
    ("tip-tensor-core-alignment", "001", "Tensor Cores not activating"),
    ("tip-torch-compile-recompiles", "001", "training slow after adding torch.compile"),
    ("tip-fsdp-embedding-oom", "001", "FSDP OOMs during forward"),
    ("tip-large-batch-lr-warmup", "001", "effective batch too large causing divergence"),
    ("tip-checkpointing-speed-cost", "001", "gradient checkpointing makes training 50% slower"),
    ("tip-distillation-not-converging", "001", "distilled student doesn't converge"),
    ("tip-tensorrt-build-fails", "001", "TensorRT build fails"),
    ("tip-int4-vs-int8", "001", "INT4 vs INT8 for deployment"),
    # issue 23: seed 003's four "be prepared to explain" questions, seed 001's answer structure
    # (Chapter 0) and its inference priority table (Chapter 11 §5)
    ("fund-why-quantize", "003", "Why quantize?"),
    ("fund-why-lora", "003", "Why use LoRA instead of full fine-tuning?"),
    ("fund-why-shared-memory", "003", "Why does GPU shared memory speed things up?"),
    ("fund-spec-decoding-exact", "003", "How does speculative decoding preserve exact distribution?"),
    ("tip-answer-structure", "001", "I found bottleneck X using tool Y, applied technique Z"),
    ("tip-inference-priority", "001", "Inference Priority:"),
]


def seed_text(seed: str) -> str:
    path = SEEDS / SEED_FILES[seed]
    if not path.exists():
        pytest.skip(f"the seeds are not beside this checkout ({path})")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("item_id,seed,phrase", SEED_QUESTIONS, ids=[row[0] for row in SEED_QUESTIONS])
def test_each_seed_question_and_chapter_tip_has_a_card(item_id: str, seed: str, phrase: str) -> None:
    text = seed_text(seed)
    assert normalise(phrase) in normalise(text), f"the seed no longer says {phrase!r}"
    item = BY_ID[item_id]
    assert f"seed {seed}" in item.source and item.points, item_id
    if seed == "001":
        chapter = re.findall(r"^Chapter (\d+):", text[: text.index(phrase)], re.MULTILINE)[-1]
        assert f"Ch. {chapter} " in item.source.split(";")[0], f"{item_id} should cite Chapter {chapter}"


def test_the_train_70b_pitch_has_a_two_and_a_five_minute_rung_with_a_checklist() -> None:
    words = {120: (220, 420), 300: (550, 950)}
    for item_id, target in TRAIN_70B_RUNGS.items():
        item = BY_ID[item_id]
        assert item.kind == "pitch" and item.target_seconds == target and item.block == "training"
        low, high = words[target]
        assert low <= len(item.answer.split()) <= high, (item_id, len(item.answer.split()))
        assert "seed 000 §7" in item.source
        checklist = " ".join(item.points).lower()
        for area in ("data", "tokens", "layout", "memory", "throughput", "mfu", "checkpoint", "failures", "evaluation"):
            assert area in checklist, f"{item_id}: the checklist leaves out {area}"
        assert "rail-aligned" in item.answer and "400 GB/s" in item.answer  # cross-node figures name the topology


N_70B, CHINCHILLA_TOKENS, H100_BF16, MFU, GPUS = 70e9, 20 * 70e9, 989e12, 0.40, 1024
CLUSTER = GPUS * H100_BF16 * MFU
PARAMS_PER_GPU = N_70B / (8 * 4)  # TP 8 × PP 4
NODE_NIC = 8 * 400e9 / 8  # rail-aligned: 8 × NDR 400 Gb/s per node
DP_BYTES = 2 * 31 / 32 * 2 * PARAMS_PER_GPU  # ZeRO-1 reduce-scatter + all-gather over DP 32, BF16
KV_LLAMA3_70B = 2 * 80 * 8 * 128 * 2
INT4_G128_BITS = 4 + 2 * 16 / 128
# (item id, value from its inputs, the text the answer or errata must state)
NEW_FIGURES = [
    ("pitch-train-70b-2m", 6 * N_70B * CHINCHILLA_TOKENS, lambda v: f"{v / 1e23:.1f}e23 FLOP"),
    ("pitch-train-70b-2m", CLUSTER, lambda v: f"{v / 1e17:.2f}e17 FLOP/s"),
    ("pitch-train-70b-2m", 6 * N_70B * CHINCHILLA_TOKENS / (H100_BF16 * MFU) / 3600, lambda v: f"{v / 1e3:.0f},000"),
    ("pitch-train-70b-2m", 16 * N_70B / 1e12, lambda v: f"{v:.2f} TB"),
    ("pitch-train-70b-2m", 8 * DP_BYTES / NODE_NIC, lambda v: f"{v:.2f} s"),
    ("pitch-train-70b-5m", 6 * N_70B * CHINCHILLA_TOKENS / CLUSTER / 86400, lambda v: f"{v:.1f} days"),
    ("pitch-train-70b-5m", 6 * N_70B * 15e12 / CLUSTER / 86400, lambda v: f"{v:.0f} days"),
    ("pitch-train-70b-5m", 6 * N_70B * 1024 * 4096 / CLUSTER, lambda v: f"{v:.2f} s"),
    ("pitch-train-70b-5m", (4 * PARAMS_PER_GPU + 12 * PARAMS_PER_GPU / 32) / 1e9, lambda v: f"{v:.1f} GB static"),
    ("pitch-train-70b-5m", 4 * 20 * 34 * 4096 * 8192 / 8 / 1e9, lambda v: f"{v:.1f} GB"),
    ("pitch-train-70b-5m", 80 * 2 * 7 / 8 * 4096 * 8192 * 2 / 450e9 * 1e3, lambda v: f"{v:.0f} ms"),
    ("pitch-train-70b-5m", 8 * DP_BYTES / NODE_NIC, lambda v: f"{v:.2f} s"),
    ("pitch-train-70b-5m", 14 * N_70B / 1e12, lambda v: f"{v:.2f} TB"),
    ("pitch-train-70b-5m", 24 * 54 * 16384 / 1024 / 419, lambda v: f"{v:.0f} hours"),
    ("pitch-train-70b-5m", (2 * 10 * 49 * 3600) ** 0.5 / 60, lambda v: f"{v:.0f}-minute"),
    ("scale-what-runs-out-first", 16 * 7e9 / 1e9, lambda v: f"{v:.0f} GB"),
    ("scale-what-runs-out-first", 34 * 2048 * 4096 / 1e6, lambda v: f"{v:.0f} MB"),
    ("scale-what-runs-out-first", 32 * 34 * 2048 * 4096 / 1e9, lambda v: f"{v:.1f} GB"),
    (
        "scale-what-runs-out-first",
        6 * N_70B * CHINCHILLA_TOKENS / (64 * H100_BF16 * MFU) / 86400,
        lambda v: f"{v:.0f} days",
    ),
    ("scale-what-runs-out-first", KV_LLAMA3_70B * 4096 / 1e9, lambda v: f"{v:.2f} GB"),
    ("fund-activation-functions", 8 / 3 * 4096, lambda v: f"{v:,.0f}"),
    ("fund-loss-functions", math.log(32000), lambda v: f"{v:.2f}"),
    ("fund-loss-functions", math.log(128256), lambda v: f"{v:.2f}"),
    ("fund-loss-functions", 8192 * 128256 * 4 / 1e9, lambda v: f"{v:.1f} GB"),
    ("tip-fsdp-embedding-oom", 128256 * 8192 * 2 / 1e9, lambda v: f"{v:.1f} GB"),
    ("tip-fsdp-embedding-oom", 2 * 8192 * 128256 * 4 / 1e9, lambda v: f"{v:.1f} GB"),
    ("tip-large-batch-lr-warmup", 0.1 * 8192 / 256, lambda v: f"= {v:.1f}"),
    ("tip-checkpointing-speed-cost", 10 / 6, lambda v: f"{v:.2f}×"),
    ("tip-tensor-core-alignment", 108 * 4 * 256 * 2 * 1.41e9 / 1e12, lambda v: f"{v:.0f} TFLOP/s"),
    ("tip-int4-vs-int8", 70e9 * INT4_G128_BITS / 8 / 1e9, lambda v: f"{v:.1f} GB"),
    ("tip-int4-vs-int8", 16 / INT4_G128_BITS, lambda v: f"{v:.1f}×"),
    ("tip-int4-vs-int8", 8 / INT4_G128_BITS, lambda v: f"{v:.1f}×"),
]


@pytest.mark.parametrize("item_id,value,fmt", NEW_FIGURES, ids=[row[0] for row in NEW_FIGURES])
def test_the_new_cards_state_their_recomputed_figures(item_id: str, value: float, fmt) -> None:
    item = BY_ID[item_id]
    text = " ".join(f"{item.answer} {item.errata or ''}".split())  # a figure may wrap across lines
    assert fmt(value) in text, f"{item_id}: {fmt(value)!r} not stated"


@pytest.mark.slow
def test_a_card_too_long_for_the_screen_is_refused_with_its_line(tmp_path) -> None:
    """A hand-written deck card of 50 MB would freeze the review screen; it is an error naming the
    file and the card's line, and the rest of the deck loads."""
    from helpers.content import CARD

    from drill.content.models import CARD_CHARACTERS

    deck = tmp_path / "huge.toml"
    deck.write_text(
        CARD.format(id="ok-1", block="memory")
        + CARD.format(id="big-1", block="memory").replace("Answer of big-1.", "x" * (50 * 2**20))
    )
    load = load_decks([tmp_path])
    assert [item.item.id for item in load.items] == ["ok-1"]
    assert [(error.path.name, error.line) for error in load.errors] == [("huge.toml", 17)]  # the answer's line
    assert f"at most {CARD_CHARACTERS} characters" in load.errors[0].message

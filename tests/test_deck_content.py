"""The shipped decks: the grill follows the seed, the ladder is complete, nothing is a placeholder."""

import re
from pathlib import Path

import pytest

from drill.content.decks import load_decks

ROOT = Path(__file__).resolve().parents[1]
SEED_000 = ROOT.parent / "shared" / "seeds" / "000_d69ac9344ab9aae1.txt"
ITEMS = [loaded.item for loaded in load_decks([ROOT / "decks"]).items]
BY_ID = {item.id: item for item in ITEMS}
GROUP_BLOCKS = {
    "Memory": "memory", "Compute": "compute", "Inference": "inference",
    "Training — mixed precision": "training", "Training — data parallelism": "training",
    "Training — pipeline parallelism": "training", "Training — tensor parallelism": "training",
    "Training — MoE": "training", "Communication primitives": "communication",
}
PITCH_TOPICS = ["flash-attention", "zero", "speculative-decoding", "pipeline-parallelism",
                "moe", "kv-cache", "tensor-parallelism", "quantization"]
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
    for line in lines[start + 1:]:
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
    for item, (question, block) in zip(grill, seed):
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
    assert sum(item.kind == "pitch" for item in ITEMS) == 24


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
    chapters = [item for item in ITEMS if item.id.startswith("ch-")]
    assert [item.id for item in chapters] == [f"ch-{n:02d}-question" for n in range(11)] + ["ch-11-question"]

"""Cards shaped for recall: short non-pitch answers that open with their core, corrections of the
source notes kept in errata, and a checklist on every card."""

import re
from pathlib import Path

import pytest

from drill.content.decks import load_decks

DECKS = Path(__file__).resolve().parents[3] / "decks"
CARDS = [loaded.item for loaded in load_decks([DECKS]).items if loaded.item.kind == "card"]
MAX_WORDS = 250
CORE_WORDS = 70
SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
NOTES_SAY = re.compile(r"\b(the )?(notes|seed) (say|says|write|writes|give|gives)\b", re.IGNORECASE)


def core_paragraph(answer: str) -> str:
    return answer.strip().split("\n\n")[0]


def sentences(paragraph: str) -> int:
    """Sentence ends, not counting the dots inside numbers (2.039) or e.g./i.e./vs."""
    cleaned = re.sub(r"\b(e\.g|i\.e|vs|approx|cf)\.", "", paragraph)
    return len(SENTENCE_END.findall(cleaned))


@pytest.mark.parametrize("card", CARDS, ids=[card.id for card in CARDS])
def test_a_card_answer_is_short_and_opens_with_its_core(card) -> None:
    assert len(card.answer.split()) <= MAX_WORDS, f"{card.id}: {len(card.answer.split())} words"
    core = core_paragraph(card.answer)
    assert not core.lstrip().startswith(("-", "*", "1.", "|", "```")), f"{card.id} opens with a list, table or code"
    assert len(core.split()) <= CORE_WORDS, f"{card.id}: core paragraph of {len(core.split())} words"
    assert 1 <= sentences(core) <= 3, f"{card.id}: core paragraph of {sentences(core)} sentences:\n{core}"


@pytest.mark.parametrize("card", CARDS, ids=[card.id for card in CARDS])
def test_corrections_of_the_notes_live_in_errata_and_every_card_has_a_checklist(card) -> None:
    assert not NOTES_SAY.search(card.answer), f"{card.id}: a correction of the notes inside the answer"
    assert 3 <= len(card.points) <= 6, f"{card.id}: a points checklist of {len(card.points)} items, not 3 to 6"


def test_the_rules_catch_what_they_are_for() -> None:
    wall = " ".join(["word"] * 300)
    assert len(wall.split()) > MAX_WORDS
    assert sentences("312 TFLOP/s dense, i.e. 2.039 TB/s. That is it.") == 2
    assert sentences(core_paragraph("One. Two. Three. Four.\n\n- detail")) == 4
    assert NOTES_SAY.search("(the notes say 156 because they round)")
    assert any(card.errata for card in load_decks([DECKS]).items for card in [card.item])

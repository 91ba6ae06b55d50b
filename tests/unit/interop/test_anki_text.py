"""Anki plain-text exports and CSV files as Anki reads them: headers, separators guessed as Anki
guesses, HTML, tags and decks, the "Cards in Plain Text" shape, guids written only on request."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

from drill.content.models import ItemId
from drill.interop.anki_text import anki_item_id, guess_separator, parse_anki_text
from drill.interop.html_text import html_to_text

PATH = Path("export.txt")

EXPORT = (
    "#separator:tab\n"
    "#html:true\n"
    "#guid column:1\n"
    "#notetype column:2\n"
    "#deck column:3\n"
    "#tags column:6\n"
    "f+x3$Kq!Wl\tBasic\tML\tWhat is the <b>KV cache</b>?\tKeys &amp; values<br>of past tokens\tmemory kv-cache\n"
    'abc123\tBasic\tML\t"A field\nover two lines"\tback\tattention\n'
)


def cards(text: str) -> list[tuple[str, str]]:
    parsed = parse_anki_text(text, PATH)
    assert parsed.errors == [], parsed.errors
    return [(card.prompt, card.answer) for card in parsed.cards]


def test_an_anki_export_gives_cards_with_ids_from_guids_and_blocks_and_topics_from_tags() -> None:
    parsed = parse_anki_text(EXPORT, PATH)
    assert parsed.errors == [] and parsed.warnings == [] and parsed.write_ids is None
    first, second = parsed.cards
    assert (first.prompt, first.answer) == ("What is the **KV cache**?", "Keys & values\nof past tokens")
    assert (first.block, first.topic, first.line) == ("memory", "kv-cache", 7)
    assert (second.id, second.block, second.topic, second.line) == ("anki-abc123", None, "attention", 8)
    assert first.id == anki_item_id("f+x3$Kq!Wl")


@pytest.mark.parametrize("guid", ["f+x3$Kq!Wl", "aB", "ab", "x-6142", "é", "a" * 200, "with space"])
def test_every_guid_becomes_a_valid_drill_id(guid: str) -> None:
    assert TypeAdapter(ItemId).validate_python(anki_item_id(guid)) == anki_item_id(guid)


def test_guids_that_differ_only_in_case_or_escaping_get_different_ids() -> None:
    guids_ = ["aB", "ab", "Ab", "x-6142", "6142", "a b", "a-b"]
    assert len({anki_item_id(guid) for guid in guids_}) == len(guids_)


def test_quoted_comma_fields_and_line_numbers_after_a_multi_line_row() -> None:
    text = (
        '#separator:comma\n#html:false\n#guid column:3\n"front, with comma","back\non two lines",g1\nsecond,answer,g2\n'
    )
    parsed = parse_anki_text(text, PATH)
    assert parsed.errors == []
    assert [(card.prompt, card.answer, card.line) for card in parsed.cards] == [
        ("front, with comma", "back\non two lines", 4),
        ("second", "answer", 6),
    ]


@pytest.mark.parametrize(
    "separator", ["Tab", "tab", "\t", "Comma", ",", "Semicolon", ";", "Pipe", "|", "Space", " ", "colon", ":"]
)
def test_every_separator_anki_names_by_name_or_as_itself(separator: str) -> None:
    character = {"tab": "\t", "comma": ",", "semicolon": ";", "pipe": "|", "space": " ", "colon": ":"}.get(
        separator.lower(), separator
    )
    text = f"#separator:{separator}\n#html:false\nfront{character}back\n"
    assert cards(text) == [("front", "back")]


def test_a_header_saved_as_a_csv_row_is_read_as_anki_reads_it() -> None:
    assert cards("#separator:,,,\n#html:false,,\n#tags column:3,,\na,b,memory\n") == [("a", "b")]


def test_a_tags_column_named_in_columns_and_global_tags() -> None:
    text = "#separator:semicolon\n#columns:Front;Back;Tags\n#tags:compute\nfront;back;matmul\n"
    card = parse_anki_text(text, PATH).cards[0]
    assert (card.prompt, card.answer, card.block, card.topic) == ("front", "back", "compute", "matmul")


def test_tags_on_the_first_line_as_anki_writes_them_apply_to_every_note() -> None:
    card = parse_anki_text("tags:memory hbm\nfront\tback\n", PATH).cards[0]
    assert (card.prompt, card.block, card.topic) == ("front", "memory", "hbm")


def test_tags_as_drill_export_writes_them_give_block_and_topic() -> None:
    text = "#separator:tab\n#tags column:3\nfront\tback\tblock::training kind::card topic::Pipeline_parallelism\n"
    card = parse_anki_text(text, PATH).cards[0]
    assert (card.block, card.topic) == ("training", "Pipeline parallelism")


def test_the_deck_gives_the_topic_or_the_block_when_no_tag_does() -> None:
    text = (
        "#separator:tab\n#deck column:1\n#tags column:4\n"
        "ML::Attention\tq1\ta1\t\nML::Attention\tq2\ta2\tmemory flash\ndrill::memory\tq3\ta3\t\nDefault\tq4\ta4\t\n"
    )
    parsed = parse_anki_text(text, PATH)
    assert [(card.block, card.topic) for card in parsed.cards] == [
        (None, "Attention"),
        ("memory", "flash"),
        ("memory", None),
        (None, None),
    ]
    assert parse_anki_text("#separator:tab\n#deck:Systems\nq\ta\n", PATH).cards[0].topic == "Systems"


@pytest.mark.parametrize(
    ("body", "separator"),
    [
        ("What is a, b?;the pair;memory\nWhy c?;because;compute\n", ";"),  # Anki's pick too: no tab or pipe
        ("front\tback, with comma\nq\ta\n", "\t"),
        ("a|b|c\nd|e|f\n", "|"),
        ("front,back\nq,a\n", ","),
        ("ratio 3:2?,one and a half\nratio 1:1?,one\n", ":"),  # colon before comma, as Anki orders them
        ("what: x, y;z\nno colon, here;w\n", ";"),  # the colon splits the rows unevenly: not taken
    ],
)
def test_without_a_separator_line_the_first_that_splits_rows_alike_in_ankis_order(body: str, separator: str) -> None:
    assert guess_separator(body) == separator


def test_a_semicolon_file_named_csv_splits_on_semicolons_not_the_comma_in_the_question() -> None:
    parsed = parse_anki_text("What is a, b?;the pair;memory\nWhy c?;because;compute\n", Path("deck.csv"))
    assert [(card.prompt, card.answer) for card in parsed.cards] == [
        ("What is a, b?", "the pair"),
        ("Why c?", "because"),
    ]


def test_without_an_html_line_fields_are_html_when_one_holds_a_tag() -> None:
    assert cards("#separator:tab\na &amp; <b>b</b>\tc\n") == [("a & **b**", "c")]
    assert cards("#separator:tab\na &amp; b\tc\n") == [("a &amp; b", "c")]


def test_cards_in_plain_text_with_the_question_repeated_after_an_answer_rule(tmp_path: Path) -> None:
    text = (
        "#separator:tab\n#html:true\n"
        'What is <b>HBM</b>?\t"What is <b>HBM</b>?\n\n<hr id=""answer"">\n\nHigh-bandwidth memory"\n'
        "Roofline?\tRoofline?<hr id=answer>FLOPs vs bytes\n"
    )
    assert cards(text) == [("What is **HBM**?", "High-bandwidth memory"), ("Roofline?", "FLOPs vs bytes")]


def test_cards_in_plain_text_without_html_have_the_repeated_question_taken_out_with_a_warning() -> None:
    text = (
        "#separator:tab\n#html:false\n"
        "What is HBM?\tWhat is HBM?    High-bandwidth memory\nRoofline?\tRoofline?    FLOPs\n"
    )
    parsed = parse_anki_text(text, PATH)
    assert [(card.prompt, card.answer) for card in parsed.cards] == [
        ("What is HBM?", "High-bandwidth memory"),
        ("Roofline?", "FLOPs"),
    ]
    assert [str(warning) for warning in parsed.warnings] == [
        'export.txt:3: a "Cards in Plain Text" export: the question repeated in 2 answers was taken out'
    ]


def test_a_card_whose_answer_does_not_repeat_its_question_keeps_its_answer_among_those_that_do() -> None:
    text = "#separator:tab\n#html:false\nQ1?\tQ1? A1\nQ2?\tQ2? A2\nThe [...] cache\tThe KV cache\n"
    parsed = parse_anki_text(text, PATH)
    assert [card.answer for card in parsed.cards] == ["A1", "A2", "The KV cache"]
    assert "repeated in 2 answers" in str(parsed.warnings[0])


def test_answers_that_only_sometimes_start_with_their_question_are_left_whole() -> None:
    text = "#separator:tab\n#html:false\n2+2?\t2+2? is 4\n3+3?\tsix\n"
    assert cards(text) == [("2+2?", "2+2? is 4"), ("3+3?", "six")]


def test_a_cloze_note_is_skipped_with_a_warning_and_the_rest_imports() -> None:
    text = "#separator:tab\n#notetype column:1\nCloze\tThe {{c1::KV}} cache\textra\nBasic\tfront\tback\n"
    parsed = parse_anki_text(text, PATH)
    assert parsed.errors == []
    assert [str(warning) for warning in parsed.warnings] == [
        "export.txt:3: a cloze note: skipped (only front/back notes import)"
    ]
    assert [(card.prompt, card.line) for card in parsed.cards] == [("front", 4)]


def test_without_a_guid_column_the_ids_are_left_to_drill_and_written_only_on_request() -> None:
    text = '#separator:tab\n#html:false\n#columns:Front\tBack\nfirst\tone\n"multi\nline"\ttwo\tmemory\n'
    parsed = parse_anki_text(text, PATH)
    assert [card.id for card in parsed.cards] == [None, None]
    assert parsed.write_ids is not None
    lines = parsed.write_ids(["anki-0000000001", "anki-x-612d62"]).split("\n")
    assert lines[:4] == ["#separator:tab", "#html:false", "#columns:Front\tBack\t\tGUID", "#guid column:4"]
    rows = list(csv.reader(io.StringIO("\n".join(lines[4:])), delimiter="\t"))
    assert rows == [["first", "one", "", "0000000001"], ["multi\nline", "two", "memory", "a-b"]]
    again = parse_anki_text("\n".join(lines), PATH)
    assert again.write_ids is None
    assert [(card.id, card.prompt, card.answer) for card in again.cards] == [
        ("anki-0000000001", "first", "one"),
        ("anki-x-612d62", "multi\nline", "two"),
    ]


def test_a_file_without_headers_gets_its_separator_written_before_the_guid_column() -> None:
    parsed = parse_anki_text("front,back\n", PATH)
    assert parsed.write_ids is not None
    assert parsed.write_ids(["anki-0000000001"]) == "#separator:comma\n#guid column:3\nfront,back,0000000001\n"
    tagged = parse_anki_text("tags:memory\nfront,back\n", PATH)
    assert tagged.write_ids is not None
    assert tagged.write_ids(["anki-1"]).startswith("tags:memory\n#separator:comma\n#guid column:3\n")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("#separator:tab\nonly a front\n", "export.txt:2: a note needs a question field and an answer field"),
        ("#separator:tab\n \tback\n", "export.txt:2: empty question"),
        ("#separator:tab\nfront\t \n", "export.txt:2: empty answer"),
        ("#separator:tab\n#guid column:1\ng\ta\tb\ng\tc\td\n", "export.txt:4: duplicate guid 'g' (first at line 3)"),
        ("#separator:tab\n#guid column:3\na\tb\n", "export.txt:3: empty guid '' (column 3)"),
        ("#separator:tab\n#tags column:3\na\tb\tmemory compute\n", "export.txt:3: tags name more than one block"),
        ("#separator:weird\na\tb\n", "export.txt:1: unknown separator"),
        ("#separator:tab\n#guid column:zero\na\tb\n", "export.txt:2: #guid column must be a column number"),
        ("#separator:tab\n#html:maybe\na\tb\n", "export.txt:2: #html must be true or false"),
        ('#separator:comma\na,"unclosed\n', "export.txt:2: bad CSV"),
    ],
)
def test_errors_name_the_line(text: str, expected: str) -> None:
    errors = [str(error) for error in parse_anki_text(text, PATH).errors]
    assert len(errors) == 1 and errors[0].startswith(expected), errors


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("a<br>b &amp; c&nbsp;d", "a\nb & c d"),
        ("<div>one</div><div>two <i>it</i></div>", "one\ntwo *it*"),
        ("<ul><li>x</li><li>y</li></ul>after", "- x\n- y\n\nafter"),
        ("<pre><code>x = 1\n\n  y = 2</code></pre>", "```\nx = 1\n\n  y = 2\n```"),
        ('see <a href="https://x.org">this</a> and <code>f()</code>', "see [this](https://x.org) and `f()`"),
        ("x<script>alert(1)</script>y &lt;T&gt;", "xy <T>"),
    ],
)
def test_html_fields_become_markdown_ish_text(html: str, text: str) -> None:
    assert html_to_text(html) == text


def test_a_note_drill_exported_keeps_its_drill_id_and_others_get_guid_ids() -> None:
    text = (
        "#separator:tab\n#html:true\n#guid column:1\n#notetype column:2\n#tags column:8\n"
        "g1\tdrill card\t<p>Q one</p>\t<p>A one</p>\t\tgrill-07\tseed 000\tblock::memory\n"
        "g2\tBasic\tQ two\tA two\tblock::compute\n"
    )
    parsed = parse_anki_text(text, Path("notes.txt"))
    assert parsed.errors == []
    assert [(card.id, card.from_drill, card.prompt) for card in parsed.cards] == [
        ("grill-07", True, "Q one"),
        ("anki-g2", False, "Q two"),
    ]


@given(st.text(alphabet='ab\t,;|: "\n#<>{}', max_size=80))
def test_any_text_gives_cards_or_errors_by_line_never_an_exception(text: str) -> None:
    parsed = parse_anki_text(text, PATH)
    lines = text.count("\n") + 1
    assert all(1 <= problem.line <= lines for problem in parsed.errors + parsed.warnings)
    assert all(card.prompt.strip() or parsed.errors for card in parsed.cards)

"""Anki "Notes in Plain Text" exports: headers, CSV fields, HTML, tags, guids written back."""

from __future__ import annotations

import csv
import io
import itertools
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from drill.content.models import ItemId
from drill.interop.anki_text import anki_item_id, parse_anki_text
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


def guids():
    numbers = itertools.count(1)
    return lambda: f"{next(numbers):010x}"


def test_an_anki_export_gives_cards_with_ids_from_guids_and_blocks_and_topics_from_tags() -> None:
    parsed = parse_anki_text(EXPORT, PATH)
    assert parsed.errors == [] and parsed.rewritten is None
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


def test_a_tags_column_named_in_columns_and_global_tags() -> None:
    text = "#separator:semicolon\n#columns:Front;Back;Tags\n#tags:compute\nfront;back;matmul\n"
    card = parse_anki_text(text, PATH, guids()).cards[0]
    assert (card.prompt, card.answer, card.block, card.topic) == ("front", "back", "compute", "matmul")


def test_tags_as_drill_export_writes_them_give_block_and_topic() -> None:
    text = "#separator:tab\n#tags column:3\nfront\tback\tblock::training kind::card topic::Pipeline_parallelism\n"
    card = parse_anki_text(text, PATH, guids()).cards[0]
    assert (card.block, card.topic) == ("training", "Pipeline parallelism")


def test_without_a_guid_column_one_is_appended_and_announced_in_the_header() -> None:
    text = '#separator:tab\n#html:false\n#columns:Front\tBack\nfirst\tone\n"multi\nline"\ttwo\tmemory\n'
    parsed = parse_anki_text(text, PATH, guids())
    assert parsed.new_ids == 2
    assert [card.id for card in parsed.cards] == ["anki-0000000001", "anki-0000000002"]
    lines = parsed.rewritten.split("\n")
    assert lines[:4] == ["#separator:tab", "#html:false", "#columns:Front\tBack\t\tGUID", "#guid column:4"]
    rows = list(csv.reader(io.StringIO("\n".join(lines[4:])), delimiter="\t"))
    assert rows == [["first", "one", "", "0000000001"], ["multi\nline", "two", "memory", "0000000002"]]
    again = parse_anki_text(parsed.rewritten, PATH)
    assert again.rewritten is None
    assert [(card.id, card.prompt, card.answer) for card in again.cards] == [
        (card.id, card.prompt, card.answer) for card in parsed.cards
    ]


def test_a_file_without_headers_gets_its_separator_written_before_the_guid_column() -> None:
    parsed = parse_anki_text("front,back\n", PATH, guids())
    assert parsed.rewritten == "#separator:comma\n#guid column:3\nfront,back,0000000001\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("#separator:tab\nonly a front\n", "export.txt:2: a note needs a question field and an answer field"),
        ("#separator:tab\n \tback\n", "export.txt:2: empty question"),
        ("#separator:tab\nfront\t \n", "export.txt:2: empty answer"),
        ("#separator:tab\n#guid column:1\ng\ta\tb\ng\tc\td\n", "export.txt:4: duplicate guid 'g' (first at line 3)"),
        ("#separator:tab\n#guid column:3\na\tb\n", "export.txt:3: empty guid (column 3)"),
        ("#separator:tab\n#tags column:3\na\tb\tmemory compute\n", "export.txt:3: tags name more than one block"),
        (
            "#separator:tab\n#notetype column:1\nCloze\tThe {{c1::KV}} cache\textra\n",
            "export.txt:3: cloze notes are not supported",
        ),
        ("#separator:weird\na\tb\n", "export.txt:1: unknown separator"),
        ("#separator:tab\n#guid column:zero\na\tb\n", "export.txt:2: #guid column must be a column number"),
        ('#separator:comma\na,"unclosed\n', "export.txt:2: bad CSV"),
    ],
)
def test_errors_name_the_line(text: str, expected: str) -> None:
    errors = [str(error) for error in parse_anki_text(text, PATH, guids()).errors]
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

"""`check` reports broken problem files as ContentError(path, line, message)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from drill.content.errors import ContentError
from drill.estimate.schema import families
from drill.estimate.validate import check

PROBLEMS = Path(__file__).resolve().parents[3] / "problems"

GOOD = """id = "toy"
block = "memory"
topic = "Toy"
prompt = "{a} times {b}?"
answer = "a*b"
unit = "byte"
steps = ["a · b = {a} · {b}", "= {answer}"]

[params.a]
choice = [1, 2, 3]
[params.b]
log_uniform = [1e3, 1e6]
"""


@pytest.fixture
def tmp_problems(tmp_path):
    for name in ("models.toml", "gpus.toml"):
        shutil.copy(PROBLEMS / name, tmp_path / name)
    return tmp_path


def write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.write_text(text, encoding="utf-8")
    return path


def errors_for(root: Path) -> list[ContentError]:
    return check(root)


def test_good_file_passes(tmp_problems):
    write(tmp_problems, "toy.toml", GOOD)
    assert errors_for(tmp_problems) == []
    assert [f.id for f in families(tmp_problems)] == ["toy"]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(
    "old, new, needle, message",
    [
        ('answer = "a*b"', 'answer = "a*c"', "answer =", "unbound symbol: c"),
        ('answer = "a*b"', 'answer = "a*frob(b)"', "answer =", "unknown function"),
        ('answer = "a*b"', 'answer = "a*(b"', "answer =", "cannot parse"),
        ('answer = "a*b"', 'answer = "a^b"', "answer =", "**"),
        ('answer = "a*b"', 'answer = "a - 10"', "answer =", "gives"),
        ('unit = "byte"', 'unit = "furlong"', "unit =", "unknown unit"),
        ('block = "memory"', 'block = "vibes"', "block =", "block"),
        ('prompt = "{a} times {b}?"', 'prompt = "{a} times {zz}?"', "prompt =", "unknown field {zz}"),
        ("choice = [1, 2, 3]", "choice = []", "choice =", "must not be empty"),
        ("log_uniform = [1e3, 1e6]", "log_uniform = [1e6, 1e3]", "log_uniform", "lower bound"),
        ("log_uniform = [1e3, 1e6]", 'from = "model.layers"', "from =", "names no draw"),
        ('topic = "Toy"\n', "", "id =", "topic"),
    ],
)
def test_errors_name_file_and_line(tmp_problems, old, new, needle, message):
    text = GOOD.replace(old, new)
    assert text != GOOD
    path = write(tmp_problems, "toy.toml", text)
    errors = errors_for(tmp_problems)
    assert errors, message
    err = errors[0]
    assert err.path == path and message in err.message
    assert err.line == line_of(text, needle)
    assert str(err).startswith(f"{path}:{err.line}: ")


def test_invalid_toml_line(tmp_problems):
    path = write(tmp_problems, "toy.toml", GOOD + "\nthis is = = not toml\n")
    (err,) = errors_for(tmp_problems)
    assert (
        err.path == path and err.line == len(GOOD.splitlines()) + 2 and err.message.startswith("bad TOML")
    )  # worded as decks and drills word it


def test_draw_errors(tmp_problems):
    text = GOOD.replace(
        "[params.b]\nlog_uniform = [1e3, 1e6]", '[params.b]\nfrom = "model.nope"\n\n[draws.model]\ncatalog = "models"'
    )
    write(tmp_problems, "toy.toml", text)
    errors = errors_for(tmp_problems)
    assert errors and all("has no number 'nope'" in e.message for e in errors)
    text2 = text.replace('catalog = "models"', 'catalog = "cars"')
    write(tmp_problems, "toy.toml", text2)
    assert "no catalog named 'cars'" in errors_for(tmp_problems)[0].message


def test_example_mismatch(tmp_problems):
    write(tmp_problems, "toy.toml", GOOD + "\n[[examples]]\nparams = { a = 2, b = 10 }\nanswer = 21\n")
    (err,) = errors_for(tmp_problems)
    assert "examples[0]" in err.message and "20" in err.message and err.line == len(GOOD.splitlines()) + 2


def test_duplicate_id_and_file_name(tmp_problems):
    write(tmp_problems, "toy.toml", GOOD)
    write(tmp_problems, "toy2.toml", GOOD)
    messages = [e.message for e in errors_for(tmp_problems)]
    assert any("already used" in m for m in messages)


def test_unsatisfiable_requirement(tmp_problems):
    write(tmp_problems, "toy.toml", GOOD.replace('unit = "byte"', 'unit = "byte"\nrequire = ["a > 5"]'))
    (err,) = errors_for(tmp_problems)
    assert "constraints" in err.message


def test_broken_file_does_not_hide_good_ones(tmp_problems):
    write(tmp_problems, "toy.toml", GOOD)
    write(tmp_problems, "bad.toml", "id = = 1")
    assert [f.id for f in families(tmp_problems)] == ["toy"]
    assert len(errors_for(tmp_problems)) == 1


def test_missing_directory(tmp_path):
    (err,) = check(tmp_path / "nowhere")
    assert "not found" in err.message

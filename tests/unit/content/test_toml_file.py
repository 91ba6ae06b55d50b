"""The one TOML → pydantic → path:line loader that decks, problems and drills share."""

from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from drill.content.errors import ContentError
from drill.content.toml_file import TomlFile, read_toml, validation_errors


class Inner(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: int


class Outer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    inner: Inner


GOOD = 'name = "x"\n\n[inner]\nsize = 3\n'


def test_a_good_file_reads_with_its_text(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_text(GOOD)
    read = read_toml(path)
    assert isinstance(read, TomlFile) and read.data == {"name": "x", "inner": {"size": 3}} and read.text == GOOD


def test_bad_toml_and_bad_bytes_name_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text('name = "x"\n\nsize = = 3\n')
    error = read_toml(path)
    assert isinstance(error, ContentError) and (error.path, error.line) == (path, 3)
    assert error.message.startswith("bad TOML")
    path.write_bytes(b"\xff\xfe")
    assert str(read_toml(path)) == f"{path}:1: not UTF-8 text (invalid start byte)"


def test_each_pydantic_complaint_is_worded_once_and_placed_by_the_caller(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    try:
        Outer.model_validate({"inner": {"size": "big", "colour": "red"}})
    except ValidationError as error:
        found = validation_errors(path, error, lambda loc, message: len(loc))
    assert sorted((e.line, e.message) for e in found) == [
        (1, "missing required key `name`"),
        (2, "`inner.size`: Input should be a valid integer, unable to parse string as an integer"),
        (2, "unknown key `inner.colour`"),
    ]

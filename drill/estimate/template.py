"""Prompt and worked-step templates: `{name}` or `{name:kind}` over params and derived values.

A kind is a pretty.py kind (`byte`, `s`, `FLOP/s`, `byte/s`, `%`, `x`, `count`, `GiB`,
`sci`, ...) or an ordinary format spec (`.2f`). Two forms write English through drill.words:
`{batch:of sequence}` counts a noun ('1 sequence', '16 sequences', '0.5 bytes'; `of person/people`
for an irregular plural), `{tp:noun GPU}` gives the noun alone in agreement ('GPU', 'GPUs'), and
`{params:a count}` / `{params:A count}` / `{m:a}` put the right article before the value ('an 8B',
'a 70B', 'an 8192'). Field names are plain names only: no attribute or index access.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from drill.estimate.pretty import given_digits, plain, pretty
from drill.words import article, counted

KINDS = frozenset(
    {
        "byte",
        "GiB",
        "s",
        "FLOP",
        "FLOP/s",
        "byte/s",
        "FLOP/byte",
        "token/s",
        "1",
        "%",
        "x",
        "GPU",
        "param",
        "count",
        "sci",
    }
)


class TemplateError(ValueError):
    pass


class Given(float):
    """A figure the problem gives (a parameter): shown to the digits it has (pretty.given_digits),
    where a figure worked out from it is shown to 3."""


class _Formatter(string.Formatter):
    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        if not field_name.isidentifier():
            raise TemplateError(f"bad field {{{field_name}}}: use plain names")
        if field_name not in kwargs:
            raise TemplateError(f"unknown field {{{field_name}}}")
        return kwargs[field_name], field_name

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith(("of ", "noun ")):
            form, _, nouns = format_spec.partition(" ")
            noun, _, plural = nouns.partition("/")
            number = float(value)
            if number.is_integer():
                said = counted(int(number), noun, plural or None)
            else:  # 0.5 bytes, 4.25 bits: never rounded to a whole number
                said = f"{plain(value)} {plural or noun + 's'}"
            return said if form == "of" else said.split(" ", 1)[1]
        if format_spec in ("a", "A") or format_spec[:2] in ("a ", "A "):
            shown = self.format_field(value, format_spec[2:])
            said = article(shown)
            return f"{said.capitalize() if format_spec[0] == 'A' else said} {shown}"
        if not format_spec:
            return plain(value)
        if format_spec in KINDS:
            if isinstance(value, str):
                return value
            return pretty(float(value), format_spec, given_digits(value) if isinstance(value, Given) else 3)
        return format(value, format_spec)


_FORMATTER = _Formatter()


def render(template: str, values: Mapping[str, Any]) -> str:
    return _FORMATTER.vformat(template, (), dict(values))


def fields(template: str) -> list[tuple[str, str]]:
    """The (name, spec) pairs a template uses; TemplateError if it is malformed."""
    out = []
    try:
        for _, name, spec, _ in string.Formatter().parse(template):
            if name is None:
                continue
            if not name.isidentifier():
                raise TemplateError(f"bad field {{{name}}}: use plain names")
            out.append((name, spec or ""))
    except ValueError as exc:
        raise TemplateError(str(exc)) from None
    return out

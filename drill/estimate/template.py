"""Prompt and worked-step templates: `{name}` or `{name:kind}` over params and derived values.

A kind is a pretty.py kind (`byte`, `s`, `FLOP/s`, `byte/s`, `%`, `x`, `count`, `GiB`,
`sci`, ...) or an ordinary format spec (`.2f`). Field names are plain names only: no
attribute or index access.
"""

from __future__ import annotations

import string
from typing import Any, Mapping

from drill.estimate.pretty import plain, pretty

KINDS = frozenset(
    {"byte", "GiB", "s", "FLOP", "FLOP/s", "byte/s", "FLOP/byte", "token/s", "1", "%", "x", "GPU", "param", "count", "sci"}
)


class TemplateError(ValueError):
    pass


class _Formatter(string.Formatter):
    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        if not field_name.isidentifier():
            raise TemplateError(f"bad field {{{field_name}}}: use plain names")
        if field_name not in kwargs:
            raise TemplateError(f"unknown field {{{field_name}}}")
        return kwargs[field_name], field_name

    def format_field(self, value: Any, format_spec: str) -> str:
        if not format_spec:
            return plain(value)
        if format_spec in KINDS:
            if isinstance(value, str):
                return value
            return pretty(float(value), format_spec)
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

"""The base of drill's read models: frozen, typed records that one layer hands another and that
`model_dump(mode="json")` writes out (`drill stats --json`, `drill plan --json`, the reports of
imports and exports), so no class writes its JSON by hand.

A published JSON that mixes stored values with worked-out ones in its own order names that order
in `KEYS`: pydantic writes computed fields after the stored ones, and the output must not change.
A frozen pydantic dataclass that is made on a hot path (estimate's GradeResult) publishes its
order the same way, with `in_published_order` as its model serializer.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer


def in_published_order(self: Any, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
    """The record's JSON with the keys its class names in `KEYS` first, in that order, then the rest
    (a model serializer: pydantic calls it as a method, hence `self`)."""
    dumped: dict[str, Any] = handler(self)
    return {**{key: dumped[key] for key in self.KEYS if key in dumped}, **dumped}


class ReadModel(BaseModel):
    """A frozen record whose JSON keys are its fields' names (or their serialization aliases), then its
    computed fields; those in `KEYS` first, in that order, where a class sets them. Its validator is
    built when the first record is made, not at import (a start-up loads many it never makes)."""

    model_config = ConfigDict(frozen=True, serialize_by_alias=True, defer_build=True)

    KEYS: ClassVar[tuple[str, ...]] = ()

    _published_order = model_serializer(mode="wrap")(in_published_order)

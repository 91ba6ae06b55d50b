"""The memory-model seam: a `Rating` for the four buttons, the `MemoryModel` protocol, a registry.

Pure, and at the bottom of drill.schedule: a model is looked up here by the name config.toml
gives (`scheduler = "sm2"`), and every caller that needs a due day, a predicted recall or a
model's label asks the registry instead of comparing names. A memory model is one module that
defines the model and calls `register` (drill/schedule/sm2_memory.py, fsrs_memory.py);
drill/schedule/__init__.py imports the built-in ones, so they are registered before any lookup.

What a model reads is the item's stored state (`ItemState`): SM-2's and FSRS's memories are
both kept with every counted grade, whichever model sets the due days, so switching models
rewrites due days only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import IntEnum
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from drill.schedule.state import ItemState


class Rating(IntEnum):
    """The four grade buttons, numbered as py-fsrs numbers its ratings (and drill stores them)."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4


@dataclass(frozen=True)
class ExponentialRecall:
    """Predicted recall R = base ** (t / M) after t days, M the item's stored `memory` in days."""

    memory: Literal["interval", "stability"]
    base: float


@dataclass(frozen=True)
class PowerRecall:
    """Predicted recall R = (1 + factor · t / M) ** -decay after t days, M the item's stored `memory`."""

    memory: Literal["interval", "stability"]
    factor: float
    decay: float


RecallCurve = ExponentialRecall | PowerRecall


class MemoryModel(Protocol):
    """What drill asks of a memory model."""

    @property
    def name(self) -> str:
        """Its config value: `scheduler = "<name>"`."""
        ...

    @property
    def label(self) -> str:
        """What screens and reports call it ("SM-2", "FSRS")."""
        ...

    @property
    def recall_label(self) -> str:
        """What its recall predictions are called ("FSRS"; "SM-2 proxy" for a model that predicts none)."""
        ...

    def curve(self) -> RecallCurve:
        """Its forgetting curve in a form the stats' SQL evaluates over every item at once."""
        ...

    def due_day(self, state: ItemState) -> date | None:
        """The day this model makes an item with the stored `state` due (None: never reviewed)."""
        ...

    def recall(self, state: ItemState, day: date) -> float | None:
        """Predicted probability of recall on study day `day` (None for an item never reviewed)."""
        ...


class UnknownModel(LookupError):
    """No memory model is registered under that name."""


_MODELS: dict[str, MemoryModel] = {}


def register(model: MemoryModel) -> MemoryModel:
    """Make `model` available under `model.name` (a second registration of a name replaces it)."""
    _MODELS[model.name] = model
    return model


def unregister(name: str) -> None:
    """Forget the model registered under `name` (for tests that register their own)."""
    _MODELS.pop(name, None)


def names() -> tuple[str, ...]:
    """The registered models' names, in registration order."""
    return tuple(_MODELS)


def models() -> tuple[MemoryModel, ...]:
    """The registered models, in registration order."""
    return tuple(_MODELS.values())


def listed(conjunction: str = "or") -> str:
    """The registered names as a sentence lists them: '"sm2" or "fsrs"', '"a", "b" or "c"'."""
    quoted = [f'"{name}"' for name in _MODELS]
    return (
        f" {conjunction} ".join(quoted) if len(quoted) < 3 else f"{', '.join(quoted[:-1])} {conjunction} {quoted[-1]}"
    )


def get(name: str) -> MemoryModel:
    """The model registered under `name`; an unknown name is an error that lists the known ones."""
    try:
        return _MODELS[name]
    except (KeyError, TypeError):
        raise UnknownModel(f"no memory model {name!r}; registered: {', '.join(map(repr, _MODELS)) or 'none'}") from None

"""What a mock interview is made of: its length and its sections, as the setup screen picks them
and config.toml remembers them. Pure, no I/O."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from drill.config import Config

SECTIONS = ("grill", "pitch", "estimate", "coding")  # in the order an interview round asks them
SECTION_TITLES = {"grill": "Grill questions", "pitch": "Pitch", "estimate": "Estimation", "coding": "Coding"}
PITCH_RUNGS = (0, 30, 120, 300)  # the pitch ladder's targets in seconds; 0 leaves the pitch out
MINUTES = (15, 30, 45, 60, 90)
GRILL_TARGET_S = 120  # a grill answer spoken aloud: about two minutes, as in an interview

# config.toml key → InterviewSettings field
CONFIG_KEYS = {
    "mock_interview_minutes": "minutes",
    "mock_interview_grill": "grill",
    "mock_interview_pitch": "pitch_seconds",
    "mock_interview_estimates": "estimates",
    "mock_interview_coding": "coding",
}


@dataclass(frozen=True)
class InterviewSettings:
    """One countdown for the whole loop, and how many items each section asks."""

    minutes: int = 45
    grill: int = 3
    pitch_seconds: int = 120  # the pitch rung's target; 0: no pitch
    estimates: int = 3
    coding: bool = False

    @property
    def seconds(self) -> int:
        return self.minutes * 60

    def wanted(self) -> dict[str, int]:
        """How many items each section asks for."""
        return {"grill": self.grill, "pitch": 1 if self.pitch_seconds else 0, "estimate": self.estimates,
                "coding": 1 if self.coding else 0}

    def problem(self) -> str | None:
        """Why these settings cannot start an interview, or None."""
        if self.minutes < 1:
            return "The interview needs at least one minute."
        if not any(self.wanted().values()):
            return "Pick at least one section."
        return None

    def as_json(self) -> dict[str, Any]:
        return {"minutes": self.minutes, "grill": self.grill, "pitch_seconds": self.pitch_seconds,
                "estimates": self.estimates, "coding": self.coding}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "InterviewSettings":
        return cls(**{key: data[key] for key in cls().as_json() if key in data})

    @classmethod
    def from_config(cls, config: "Config") -> "InterviewSettings":
        """The settings config.toml remembers (each key optional)."""
        return cls(**{name: getattr(config, key) for key, name in CONFIG_KEYS.items() if hasattr(config, key)})

    def config_values(self) -> dict[str, Any]:
        """The config.toml keys and values that remember these settings."""
        return {key: getattr(self, name) for key, name in CONFIG_KEYS.items()}

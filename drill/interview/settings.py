"""What a mock interview is made of: its length and its sections, as the setup screen picks them
and config.toml remembers them. Pure, no I/O."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drill.config import MockInterview

if TYPE_CHECKING:
    from drill.config import Config

SECTIONS = ("grill", "pitch", "estimate", "coding")  # in the order an interview round asks them
SECTION_TITLES = {"grill": "Grill questions", "pitch": "Pitch", "estimate": "Estimation", "coding": "Coding"}
MINUTES = (15, 30, 45, 60, 90)
GRILL_TARGET_S = 120  # a grill answer spoken aloud: about two minutes, as in an interview


class InterviewSettings(MockInterview):
    """One countdown for the whole loop, and how many items each section asks (config.toml's
    [mock_interview] remembers the last; each stored interview keeps its model_dump())."""

    @property
    def seconds(self) -> int:
        return self.minutes * 60

    def wanted(self) -> dict[str, int]:
        """How many items each section asks for."""
        return {
            "grill": self.grill,
            "pitch": 1 if self.pitch_seconds else 0,
            "estimate": self.estimates,
            "coding": 1 if self.coding else 0,
        }

    def problem(self) -> str | None:
        """Why these settings cannot start an interview, or None."""
        if self.minutes < 1:
            return "The interview needs at least one minute."
        if not any(self.wanted().values()):
            return "Pick at least one section."
        return None

    @classmethod
    def from_config(cls, config: Config) -> InterviewSettings:
        """The settings config.toml remembers."""
        return cls.model_validate(config.mock_interview.model_dump())

    def config_values(self) -> dict[str, Any]:
        """The config.toml setting that remembers these settings."""
        return {"mock_interview": self}

"""What a screen's Footer shows, key by key, and whether all of it fits the terminal."""

from __future__ import annotations

from textual.widgets import Footer
from textual.widgets._footer import FooterKey


def footer_keys(screen) -> dict[str, FooterKey]:
    """The Footer's keys (by binding key: 'escape', 'space', '1'), as drawn."""
    return {key.key: key for key in screen.query_one(Footer).query(FooterKey)}


def footer_labels(screen) -> dict[str, str]:
    """Each key the Footer shows and its label."""
    return {key: widget.description for key, widget in footer_keys(screen).items()}


def cut_keys(screen) -> list[str]:
    """The Footer's keys not drawn whole inside the screen's width (an empty list: everything fits)."""
    width = screen.app.size.width
    return [
        key for key, widget in footer_keys(screen).items() if widget.region.width == 0 or widget.region.right > width
    ]

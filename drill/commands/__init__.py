"""Subcommands of `drill`, one module per area; each registers its parsers."""

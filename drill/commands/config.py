"""`drill config`: every setting in effect, defaults included, and where config.toml is."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    config = commands.add_parser("config", help="every setting in effect (defaults included) and where config.toml is")
    config.add_argument("--json", action="store_true", help='print {"path", "exists", "settings"}')
    config.set_defaults(handler=cmd_config)


def cmd_config(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.config import Config
    from drill.paths import Paths

    path = Paths.resolve().config
    config = Config.load(path)
    if args.json:
        print_json({"path": str(path), "exists": path.exists(), "settings": config.model_dump(mode="json")})
        return 0
    print(f"# {path}" if path.exists() else f"# {path} (no such file: every setting is its default)")
    for key, value in config.by_key().items():
        print(f"# {key} is not set" if value is None else f"{key} = {_toml(value)}")
    return 0


def _toml(value: object) -> str:
    """`value` as config.toml writes it (a table inline)."""
    import tomlkit

    if isinstance(value, dict):
        table = tomlkit.inline_table()
        table.update(value)
        return table.as_string()
    return tomlkit.item(list(value) if isinstance(value, tuple) else value).as_string()

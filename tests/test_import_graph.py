"""drill's imports go down the layers written in the README, and never round in a cycle."""

import ast
import re
from pathlib import Path

import drill

ROOT = Path(drill.__file__).resolve().parent
README = ROOT.parent / "README.md"


def layers() -> list[tuple[str, ...]]:
    """The README's numbered layer list, top first."""
    found = re.findall(r"^\d+\. (drill\..+)$", README.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return [tuple(name.strip() for name in line.split(",")) for line in found]


def modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The drill modules `name` imports anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names)
    resolved = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target.startswith("drill") and target not in (name, "drill"):
            resolved.add(target)
    return resolved


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def depth(name: str, order: list[tuple[str, ...]]) -> int | None:
    for number, prefixes in enumerate(order):
        if any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes):
            return number
    return None


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def test_the_readme_lists_the_layers() -> None:
    order = layers()
    assert len(order) == 7 and order[0][0] == "drill.cli" and "drill.store" in order[3]


def test_every_module_has_a_layer() -> None:
    order = layers()
    assert [name for name in graph() if name != "drill" and depth(name, order) is None] == []


def test_no_import_goes_up_a_layer() -> None:
    order = layers()
    upward = sorted(
        f"{name} -> {target}"
        for name, targets in graph().items() if name != "drill"
        for target in targets
        if depth(target, order) < depth(name, order)
    )
    assert upward == []


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_the_checks_catch_what_they_look_for() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    order = layers()
    assert depth("drill.store.queries", order) > depth("drill.study", order)
    assert "drill.store.engine" in graph()["drill.study"]

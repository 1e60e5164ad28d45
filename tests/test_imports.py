"""stemmer's modules import each other without a cycle, counting imports inside functions too."""
from __future__ import annotations

import ast
from pathlib import Path

import stemmer

PACKAGE = Path(stemmer.__file__).parent


def _module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Which stemmer modules each one makes Python run, by any import statement anywhere in it.

    Importing ``a.b.c`` runs the ``__init__`` of ``a.b`` too, unless the importer lies inside ``a.b``.
    """
    files = {_module_name(p, package): p for p in package.rglob("*.py")}
    top = package.name
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
                for a in node.names:
                    targets.add(f"{base}.{a.name}" if f"{base}.{a.name}" in files else base)
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1 + is_package)}
        graph[name] = set()
        for target in targets:
            if target.split(".")[0] != top:
                continue
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                if prefix in files and prefix not in own and prefix != name:
                    graph[name].add(prefix)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules along it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        stack.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_cycle():
    cycle = _cycle(_import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_check_sees_a_cycle_dodged_inside_a_function(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg.a import f\n")
    (pkg / "a.py").write_text("from pkg.sub.b import g\ndef f():\n    return g()\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def g():\n    from pkg import a  # dodges the cycle at run time\n")
    graph = _import_graph(pkg)
    assert graph["pkg.a"] == {"pkg.sub", "pkg.sub.b"} and graph["pkg"] == {"pkg.a"}
    assert _cycle(graph) == ["pkg.a", "pkg.sub.b", "pkg.a"]
    (pkg / "sub" / "b.py").write_text("def g():\n    return 1\n")
    assert _cycle(_import_graph(pkg)) is None

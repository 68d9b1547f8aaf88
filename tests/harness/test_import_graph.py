"""The package structure issue 28 set: no import cycle in simcore/ and policies/ (function-level
imports counted: they hide a cycle, they do not remove it), and no game-agnostic module imports a
game family's package by name."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAMILY_PACKAGES = ("simcore.momojan", "simcore.ptrump", "policies.momojan", "policies.ptrump")


def _modules():
    mods = {}
    for top in ("simcore", "policies"):
        for p in (ROOT / top).rglob("*.py"):
            name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
            mods[name.removesuffix(".__init__")] = p
    return mods


def _edges(mods):
    edges = {m: set() for m in mods}
    for m, p in mods.items():
        pkg = m if p.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(ast.parse(p.read_text())):
            targets = []
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = pkg.split(".")[:len(pkg.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            edges[m] |= {t for t in targets if t in mods and t != m}
    return edges


def _cycles(edges):
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in edges:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle():
    assert _cycles(_edges(_modules())) == []


def test_the_cycle_finder_finds_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_game_agnostic_module_imports_a_family():
    mods = _modules()
    edges = _edges(mods)
    generic = [m for m in mods if not m.startswith(FAMILY_PACKAGES)]
    bad = {m: sorted(t for t in edges[m] if t.startswith(FAMILY_PACKAGES)) for m in generic}
    assert {m: t for m, t in bad.items() if t} == {}

"""The package structure: no import cycle in simcore/ and policies/, the layers of simcore/ in
order, and no game-agnostic module naming a game family. Function-level imports are counted: they
hide a cycle or a climb, they do not remove it.

The layers, lowest first (docs/engineering.md, "The harness in layers"); a module may import its own
package and anything in a lower layer, never a higher one or a neighbour of its own layer. The
one exception is by design: a game family's package and its bots (``simcore/momojan`` and
``policies/momojan``) import each other, because the engine compiles the bots' ``decide`` into
its round loop. The families are read from the registry, never listed here.
"""

import ast
import functools
from pathlib import Path

import pytest

from simcore.family import registry

ROOT = Path(__file__).resolve().parents[2]
FAMILY_PAIRS = [registry.packages(name) for name in registry.names()]
FAMILY_PACKAGES = tuple(p for pair in FAMILY_PAIRS for p in pair)

# (layer, packages or modules in it), lowest first
LAYERS = (
    ("errors", ("simcore.errors", "simcore._moved")),
    ("numba helpers and statistics", ("simcore.nb", "simcore.stats")),
    ("runners", ("simcore.runners",)),
    ("the family kit", ("simcore.family",)),
    ("bots shared by families", ("policies.random_policy", "policies")),
    ("game families and their bots", FAMILY_PACKAGES),
    ("studies and the build", ("simcore.studies", "simcore.precompile")),
    ("reports and the conformance check", ("simcore.report", "simcore.testing")),
    ("the CLI", ("simcore.cli",)),
    ("the Python API", ("simcore",)),
)


@functools.cache
def _modules():
    mods = {}
    for top in ("simcore", "policies"):
        for p in (ROOT / top).rglob("*.py"):
            name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
            mods[name.removesuffix(".__init__")] = p
    return mods


def _edges(mods):
    return _edges_of(tuple(sorted(mods.items())))


@functools.cache
def _edges_of(items):
    mods = dict(items)
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


def _unit(module: str, layers=LAYERS):
    """(layer rank, unit) of a module: the longest package or module named in the layers."""
    best = None
    for rank, (_, units) in enumerate(layers):
        for u in units:
            if (module == u or module.startswith(u + ".")) and (best is None or len(u) > len(best[1])):
                best = (rank, u)
    return best


def _climbs(edges, layers=LAYERS, pairs=FAMILY_PAIRS):
    """Imports that go up a layer or sideways into another unit of the same layer."""
    allowed = {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}
    bad = []
    for m, targets in edges.items():
        um = _unit(m, layers)
        for t in targets:
            ut = _unit(t, layers)
            if um is None or ut is None:
                bad.append((m, t, "in no layer"))
            elif ut[1] == um[1] or (um[1], ut[1]) in allowed:
                continue
            elif ut[0] >= um[0]:
                bad.append((m, t, f"{layers[um[0]][0]} imports {layers[ut[0]][0]}"))
    return sorted(bad)


def test_no_import_cycle():
    assert _cycles(_edges(_modules())) == []


def test_the_cycle_finder_finds_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_layers_are_in_order():
    assert _climbs(_edges(_modules())) == []


def test_no_package_loop():
    """Packages, drawn as one room each, form no circle either (a cycle-free file graph can hide
    one: a imports b.x, b.y imports a)."""
    edges = _edges(_modules())
    rooms = {}
    for m, targets in edges.items():
        um = _unit(m)[1]
        rooms.setdefault(um, set()).update(_unit(t)[1] for t in targets if _unit(t)[1] != um)
    allowed = {frozenset(p) for p in FAMILY_PAIRS}
    for a, b in FAMILY_PAIRS:      # the engine <-> bots pair, by design: one room
        rooms[a] = (rooms.get(a, set()) | rooms.pop(b, set())) - {a, b}
        for targets in rooms.values():
            if b in targets:
                targets.discard(b)
                targets.add(a)
    assert allowed and _cycles({r: {t for t in ts if t in rooms} for r, ts in rooms.items()}) == []


def test_the_layer_check_catches_a_climb_and_a_neighbour():
    layers = (("low", ("p.low",)), ("mid", ("p.a", "p.b")), ("high", ("p.high",)))
    edges = {"p.low.x": {"p.high.y"}, "p.a.x": {"p.b.y", "p.low.z"}, "p.high.y": {"p.a.x"},
             "p.b.y": set(), "p.low.z": set()}
    assert _climbs(edges, layers, pairs=()) == [("p.a.x", "p.b.y", "mid imports mid"),
                                                ("p.low.x", "p.high.y", "low imports high")]
    assert _climbs(edges, layers, pairs=[("p.a", "p.b")]) == [("p.low.x", "p.high.y",
                                                                "low imports high")]


def test_only_the_cli_imports_click():
    mods = _modules()
    users = sorted(m for m, p in mods.items() if not (m == "simcore.cli" or m.startswith("simcore.cli."))
                   and any(isinstance(n, (ast.Import, ast.ImportFrom)) and
                           any((a.name if isinstance(n, ast.Import) else (n.module or "")) == "click"
                               for a in n.names)
                           for n in ast.walk(ast.parse(p.read_text()))))
    assert users == []


def test_no_game_agnostic_module_imports_a_family():
    mods = _modules()
    edges = _edges(mods)
    assert len(FAMILY_PAIRS) == len(registry.names()) >= 4
    generic = [m for m in mods if not m.startswith(FAMILY_PACKAGES)]
    bad = {m: sorted(t for t in edges[m] if t.startswith(FAMILY_PACKAGES)) for m in generic}
    assert {m: t for m, t in bad.items() if t} == {}


@pytest.mark.parametrize("name", registry.names())
def test_every_registered_family_has_its_packages(name):
    game, bots = registry.packages(name)
    for pkg in (game, bots):
        assert (ROOT / Path(*pkg.split(".")) / "__init__.py").is_file(), pkg

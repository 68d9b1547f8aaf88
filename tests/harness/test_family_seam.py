"""The seam between the harness and a game: ``Family`` is only what a game declares and writes,
and the list of families is written once (the registry) and read everywhere else."""

import ast
from pathlib import Path

import pytest

from simcore.family import registry
from simcore.family.base import Family

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = [registry.get(name) for name in registry.names()]


def _public(cls) -> list:
    return sorted(n for n in vars(cls) if not n.startswith("_"))


def test_every_public_name_of_family_is_declared_or_written_by_a_game():
    """A name no game sets or overrides is a harness service hung on the family: it belongs in
    the layer that uses it (simcore.family.chunks, tables, summary, compiling...)."""
    unused = [n for n in _public(Family)
              if not any(n in vars(k) for f in FAMILIES for k in type(f).__mro__
                         if k not in (Family, object))]
    assert unused == []


def test_the_base_class_stays_small():
    lines = (ROOT / "simcore" / "family" / "base.py").read_text().count("\n")
    assert lines <= 220, f"simcore/family/base.py has {lines} lines"


def test_the_seam_check_finds_a_service():
    class WithService(Family):
        def helper(self):
            return 1
    names = _public(WithService)
    assert "helper" in names and not any("helper" in vars(type(f)) for f in FAMILIES)


def _module_lists(paths):
    """Literal lists, tuples, sets and dict keys naming two or more game packages or family
    modules (``"simcore.momojan"``, ``"policies.ptrump"``, ``"simcore.emoji.family"``): copies of
    the family list."""
    modules = set()
    for name in registry.names():
        modules |= {*registry.packages(name), registry.FAMILIES[name]}
    hits = []
    for p in paths:
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
                items = node.elts
            elif isinstance(node, ast.Dict):
                items = node.keys
            else:
                continue
            named = {e.value for e in items if isinstance(e, ast.Constant) and e.value in modules}
            if len(named) >= 2:
                hits.append(f"{p.relative_to(ROOT)}:{node.lineno}")
    return hits


def test_the_family_list_is_written_once():
    paths = [p for top in ("simcore", "policies", "tests", "benchmarks")
             for p in (ROOT / top).rglob("*.py")
             if p != ROOT / "simcore" / "family" / "registry.py"] + [ROOT / "setup.py"]
    assert _module_lists(paths) == []
    toml = (ROOT / "pyproject.toml").read_text()
    assert not any(f'"{pkg}"' in toml for name in registry.names()
                   for pkg in registry.packages(name)), "pyproject.toml lists a family package"


def test_the_list_check_finds_a_copy(tmp_path):
    copy = tmp_path / "copy.py"
    game, bots = registry.packages(registry.names()[0])
    copy.write_text(f"PACKAGES = ({game!r}, {bots!r})\n")
    global ROOT
    root, ROOT = ROOT, tmp_path
    try:
        assert _module_lists([copy]) == ["copy.py:1"]
    finally:
        ROOT = root


@pytest.mark.parametrize("name", registry.names())
def test_every_family_is_in_the_readme_and_has_its_page(name):
    fam = registry.get(name)
    readme = (ROOT / "README.md").read_text()
    assert fam.NAME in readme, f"README.md does not name the {fam.NAME} family"
    assert (ROOT / "docs" / f"{fam.NAME}.md").is_file(), f"docs/{fam.NAME}.md is missing"


def test_a_score_column_that_is_not_a_round_column_is_refused_where_the_class_is_written():
    """Found by a contributor adding a game from the docs: a ``ROUND_SCORE0`` the round records
    do not have crashed the first ``run`` after its games were played; now the class itself
    says so."""
    from simcore.family.chunks import Simulator
    with pytest.raises(TypeError, match=r"Bad\.ROUND_SCORE0 = 'points0': not a column"):
        type("Bad", (Simulator,), {"ROUND_FIELDS": ("game", "winner"), "ROUND_SCORE0": "points0"})


def test_score_trajectories_start_at_zero_without_a_starting_score_key():
    """A game whose seats start at 0 points has no rule key for it: ``START_SCORE`` None."""
    import numpy as np
    from simcore.family.chunks import Batch, Simulator
    sim = type("Zero", (Simulator,), {"ROUND_FIELDS": ("game", "points0", "points1"),
                                      "ROUND_SCORE0": "points0"})
    rounds = np.array([[0, 1, 0], [0, 1, 1], [1, 0, 1]], np.int64)
    got = sim.trajectories(np.array([0, 1]), Batch(np.zeros((2, 1), np.int64), rounds),
                           {"players": [{}, {}]})
    assert got == [{"game": 0, "scores": [[0, 0], [1, 0], [1, 1]]},
                   {"game": 1, "scores": [[0, 0], [0, 1]]}]


_COLLECT = ["-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "--collect-only", "-q"]


@pytest.mark.second_tier  # collects every test module of both tiers: 15-35 s
def test_the_family_option_selects_one_familys_tests_of_both_tiers():
    """``pytest --family NAME`` (a family's author's command, docs/families.md step 11): its own
    folder, second tier included, and the harness's checks that name it; no other family's
    folder. (Collection only: nothing compiles.)"""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, *_COLLECT, "--family", "sparrow"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600).stdout
    ids = [line for line in out.splitlines() if "::" in line]
    assert any(i.startswith("tests/sparrow/") for i in ids)
    assert "tests/harness/test_conformance.py::test_every_registered_family_conforms[sparrow]" \
        in ids
    assert not any(i.startswith(("tests/emoji/", "tests/momojan/", "tests/ptrump/"))
                   for i in ids)


def test_an_unknown_family_option_is_a_usage_error():
    """``pytest --family nosuch`` stops before collecting, naming the families it knows."""
    import subprocess
    import sys
    bad = subprocess.run([sys.executable, *_COLLECT, "--family", "nosuch"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert bad.returncode != 0 and "--family nosuch: no such family" in bad.stderr

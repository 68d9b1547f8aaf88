"""numba's cache knows a function's own file only; the guard drops a family's cached machine
code when any source its kernels reach has changed (simcore.nb.cache_guard)."""

import shutil
from pathlib import Path

from simcore.nb import cache_guard


def _tree(tmp_path):
    """A copy of the layout the guard reads: simcore/<fam>, policies/<fam>, policies/*.py."""
    game = tmp_path / "pkg" / "simcore" / "fakefam"
    bots = tmp_path / "pkg" / "policies" / "fakefam"
    for d in (game / "__pycache__", bots / "__pycache__"):
        d.mkdir(parents=True)
    (game / "engine.py").write_text("x = 1\n")
    (bots / "bots.py").write_text("y = 1\n")
    (tmp_path / "pkg" / "policies" / "shared.py").write_text("z = 1\n")
    return game, bots


def test_a_changed_source_drops_the_cached_machine_code(tmp_path, monkeypatch):
    game, bots = _tree(tmp_path)
    monkeypatch.setattr(cache_guard, "_dirs", lambda package: [
        str(game), str(bots), str(bots.parent)])
    cached = [game / "__pycache__" / "engine.play-1.py311.nbi",
              bots / "__pycache__" / "bots.decide-2.py311.1.nbc"]
    for p in cached:
        p.write_bytes(b"code")
    assert cache_guard.check("simcore.fakefam") is False        # no digest yet: trusted
    assert all(p.exists() for p in cached)
    cache_guard._checked.clear()
    assert cache_guard.check("simcore.fakefam") is False        # unchanged
    assert all(p.exists() for p in cached)
    (bots.parent / "shared.py").write_text("z = 2\n")              # a shared bot module changed
    cache_guard._checked.clear()
    assert cache_guard.check("simcore.fakefam") is True
    assert not any(p.exists() for p in cached)
    assert (game / "engine.py").exists() and (game / "__pycache__" / cache_guard.MARKER).exists()


def test_a_checkout_moved_whole_keeps_its_cache(tmp_path, monkeypatch):
    """A newcomer's trial: the digest held each source's absolute path, so a checkout copied
    or moved whole (cp -a, mtimes kept: numba's own cache stays valid) had every family's
    machine code dropped at its first play, and precompile --check blamed the machine."""
    game, bots = _tree(tmp_path / "a")
    moved = tmp_path / "b"
    shutil.copytree(tmp_path / "a", moved)
    digests = []
    for root in (tmp_path / "a", moved):
        g, b = root / "pkg" / "simcore" / "fakefam", root / "pkg" / "policies" / "fakefam"
        monkeypatch.setattr(cache_guard, "_dirs", lambda package, g=g, b=b: [
            str(g), str(b), str(b.parent)])
        digests.append(cache_guard.sources_digest("simcore.fakefam"))
    assert digests[0] == digests[1]
    (moved / "pkg" / "policies" / "shared.py").write_text("z = 2\n")
    assert cache_guard.sources_digest("simcore.fakefam") != digests[0]


def test_the_guard_never_fails_a_run(tmp_path, monkeypatch):
    monkeypatch.setattr(cache_guard, "_dirs", lambda package: 1 / 0)
    cache_guard._checked.discard("simcore.broken")
    assert cache_guard.check("simcore.broken") is False
    assert cache_guard.check("fake_family") is False               # not a game package
    shutil.rmtree(tmp_path, ignore_errors=True)
    assert Path(cache_guard.__file__).exists()

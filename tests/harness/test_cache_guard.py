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


def test_the_guard_never_fails_a_run(tmp_path, monkeypatch):
    monkeypatch.setattr(cache_guard, "_dirs", lambda package: 1 / 0)
    cache_guard._checked.discard("simcore.broken")
    assert cache_guard.check("simcore.broken") is False
    assert cache_guard.check("fake_family") is False               # not a game package
    shutil.rmtree(tmp_path, ignore_errors=True)
    assert Path(cache_guard.__file__).exists()

"""The kernels compile ahead of their first use: at install (setup.py) and by hand
(``python -m simcore.precompile``). The wheel test (tests/harness/test_install.py) checks that an install
carries the compiled kernel and that its first run loads it."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from setuptools.errors import OptionError

from simcore import precompile
from simcore.family import registry as families
from simcore.family.scenario import files as scenario_files

REPO = Path(__file__).resolve().parents[2]


def _setup_module():
    spec = importlib.util.spec_from_file_location("momojan_setup", REPO / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: setup() does not run
    return module


@pytest.mark.parametrize("value, args", [(None, []), ("", []), ("default", []), ("all", ["--all"]),
                                         (" ALL ", ["--all"]), ("none", None)])
def test_install_precompile_choice(monkeypatch, value, args):
    if value is None:
        monkeypatch.delenv("MOMOJAN_SIM_PRECOMPILE", raising=False)
    else:
        monkeypatch.setenv("MOMOJAN_SIM_PRECOMPILE", value)
    assert _setup_module()._precompile_args() == args


def test_install_precompile_bad_value_is_named(monkeypatch):
    monkeypatch.setenv("MOMOJAN_SIM_PRECOMPILE", "yes")
    with pytest.raises(OptionError, match=r"MOMOJAN_SIM_PRECOMPILE='yes': expected one of "
                                          r"default, all, none"):
        _setup_module()._precompile_args()


def test_cold_families_names_those_not_cached(monkeypatch):
    fam = families.get("momojan")
    monkeypatch.setattr(precompile, "kernels_cached", lambda f: False)
    assert precompile.cold_families(["momojan"]) == [type(fam).__module__]
    monkeypatch.setattr(precompile, "kernels_cached", lambda f: True)
    assert precompile.cold_families(["momojan"]) == []


def _cached_in_child(code, path, cache):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=path, env={**os.environ, "NUMBA_CACHE_DIR": str(cache)}).stdout.split()


def test_kernels_cached_is_numbas_own_check(tmp_path):
    """Not a file's age: numba's index for this numba, source content and CPU."""
    (tmp_path / "kern.py").write_text("import numba\n\n@numba.njit(cache=True)\n"
                                      "def f(x):\n    return x + 1\n")
    check = ("import kern; from simcore.family.compiling import kernel_cached; "
             "print(kernel_cached(kern.f))")
    cache = tmp_path / "cache"
    assert _cached_in_child(check, tmp_path, cache) == ["False"]
    _cached_in_child("import kern; kern.f(1)", tmp_path, cache)   # compiles into the cache
    assert _cached_in_child(check, tmp_path, cache) == ["True"]
    os.utime(tmp_path / "kern.py", (2e9, 2e9))   # newer than its cache, the same content
    assert _cached_in_child(check, tmp_path, cache) == ["True"]
    with open(tmp_path / "kern.py", "a") as f:   # another content: numba would compile again
        f.write("# changed\n")
    assert _cached_in_child(check, tmp_path, cache) == ["False"]


def test_both_families_are_cold_in_an_empty_cache(tmp_path):
    code = ("from simcore.momojan.family import FAMILY as f; "
            "from simcore.ptrump.family import FAMILY as p; "
            "from simcore.family.compiling import kernels_cached; "
            "print(kernels_cached(f), kernels_cached(p))")
    assert _cached_in_child(code, Path.cwd(), tmp_path) == ["False", "False"]


def test_main_on_a_cached_family_compiles_nothing(monkeypatch, capsys):
    monkeypatch.setattr(precompile, "cold_families", lambda names: [])
    assert precompile.main(["momojan"]) == 0
    assert "already compiled" in capsys.readouterr().err


def test_main_check_compiles_nothing_and_says_what_is_cold(monkeypatch, capsys):
    monkeypatch.setattr(precompile, "cold_families",
                        lambda names: ["simcore.ptrump.family"] if "ptrump" in names else [])
    monkeypatch.setattr(precompile, "compile_families", lambda *a, **k: pytest.fail("compiled"))
    assert precompile.main(["--check", "momojan"]) == 0
    assert "already compiled" in capsys.readouterr().err
    assert precompile.main(["--check", "--all"]) == 1
    assert "ptrump: not compiled for this machine" in capsys.readouterr().err


def test_main_unknown_family_is_exit_2(capsys):
    assert precompile.main(["mahjong"]) == 2
    assert "unknown game family 'mahjong'" in capsys.readouterr().err
    assert precompile.main(["--all", "momojan"]) == 2
    assert "--all takes no family names" in capsys.readouterr().err
    assert precompile.main(["--fast"]) == 2
    assert "unknown option --fast" in capsys.readouterr().err


def test_a_failed_compile_is_said_not_raised(monkeypatch):
    said = []
    from simcore.family import compiling
    monkeypatch.setattr(compiling, "_python", lambda code, log: subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.exit('boom')"], stderr=log, text=True))
    assert precompile.compile_families(["simcore.momojan.family"], say=said.append) is False
    assert any("boom" in s for s in said)


def test_bundled_dir_without_the_package_mapping(monkeypatch):
    """The build compiles from a source tree where scenarios/ is not yet simcore.scenarios."""
    def missing(name):
        raise ModuleNotFoundError(name)
    monkeypatch.setattr(scenario_files.importlib.resources, "files", missing)
    assert scenario_files.bundled_dir() == REPO / "scenarios"


# --- the build hook (setup.py), with the build and the compile replaced ---

@pytest.fixture
def hook(monkeypatch, tmp_path):
    """(setup module, build command, list of (args, root, env) the compile was called with)."""
    from setuptools.dist import Distribution
    mod = _setup_module()
    monkeypatch.setattr(mod.build_py, "run", lambda self: None)
    calls = []
    monkeypatch.setattr(mod, "_run_compile", lambda args, root, env: calls.append(
        (args, root, env)) or 0)
    monkeypatch.delenv("MOMOJAN_SIM_PRECOMPILE", raising=False)
    monkeypatch.setattr(mod, "HERE", str(tmp_path / "src"))  # a source tree without a cache
    cmd = mod.BuildPyWithKernels(Distribution())
    cmd.build_lib = str(tmp_path / "build" / "lib")
    return mod, cmd, calls


def test_a_wheel_build_compiles_its_own_tree_afresh(hook, monkeypatch, tmp_path):
    mod, cmd, calls = hook
    old = tmp_path / "build" / "lib" / "simcore" / "__pycache__"
    old.mkdir(parents=True)
    for name in ("engine.play_games-1.py311.nbi", "engine.play_games-1.py311.1.nbc", "x.pyc"):
        (old / name).write_text("an earlier build's")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "users-cache"))
    cmd.run()
    [(args, root, env)] = calls
    assert args == [] and root == cmd.build_lib
    assert sorted(p.name for p in old.iterdir()) == ["x.pyc"]   # no cache of an earlier build
    assert "NUMBA_CACHE_DIR" not in env and env["PYTHONDONTWRITEBYTECODE"] == "1"
    assert env["PYTHONPATH"].split(os.pathsep)[0] == root


def _tree(root, numba_version="0.68.1", index_age=0.0):
    """A source tree with one module and its numba cache, the index ``index_age`` seconds older
    than the module (negative: newer)."""
    import pickle
    pkg = root / "simcore" / "momojan"
    (pkg / "__pycache__").mkdir(parents=True)
    (pkg / "engine.py").write_text("# a kernel\n")
    index = pkg / "__pycache__" / "engine.play_games-1.py311.nbi"
    index.write_bytes(pickle.dumps(numba_version) + b"entries")
    (pkg / "__pycache__" / "engine.play_games-1.py311.1.nbc").write_bytes(b"code")
    (pkg / "__pycache__" / "engine.cpython-311.pyc").write_bytes(b"bytecode")
    t = os.stat(pkg / "engine.py").st_mtime
    os.utime(index, (t - index_age, t - index_age))
    return root


@pytest.mark.parametrize("numba_version, index_age, reusable", [
    ("0.68.1", -5.0, True),    # written after the last source change, by the build's numba
    ("0.68.1", 5.0, False),    # a source changed after the compile: a callee may be stale
    ("0.60.0", -5.0, False),   # another numba wrote it
])
def test_which_source_cache_a_wheel_build_reuses(tmp_path, numba_version, index_age, reusable):
    mod = _setup_module()
    src = _tree(tmp_path / "src", numba_version, index_age)
    found = sorted(mod._reusable_cache(str(src), "0.68.1"))
    cache = os.path.join("simcore", "momojan", "__pycache__")
    assert found == ([os.path.join(cache, "engine.play_games-1.py311.1.nbc"),
                      os.path.join(cache, "engine.play_games-1.py311.nbi")] if reusable else [])
    assert mod._reusable_cache(str(src), None) == []   # no numba in the build: nothing to check


def test_a_wheel_build_starts_from_a_fresh_source_cache(hook, monkeypatch, tmp_path, capsys):
    mod, cmd, calls = hook
    src = _tree(tmp_path / "src", mod._numba_version(), index_age=-5)
    monkeypatch.setattr(mod, "HERE", str(src))
    (tmp_path / "build" / "lib" / "simcore" / "momojan").mkdir(parents=True)
    cmd.run()
    built = tmp_path / "build" / "lib" / "simcore" / "momojan" / "__pycache__"
    assert sorted(p.name for p in built.iterdir()) == ["engine.play_games-1.py311.1.nbc",
                                                       "engine.play_games-1.py311.nbi"]
    assert len(calls) == 1   # and the compile still runs: numba decides what is missing
    assert "fresh kernel cache (2 files)" in capsys.readouterr().err


def test_an_editable_build_compiles_the_source_tree(hook, monkeypatch, tmp_path):
    mod, cmd, calls = hook
    cmd.editable_mode = True
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "users-cache"))  # read at run time too
    monkeypatch.setenv("MOMOJAN_SIM_PRECOMPILE", "all")
    cmd.run()
    [(args, root, env)] = calls
    assert args == ["--all"] and root == str(tmp_path / "src")
    assert env["NUMBA_CACHE_DIR"] == str(tmp_path / "users-cache")


def test_precompile_none_builds_without_compiling(hook, monkeypatch):
    mod, cmd, calls = hook
    monkeypatch.setenv("MOMOJAN_SIM_PRECOMPILE", "none")
    cmd.run()
    assert calls == []


@pytest.mark.parametrize("status", [1, OSError("no python"), "stopped after 2400 s"])
def test_a_failed_compile_does_not_fail_the_build(hook, monkeypatch, capsys, status):
    mod, cmd, calls = hook
    monkeypatch.setattr(mod, "_run_compile", lambda args, root, env: status)
    cmd.run()   # does not raise
    assert f"the kernel compile did not finish ({status})" in capsys.readouterr().err


def test_a_hung_compile_is_stopped_with_its_children(monkeypatch, tmp_path):
    mod = _setup_module()
    monkeypatch.setattr(mod, "GUARD_S", 1)
    (tmp_path / "simcore").mkdir()
    # a stand-in for simcore.precompile that starts a child and hangs
    (tmp_path / "simcore" / "__init__.py").write_text("")
    (tmp_path / "simcore" / "precompile.py").write_text(
        "import subprocess, sys, time\n"
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(tmp_path / 'child.pid')!r}, 'w').write(str(p.pid))\n"
        "time.sleep(60)\n")
    env = mod._child_env(str(tmp_path), editable=False)
    assert mod._run_compile([], str(tmp_path), env) == "stopped after 1 s"
    pid = int((tmp_path / "child.pid").read_text())
    import time
    for _ in range(50):   # killed: gone, or a zombie until something reaps it
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            break
        if state in ("Z", "X"):
            break
        time.sleep(0.1)
    else:
        pytest.fail("the compile's child outlived the stop")


def test_a_compile_says_every_tick_that_it_is_still_running(monkeypatch):
    # issue 31 item 2: the test suite's and `python -m simcore.precompile`'s compile talks
    import subprocess
    import sys
    from simcore.family import compiling
    monkeypatch.setattr(compiling, "_python", lambda code, log: subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(0.65)"], stderr=log, text=True))
    said = []
    assert compiling._run_children([("m", "f")], said.append, 60, said.append, every=0.2)
    assert len(said) >= 2 and all(s.startswith("still compiling (") for s in said), said


def _scripted_compiles(monkeypatch, tmp_path, families, ends):
    """Run ``compile_families(families)`` with children that end when the test says: each is
    named h<family> (its helpers) or k<family> (its kernel), and they end one at a time in the
    order ``ends``, each once it runs. Returns (the children in the order they started, per
    child the children still running when it started, what was said)."""
    import subprocess
    import sys
    from simcore.family import compiling
    code = "import os, sys, time\nwhile not os.path.exists(sys.argv[1]): time.sleep(0.02)\n"
    launched, beside = [], {}

    def live():
        return [n for n in launched if not (tmp_path / n).exists()]

    procs = {}

    def launch(c, log):
        name = ("h" if "compile_helpers" in c else "k") + c.split("import_module('")[-1][0]
        beside[name] = live()
        launched.append(name)
        procs[name] = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / name)])
        return procs[name]
    monkeypatch.setattr(compiling, "_python", launch)
    order = iter(ends)
    real_sleep, clock = compiling.time.sleep, compiling.time.monotonic
    nxt, moved = [next(order)], [clock()]
    ending = [None, False]   # the child told to end; whether its end was seen a sleep ago

    def sleep(s):   # while children run: end the next of ``ends`` once it runs
        assert len(live()) <= 2
        # one child's end at a time, the next only once compile_families has seen it (it polls
        # between two sleeps): under load two children ending together would start whichever
        # task is ready after both, not the order the test means
        if ending[0] is not None:
            if ending[1]:
                ending[0] = None
            elif procs[ending[0]].poll() is not None:
                ending[1] = True
        if ending[0] is None and nxt[0] in live():
            (tmp_path / nxt[0]).touch()
            ending[:] = [nxt[0], False]
            nxt[0], moved[0] = next(order, None), clock()
        # a schedule that never starts the child ``ends`` waits for would wait for ever: fail
        # (generous: each step takes a child's start and end, well under a second idle)
        assert clock() - moved[0] < 300, f"{nxt[0]} never started: {launched}"
        real_sleep(s)
    monkeypatch.setattr(compiling.time, "sleep", sleep)
    said = []
    assert compiling.compile_families([f"{f}.family" for f in families], say=said.append)
    return launched, beside, said


def test_one_family_compiles_its_kernel_beside_its_helpers(monkeypatch, tmp_path):
    """Alone, a family's kernel and helpers start together (the natural order and the reversed
    plan meet in the middle: a core would idle otherwise)."""
    launched, beside, said = _scripted_compiles(monkeypatch, tmp_path, "a", ["ha", "ka"])
    assert launched == ["ha", "ka"] and beside["ka"] == ["ha"] and said == []


def test_families_compile_helpers_first_and_each_kernel_after_its_helpers(monkeypatch, tmp_path):
    """Several families: two compiles at a time, never more; the helpers of two families
    together, then each family's kernel once its helpers have ended, before the next family's
    helpers; a kernel never starts beside its own helpers late, when they are under way (it
    would compile again the helpers they have not reached): the slot waits."""
    launched, beside, said = _scripted_compiles(monkeypatch, tmp_path, "abc",
                                                ["ha", "ka", "hb", "kb", "hc", "kc"])
    assert launched == ["ha", "hb", "ka", "hc", "kb", "kc"]
    assert beside["hb"] == ["ha"] and beside["ka"] == ["hb"]   # a's kernel once a's helpers end
    assert beside["hc"] == ["hb"]          # b's kernel waits for b's helpers: c's helpers go first
    assert beside["kb"] == ["hc"] and beside["kc"] == []   # c's kernel waited, a core idle
    assert all(said.count(f"compiling {f}") == 1 for f in "abc")

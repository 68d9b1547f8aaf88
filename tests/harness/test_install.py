"""A non-editable install works from any directory (issue 7 item 8).

Bug: after ``pip install .`` (not ``-e``), ``momojan-sim run new_edition`` said "no such scenario
file or bundled scenario (bundled: )" from every directory, and ``waits``/``score`` failed with it,
since their default rules are ``new_edition``. The scenarios now ship as package data.

The wheel test builds a wheel from a copy of the checkout, installs it into a fresh virtual
environment (dependencies from the package index) and runs the CLI from a directory outside the
checkout. It is marked ``install`` and runs with the rest of the suite (CI runs it through
``.ci/run``); ``-m "not install"`` leaves it out. It is skipped, with the reason, only where a
virtual environment or the build and runtime dependencies cannot be had (no ensurepip, no index),
and never in CI: ``.ci/run`` sets ``MOMOJAN_REQUIRE_INSTALL_TEST=1``, which turns the skip into a
failure.
The wheel's build compiles the default family's kernel into numba's cache and the wheel carries
it (setup.py): the fresh environment's first run loads it instead of compiling. The build starts
from the checkout's cache when that is fresh (CI's: the editable install compiled it), and
compiles, against freshly resolved dependencies, whatever numba does not find there.
"""

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from simcore.family.compiling import kernels_cached

REPO = Path(__file__).resolve().parents[2]
# numba's cache files are copied, with their times (copytree's copy2): the build starts from them
# when they are fresh (setup.py), as a wheel built from this checkout would
COPY_IGNORE = shutil.ignore_patterns(".git", "*.pyc", "*.egg-info", "build", "dist", ".venv",
                                     "results", ".hypothesis", ".pytest_cache")
UNAVAILABLE = ("Could not find a version that satisfies", "No matching distribution found")
HANG_GUARD_S = 1800  # not a timing assertion: only stops a hung subprocess from hanging CI


def _cannot(reason):
    if os.environ.get("MOMOJAN_REQUIRE_INSTALL_TEST"):
        pytest.fail(f"the wheel install test must run here but cannot: {reason}")
    pytest.skip(reason)


def test_the_build_finds_every_package():
    """setup.py finds the packages (the scenarios mapping needs a list): every folder with an
    ``__init__.py`` under simcore/ and policies/, a new family's too, is in the wheel."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("momojan_setup", REPO / "setup.py")
    setup_py = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup_py)
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {".".join(p.parent.relative_to(REPO).parts)
             for top in ("simcore", "policies") for p in (REPO / top).rglob("__init__.py")}
    assert set(setup_py.packages()) == found | {"simcore.scenarios"}
    assert "packages" not in config
    assert config["package-dir"] == {"simcore.scenarios": "scenarios"}
    assert (REPO / "scenarios" / "__init__.py").is_file()


def _run(args, cwd, what, **extra_env):
    # as a user's shell: no cache dir or precompile choice of this test run's own, and Python
    # keeps the bytecode it compiles (PYTHONDONTWRITEBYTECODE, set in some sandboxes, made every
    # command here compile numba, scipy and the rest from source again: a 20-game run 6.8 -> 3.1 s)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "NUMBA_CACHE_DIR", "MOMOJAN_SIM_PRECOMPILE",
                        "PYTHONDONTWRITEBYTECODE")}
    proc = subprocess.run(args, cwd=cwd, env={**env, **extra_env}, capture_output=True, text=True,
                          timeout=HANG_GUARD_S)
    if proc.returncode != 0:
        output = proc.stdout + proc.stderr
        if what in ("build", "install") and any(u in output for u in UNAVAILABLE):
            _cannot(f"cannot {what} here (no package index with the dependencies): "
                    f"{output.strip().splitlines()[-1]}")
        pytest.fail(f"{what} failed ({' '.join(map(str, args))}):\n{output}")
    return proc


def _pip_version() -> tuple:
    from importlib.metadata import version
    return tuple(int(p) for p in version("pip").split(".")[:2] if p.isdigit())


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bin directory of a fresh venv holding the wheel, a working directory outside the checkout,
    whether the wheel carries the non-default family's kernel: the build started from a checkout
    cache that held it)."""
    if _pip_version() < (22, 3):  # the venv needs a pip of its own
        try:
            import ensurepip  # noqa: F401
        except ImportError:
            _cannot("this Python has no ensurepip, so `python3 -m venv` cannot make a fresh "
                    "venv with pip")
    root = tmp_path_factory.mktemp("wheel_install")
    src = root / "src"
    from simcore.ptrump.family import FAMILY as other   # the family the build does not compile by default
    other_in_checkout = kernels_cached(other)
    shutil.copytree(REPO, src, ignore=COPY_IGNORE)  # a clean copy: the shared checkout stays as is
    # -v: the build's own lines (setup.py's). No build isolation: the build requirements are
    # resolved in isolation by every `pip install -e` (.ci/run's own), and a fresh build
    # environment is 13 s of this test's time
    build = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v",
                  "-w", str(root / "dist"), str(src)], root, "build")
    reused = "source tree's fresh kernel cache" in build.stdout + build.stderr
    wheels = list((root / "dist").glob("momojan_sim-*.whl"))
    assert len(wheels) == 1, wheels
    bin_dir = root / "venv" / "bin"
    # --no-compile: no .pyc of every file of scipy, pyarrow and the rest at install (they
    # compile on import, as needed): 32 -> 13 s here
    install = ["install", "-q", "--no-compile", str(wheels[0])]
    if _pip_version() >= (22, 3):
        # this pip installs into a venv made without one (`pip --python`): ensurepip's
        # bootstrap of a pip the test never uses was 5-8 s
        _run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], root, "venv")
        _run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), *install], root,
             "install")
    else:
        _run([sys.executable, "-m", "venv", str(root / "venv")], root, "venv")
        _run([bin_dir / "python", "-m", "pip", *install], root, "install")
    shutil.rmtree(src)  # nothing of the checkout is left to fall back on
    work = root / "elsewhere"
    work.mkdir()
    return bin_dir, work, reused and other_in_checkout


# What the installed package says about itself, asked in one process of the venv (each is 1-2 s
# of imports): its bundled scenarios, compile plans and compiled kernels; then a first play,
# with numba saying what it loads from its cache and what it compiles and saves.
PROBE = """
import json
from simcore.family.compiling import kernels_cached, play_for_compile
from simcore.momojan import scenario
from simcore.momojan.family import FAMILY as f; from simcore.ptrump.family import FAMILY as p
from simcore.nb.compile_plan import load_plan
facts = dict(bundled_dir=str(scenario.BUNDLED_DIR), bundled=scenario.bundled_names(),
             plans=[len(load_plan("simcore.momojan")), len(load_plan("simcore.ptrump"))],
             cached=[kernels_cached(f), kernels_cached(p)])
print("[probe] first play", flush=True)
play_for_compile(f)
print(json.dumps(facts))
"""


@pytest.fixture(scope="module")
def probe(installed):
    """(the facts, numba's cache log of the first play)."""
    bin_dir, work, _ = installed
    out = _run([bin_dir / "python", "-c", PROBE], work, "python", NUMBA_DEBUG_CACHE="1").stdout
    lines = out.strip().splitlines()
    play = lines[[i for i, ln in enumerate(lines) if ln == "[probe] first play"][0]:-1]
    return json.loads(lines[-1]), "\n".join(play)


@pytest.mark.install
def test_wheel_holds_the_scenarios_as_package_data(installed, probe):
    bin_dir = installed[0]
    facts = probe[0]
    assert Path(facts["bundled_dir"]).is_relative_to(bin_dir.parent), facts  # the venv's
    from simcore.family.registry import family_name_of   # the folder holds every family's files
    assert facts["bundled"] == sorted(p.stem for p in (REPO / "scenarios").glob("*.yaml")
                                      if family_name_of(p) == "momojan")


@pytest.mark.install
def test_wheel_holds_the_compile_plan(probe):
    assert min(probe[0]["plans"]) > 50  # compile_plan.py: a cold start's compile shared by 2 workers


@pytest.mark.install
def test_wheel_carries_the_compiled_kernel(installed, probe):
    """The build compiled the default family's kernel (setup.py), or started from the checkout's
    fresh cache; numba's own check says the installed cache holds it for this machine. The other
    family is there only if it came with the checkout's cache, else it compiles on first use."""
    other_carried = installed[2]
    facts, play_log = probe
    assert facts["cached"] == [True, other_carried]
    # and numba loads it: nothing is compiled into the cache on a first play
    assert "[cache] data loaded from" in play_log and "[cache] data saved to" not in play_log


@pytest.mark.install
def test_wheel_runs_a_bundled_scenario_by_name(installed):
    bin_dir, work, _ = installed
    proc = _run([bin_dir / "momojan-sim", "run", "new_edition", "--games", "20", "--json"], work,
                "run")
    summary = json.loads(proc.stdout)
    assert summary["scenario"] == "new_edition" and summary["games"] == 20
    from simcore.cli.common import COMPILE_NOTE
    assert COMPILE_NOTE not in proc.stderr   # the first run after the install did not compile


@pytest.mark.install
def test_wheel_waits_and_score_with_their_default_rules(installed):
    bin_dir, work, _ = installed
    waits = json.loads(_run([bin_dir / "momojan-sim", "waits", "--json",
                             "kai:111z chi:789o 23o 44z 123l"], work, "waits").stdout)
    assert waits["waits"] == ["1m", "4m", "1o", "4o"]
    score = json.loads(_run([bin_dir / "momojan-sim", "score", "kai:111z kai:456o chi:789o 23o 44z",
                             "--win", "1o", "--by", "ron", "--json"], work, "score").stdout)
    assert score["valid"] is True


@pytest.mark.install
def test_wheel_lists_and_shows_scenarios(installed):
    bin_dir, work, _ = installed
    listing = _run([bin_dir / "momojan-sim", "scenarios"], work, "scenarios").stdout
    assert "old_edition" in listing and "new_edition" in listing
    _run([bin_dir / "momojan-sim", "validate", "old_edition"], work, "validate")


@pytest.mark.install
def test_wheel_runs_mechanics_and_a_search_seat(installed):
    """Issue 51's commands from the installed package, outside the checkout: ``mechanics`` on
    the kernel the build compiled, and a run with a ``search`` seat, whose kernel compiles once
    in a child process that says so (the wheel's own modules, paths and interpreter)."""
    bin_dir, work, _ = installed
    res = json.loads(_run([bin_dir / "momojan-sim", "mechanics", "new_edition", "--games", "4",
                           "--json", "--quiet"], work, "mechanics").stdout)
    assert {r["mechanic"] for r in res["mechanics"]} >= {"never_riichi", "never_ron"}
    # cold, whatever the build carried from the checkout's cache (CI's had compiled it)
    package = list(bin_dir.parent.glob("lib/python*/site-packages/simcore/momojan"))
    assert len(package) == 1, package
    for cached in (package[0] / "__pycache__").glob("search.*"):
        cached.unlink()
    proc = _run([bin_dir / "momojan-sim", "run", "new_edition", "--players", "search,value",
                 "--games", "2", "--json", "--no-save"], work, "run --players search")
    assert json.loads(proc.stdout)["games"] == 2
    assert "compiling the search bot's kernel" in proc.stderr

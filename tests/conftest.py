import importlib
import os
import subprocess
import sys
import tempfile
import time

import pytest
from hypothesis import settings

sys.path.insert(0, os.path.dirname(__file__))  # tests/handgen.py

# Commands a test runs without --out write their result directories to a scratch folder, not into
# the checkout's results/ (subprocesses inherit it).
# (pytest-xdist workers inherit the controller's; simcore.results.default_dir claims each
# directory with os.mkdir, so runs started in the same second by two workers do not collide.)
if "MOMOJAN_SIM_RESULTS" not in os.environ:
    os.environ["MOMOJAN_SIM_RESULTS"] = tempfile.mkdtemp(prefix="momojan-test-results-")

# No per-example deadline anywhere (a first call may compile a kernel; CI machines are shared),
# and under CI the examples are derived from the test itself, so a submission's result does not
# depend on which random examples a run drew. Locally hypothesis keeps exploring new examples.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

_COMPILE_SHARE = []


def _cold_families():
    from simcore import families
    fams = [families.get(name) for name in families.names()]
    return [f.__name__ for f in fams if hasattr(f, "compile_helpers") and not f.kernels_cached()]


COMPILE_GUARD_S = 1800  # not a timing assertion: only stops a hung compile from hanging the suite


def _python(code, stderr):
    return subprocess.Popen([sys.executable, "-c", "import importlib\n" + code],
                            stdout=subprocess.DEVNULL, stderr=stderr, text=True)


def _compile_shared(cold):
    """Two families share modules (``simcore.rng``): compile their functions here, every
    signature, before the families compile side by side (:func:`simcore.compile_plan.compile_shared`:
    numba's cache index is not locked)."""
    if len(cold) > 1:
        from simcore.compile_plan import compile_shared
        compile_shared([importlib.import_module(name).__package__ for name in cold])


def _compile_before_the_workers(cold):
    """Under pytest-xdist every worker would compile the same kernels at once (twice the CPU):
    the controller compiles them first, one process per cold family (two families, two cores),
    or a family's kernel beside its helpers (simcore/compile_plan.py) when only one is cold."""
    if len(cold) == 1:
        codes = [f"importlib.import_module({cold[0]!r}).compile_helpers()\n",
                 f"importlib.import_module({cold[0]!r}).play_for_compile()\n"]
    else:
        codes = [f"importlib.import_module({name!r}).play_for_compile()\n" for name in cold]
    print(f"\nconftest: cold numba cache: compiling {', '.join(cold)} before the workers start",
          file=sys.stderr, flush=True)
    start = time.monotonic()
    _compile_shared(cold)
    logs = [tempfile.TemporaryFile("w+") for _ in codes]
    procs = []
    try:
        procs = [_python(code, log) for code, log in zip(codes, logs)]
        for proc, log in zip(procs, logs):
            try:
                status = proc.wait(timeout=COMPILE_GUARD_S)
            except subprocess.TimeoutExpired:
                print(f"conftest: a compile process ran {COMPILE_GUARD_S} s: stopped (the workers "
                      f"compile what is missing)", file=sys.stderr)
                break
            if status != 0:  # the tests then fail where it failed
                log.seek(0)
                print(f"conftest: the compile process failed:\n{log.read()}", file=sys.stderr)
    finally:  # interrupted, or hung: no compile outlives the session
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for log in logs:
            log.close()
    print(f"conftest: compiled in {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)


def _distributed(config):
    """Whether pytest-xdist will start workers (``-n N`` with N >= 1, not ``--collect-only``)."""
    return (config.pluginmanager.getplugin("dsession") is not None
            and not config.option.collectonly)


def pytest_sessionstart(session):
    """On a cold numba cache (a fresh clone: CI) the kernels' compile is shared out. Run alone,
    a background process compiles every family's kernel helpers into the cache
    (simcore/compile_plan.py, as a second worker does for `run`), and the tests' first kernel
    compiles load them instead of compiling them. Under pytest-xdist (``-n``) the controller
    compiles the kernels before its workers start, and the workers do nothing here."""
    if hasattr(session.config, "workerinput"):
        return
    cold = _cold_families()
    if not cold:
        return
    if _distributed(session.config):
        _compile_before_the_workers(cold)
    else:
        _compile_shared(cold)
        _COMPILE_SHARE.append(_python("".join(
            f"importlib.import_module({name!r}).compile_helpers()\n" for name in cold),
            subprocess.DEVNULL))


def pytest_sessionfinish(session, exitstatus):
    for p in _COMPILE_SHARE:
        if p.poll() is None:
            p.kill()
        p.wait()


from simcore.momojan.hand import HandAnalyzer  # noqa: E402
from simcore.momojan.shapes import NEW_EDITION, OLD_EDITION  # noqa: E402

EDITIONS = {"new": NEW_EDITION, "old": OLD_EDITION}


@pytest.fixture(scope="session", params=sorted(EDITIONS))
def analyzer(request):
    """One analyzer per edition for the whole session (tables are built once)."""
    return _analyzer(request.param)


_CACHE = {}


def _analyzer(name):
    if name not in _CACHE:
        _CACHE[name] = HandAnalyzer(EDITIONS[name])
    return _CACHE[name]


@pytest.fixture(scope="session")
def new_analyzer():
    return _analyzer("new")


@pytest.fixture(scope="session")
def old_analyzer():
    return _analyzer("old")

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
os.environ.setdefault("MOMOJAN_SIM_RESULTS", tempfile.mkdtemp(prefix="momojan-test-results-"))

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


def _python(code, stderr):
    return subprocess.Popen([sys.executable, "-c", "import importlib\n" + code],
                            stdout=subprocess.DEVNULL, stderr=stderr, text=True)


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
    procs = [_python(code, subprocess.PIPE) for code in codes]
    for proc in procs:
        _, err = proc.communicate()
        if proc.returncode != 0:  # the tests will compile and fail in the same place, said there
            print(f"conftest: the compile process failed:\n{err}", file=sys.stderr)
    print(f"conftest: compiled in {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)


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
    if getattr(session.config.option, "numprocesses", None):
        _compile_before_the_workers(cold)
    else:
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

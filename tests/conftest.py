import os
import sys
import tempfile

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


def pytest_sessionstart(session):
    """On a cold numba cache (a fresh clone: CI), a background process compiles every family's
    kernel helpers into the cache (simcore/compile_plan.py, as a second worker does for `run`),
    and the tests' first kernel compiles load them instead of compiling them."""
    import subprocess
    from simcore import families
    fams = [families.get(name) for name in families.names()]
    cold = [f.__name__ for f in fams if hasattr(f, "compile_helpers") and not f.kernels_cached()]
    if cold:
        code = "import importlib\n" + "".join(
            f"importlib.import_module({name!r}).compile_helpers()\n" for name in cold)
        _COMPILE_SHARE.append(subprocess.Popen([sys.executable, "-c", code],
                                               stdout=subprocess.DEVNULL,
                                               stderr=subprocess.DEVNULL))


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

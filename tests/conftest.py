import os
from pathlib import Path
import sys
import tempfile
import time

import pytest
from hypothesis import settings

from simcore import precompile

sys.path.insert(0, os.path.dirname(__file__))  # tests/handgen.py

# Commands a test runs without --out write their result directories to a scratch folder, not into
# the checkout's results/ (subprocesses inherit it).
# (pytest-xdist workers inherit the controller's; simcore.studies.results.default_dir claims each
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


def _compile_before_the_workers(cold):
    """Under pytest-xdist every worker would compile the same kernels at once (twice the CPU):
    the controller compiles them first (simcore/precompile.py: one process per cold family, or a
    family's kernel beside its helpers when only one is cold)."""
    print(f"\nconftest: cold numba cache: compiling {', '.join(cold)} before the workers start",
          file=sys.stderr, flush=True)
    start = time.monotonic()
    # a failed or hung compile is said here; the tests then fail where it failed
    precompile.compile_families(cold, say=lambda text: print(f"conftest: {text}", file=sys.stderr))
    print(f"conftest: compiled in {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)


def _distributed(config):
    """Whether pytest-xdist will start workers (``-n N`` with N >= 1, not ``--collect-only``)."""
    return (config.pluginmanager.getplugin("dsession") is not None
            and not config.option.collectonly)


def pytest_sessionstart(session):
    """On a cold numba cache (a fresh clone: CI) the kernels' compile is shared out. Run alone,
    a background process compiles every family's kernel helpers into the cache
    (simcore/nb/compile_plan.py, as a second worker does for `run`), and the tests' first kernel
    compiles load them instead of compiling them. Under pytest-xdist (``-n``) the controller
    compiles the kernels before its workers start, and the workers do nothing here."""
    if hasattr(session.config, "workerinput"):
        return
    cold = precompile.cold_families()
    if not cold:
        return
    if _distributed(session.config):
        _compile_before_the_workers(cold)
    else:
        precompile.compile_shared(cold)
        _COMPILE_SHARE.append(precompile.start_helper_compile(cold))


# The files that keep a worker busy longest (seconds of one worker, fresh-clone CI, 2 cores),
# longest first: under pytest-xdist's --dist loadfile a file runs in one worker, so they start
# first and the short files fill in around them, the shortest last. (xdist's own order, most
# tests first, started the wheel install and the Ray cluster last.)
LONGEST_FIRST = ("harness/test_compare.py", "harness/test_install.py", "harness/test_ray.py",
                 "harness/test_interrupt.py", "momojan/test_shanten.py",
                 "ptrump/test_engine.py", "harness/test_resume.py", "momojan/test_hand_random.py",
                 "harness/test_report.py", "momojan/test_engine.py", "ptrump/test_model.py",
                 "harness/test_precompile.py", "ptrump/test_hand.py",
                 "harness/test_yaml_loading.py", "harness/test_bench_suite.py",
                 "momojan/test_policies.py", "momojan/test_hand_small.py",
                 "harness/test_cli_commands.py", "harness/test_results.py")


def pytest_configure(config):
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False   # keep the order below


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    here = Path(__file__).resolve().parent
    items.sort(key=lambda item: rank.get(item.path.resolve().relative_to(here).as_posix(),
                                         len(rank)))  # stable: files stay whole


def pytest_sessionfinish(session, exitstatus):
    for p in _COMPILE_SHARE:
        if p.poll() is None:
            p.kill()
        p.wait()


from simcore.momojan.shapes import NEW_EDITION, OLD_EDITION  # noqa: E402
from simcore.momojan.tables import HandAnalyzer  # noqa: E402

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

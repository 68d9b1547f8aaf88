import functools
import os
from pathlib import Path
import re
import sys
import tempfile
import threading
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

# Two tiers. The quick one (the README's test command, the default) covers the harness and the
# default family, MOMOJAN: it compiles one kernel and passes in about three minutes from a fresh
# clone. The second tier (`--tier second`; `.ci/run` runs both) covers the other families, the
# long statistical coverage studies, the wheel install, a real Ray cluster and the browser.
# A test is in the second tier when it carries one of these marks, lives in another family's
# folder (tests/emoji/...), names another family in its parameters, or says which families it
# plays with @pytest.mark.plays("emoji", ...).
SECOND_TIER_MARKS = ("second_tier", "slow", "install", "ray", "browser")
# The random differential runs of MOMOJAN's hand kernels run in both tiers: the quick tier on
# 10,000 hands per size and edition, the second on 30,000 (MOMOJAN_DIFF_HANDS sets either).
BOTH_TIERS = ("momojan/test_hand_random.py", "momojan/test_shanten.py")
QUICK_DIFF_HANDS = "10000"
TIERS = ("quick", "second", "all")


def pytest_addoption(parser):
    parser.addoption("--tier", choices=TIERS, default="quick",
                     help="quick (default): the harness and MOMOJAN, one kernel to compile, "
                          "about 3 minutes from a fresh clone; second: the other families, the "
                          "statistical coverage studies, the wheel install, Ray and the browser; "
                          "all: both")
    parser.addoption("--family", default=None, metavar="NAME",
                     help="only the tests that play family NAME (its folder tests/NAME/, and "
                          "every test whose parameters or plays mark name it, of either tier), "
                          "compiling that family alone: a new family's own command")


TESTS = Path(__file__).resolve().parent   # this folder: tests/<family>/ hold a family's own


@functools.cache
def _other_families() -> tuple:
    from simcore.family import registry
    return tuple(name for name in registry.names() if name != registry.DEFAULT)


def families_named(item) -> set:
    """Every family a collected test plays or checks (the default one included): its folder
    (tests/<family>/), the words of its parameters, its ``plays`` mark (``--family``)."""
    from simcore.family import registry
    names = set(registry.names())
    try:
        top = item.path.resolve().relative_to(TESTS).parts[0]
    except ValueError:
        top = ""
    found = {top} & names
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        text = callspec.id + " " + " ".join(str(v) for v in callspec.params.values()
                                            if isinstance(v, (str, Path)))
        words = re.split(r"[^a-z0-9]+", text.lower())
        found |= {name for name in names if any(w.startswith(name) for w in words)}
    for mark in item.iter_markers("plays"):
        found |= set(mark.args) & names
    return found


def families_played(item) -> set:
    """The non-default families a collected test plays, as far as its folder, parameters and
    ``plays`` mark say."""
    return families_named(item) & set(_other_families())


def pytest_ignore_collect(collection_path, config):
    """The quick tier does not even import another family's test folder (tests/emoji/...):
    each xdist worker would spend seconds collecting tests it then deselects, beside the
    compile. ``--family NAME`` leaves out every other family's folder."""
    if collection_path.parent.resolve() != TESTS:
        return None
    family = _family(config)
    if family is not None:
        from simcore.family import registry
        return True if collection_path.name in registry.names() and \
            collection_path.name != family else None
    if _tier(config) != "quick":
        return None
    if collection_path.name in _other_families():
        return True
    return None


def tier_of(item) -> str:
    """"quick", "second" or "both"."""
    if any(item.get_closest_marker(m) for m in SECOND_TIER_MARKS) or families_played(item):
        return "second"
    try:
        if item.path.resolve().relative_to(TESTS).as_posix() in BOTH_TIERS:
            return "both"
    except ValueError:
        pass
    return "quick"


def _tier(config) -> str:
    return config.getoption("--tier")


def _family(config):
    return config.getoption("--family")


def _families_to_compile(config) -> list:
    """The families whose kernels the chosen tests play: MOMOJAN alone in the quick tier, the
    one named by ``--family``."""
    from simcore.family import registry
    if _family(config) is not None:
        return [_family(config)]
    return [registry.DEFAULT] if _tier(config) == "quick" else registry.names()


def _compile_first(config):
    """On a cold numba cache (a fresh clone: CI) the kernels the tier plays compile before any
    test runs, two compiles at a time in the families' order (a family's kernel beside its
    helpers, then the next family's helpers beside it: simcore/precompile.py), rather than in
    every xdist worker at once or in several families' compiles fighting over the cores. The
    compile starts at once; the xdist workers start and collect meanwhile, and no test runs
    before it ends (:func:`pytest_runtestloop`)."""
    cold = precompile.cold_families(_families_to_compile(config))
    if not cold:
        return
    print(f"\nconftest: cold numba cache: compiling "
          f"{', '.join(name.split('.')[-2] for name in cold)}, two compiles at a time",
          file=sys.stderr, flush=True)
    start = time.monotonic()

    def compile_them():
        # a failed or hung compile is said here; the tests then fail where it failed
        precompile.compile_families(cold, say=lambda text: print(f"conftest: {text}",
                                                                  file=sys.stderr, flush=True))
        print(f"conftest: compiled in {time.monotonic() - start:.0f} s", file=sys.stderr,
              flush=True)
    thread = threading.Thread(target=compile_them, name="conftest-compile", daemon=True)
    thread.start()
    _COMPILING.append(thread)


_COLD_AT_START = []
_COMPILING = []


def pytest_sessionstart(session):
    if hasattr(session.config, "workerinput") or session.config.option.collectonly:
        return
    if _tier(session.config) == "quick" and _family(session.config) is None:
        # what the quick tier must not compile (see the end)
        _COLD_AT_START.extend(precompile.cold_families(_other_families()))
    _compile_first(session.config)


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    """No test before the kernels are compiled (the workers have collected meanwhile)."""
    while _COMPILING:
        _COMPILING.pop().join()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if hasattr(config, "workerinput"):
        return
    tier = _tier(config)
    if _family(config) is not None:
        terminalreporter.write_line(f"family {_family(config)}: the tests that play or check it, "
                                    f"of both tiers.")
    elif tier == "quick":
        terminalreporter.write_line(
            "tier quick: the harness and MOMOJAN. `python3 -m pytest -n auto --dist loadfile -rs "
            "--tier second` runs the rest: the other families, the statistical coverage studies, "
            "the wheel install, Ray and the browser.")
        for name in _families_asked(config):
            terminalreporter.write_line(
                f"tests/{name}: another family's tests, left out of the quick tier: "
                f"`python3 -m pytest -rs --family {name}` runs them (docs/families.md, step 11).")
    elif tier == "second":
        terminalreporter.write_line("tier second: the other families, the statistical coverage "
                                    "studies, the wheel install, Ray and the browser.")


def _families_asked(config) -> list:
    """The non-default families whose test folders the command line names (``tests/sparrow``,
    ``tests/sparrow/test_engine.py``): the quick tier runs none of their tests."""
    out = []
    for arg in config.args:
        try:
            rel = Path(arg.split("::")[0]).resolve().relative_to(TESTS)
        except ValueError:
            continue
        if rel.parts and rel.parts[0] in _other_families() and rel.parts[0] not in out:
            out.append(rel.parts[0])
    return out


def pytest_sessionfinish(session, exitstatus):
    """The quick tier compiles one family: a test that played another family (its kernel cold at
    the start, cached now) belongs in the second tier; say which, and fail."""
    if hasattr(session.config, "workerinput") or not _COLD_AT_START:
        return
    compiled = [m for m in _COLD_AT_START if m not in precompile.cold_families(_other_families())]
    if compiled:
        names = ", ".join(m.split(".")[-2] for m in compiled)
        print(f"\nconftest: the quick tier compiled the {names} kernel: a test in it plays "
              f"{names}; mark it @pytest.mark.plays({names.split(', ')[0]!r})", file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# The files that keep a worker busy longest (seconds of one worker, fresh-clone CI, 2 cores),
# longest first: under pytest-xdist's --dist loadfile a file runs in one worker, so they start
# first and the short files fill in around them, the shortest last. (xdist's own order, most
# tests first, started the wheel install and the Ray cluster last.)
LONGEST_FIRST = ("harness/test_conformance.py", "harness/test_compare.py",
                 "harness/test_install.py", "harness/test_ray.py",
                 "harness/test_interrupt.py", "momojan/test_shanten.py",
                 "ptrump/test_engine.py", "harness/test_resume.py", "momojan/test_hand_random.py",
                 "harness/test_report.py", "momojan/test_engine.py", "ptrump/test_model.py",
                 "harness/test_precompile.py", "ptrump/test_hand.py",
                 "harness/test_yaml_loading.py", "harness/test_bench_suite.py",
                 "momojan/test_policies.py", "momojan/test_hand_small.py",
                 "harness/test_cli_commands.py", "harness/test_results.py")


def pytest_configure(config):
    family = _family(config)
    if family is not None:
        from simcore.family import registry
        if family not in registry.names():
            raise pytest.UsageError(f"--family {family}: no such family (known: "
                                    f"{', '.join(registry.names())})")
    elif _tier(config) == "quick":   # before the test modules read it
        os.environ.setdefault("MOMOJAN_DIFF_HANDS", QUICK_DIFF_HANDS)
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False   # keep the order below


def pytest_collection_modifyitems(session, config, items):
    tier = _tier(config)
    family = _family(config)
    if family is not None or tier != "all":
        runs = {id(item): family in families_named(item) if family is not None
                else tier_of(item) in (tier, "both") for item in items}
        keep = [item for item in items if runs[id(item)]]
        dropped = [item for item in items if not runs[id(item)]]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = keep
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.resolve().relative_to(TESTS).as_posix(),
                                         len(rank)))  # stable: files stay whole


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

"""A cold start's compile shared by two workers (simcore/nb/compile_plan.py): the shipped plan
matches the code (its kernel signatures cheaply here; every entry against a fresh compile in the
second tier), a second worker compiles it in the intended order, and run_study asks for it
only on a cold cache with two or more local workers."""

import importlib
import subprocess
import sys

import pytest

from simcore.family.compiling import (compile_helpers_for_run, has_compile_plan, kernels_cached,
                                      play_for_compile)
from simcore.momojan.family import FAMILY as family
from simcore.nb import compile_plan


def _compiling_families():
    from simcore.family import registry
    return [(name, registry.get(name)) for name in registry.names()
            if has_compile_plan(registry.get(name))]


@pytest.mark.parametrize("name,fam", _compiling_families(), ids=lambda v: v if isinstance(v, str) else "")
def test_the_shipped_kernel_signatures_are_the_types_the_code_passes(name, fam):
    """The plan's kernel entries (what ``kernels_cached`` looks up) are the signatures a play
    of the default scenario compiles or loads today: whatever this machine's cache holds, the
    dispatcher knows only what this process gave it. (A stale plan would say "cold" forever.)"""
    play_for_compile(fam)
    package = importlib.import_module(fam.KERNEL_FUNCTIONS[0].rpartition(".")[0]).__package__
    shipped = compile_plan.kernel_entries(package)
    assert {f"{m}.{q}" for m, q, _ in shipped} == set(fam.KERNEL_FUNCTIONS), \
        f"run python -m simcore.family.compiling write {package}"
    games_loop = fam.KERNEL_FUNCTIONS[0]
    for module, qualname, argtypes in shipped:
        if f"{module}.{qualname}" == games_loop:   # the round loop is inside it: not dispatched
            disp = compile_plan.dispatcher(module, qualname)
            assert tuple(argtypes) in disp.signatures, (
                f"{games_loop} is played with other types than the plan's: run python -m "
                f"simcore.family.compiling write {package}")
    assert kernels_cached(fam)   # just played: numba's cache holds it for these types


@pytest.mark.second_tier
@pytest.mark.parametrize("name,fam", _compiling_families(), ids=lambda v: v if isinstance(v, str) else "")
def test_the_shipped_plan_is_what_a_fresh_compile_compiles(name, fam):
    """Every helper and kernel entry of the shipped plan, against a natural compile in a fresh
    cache (about a minute of one core a family): ``python -m simcore.family.compiling check``."""
    package = importlib.import_module(fam.KERNEL_FUNCTIONS[0].rpartition(".")[0]).__package__
    plan = compile_plan.load_plan(package)
    # a real plan (compiling.write keeps none of fewer than 10 functions; Sparrow's has 23)
    assert len(plan) >= 10 and not {f"{m}.{q}" for m, q, _ in plan} & set(fam.KERNEL_FUNCTIONS)
    done = subprocess.run([sys.executable, "-m", "simcore.family.compiling", "check", package],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_the_second_worker_compiles_the_named_subtree_first_then_last_needed_first(monkeypatch):
    plan = [("m", "a", ()), ("m", "b", ()), ("m", "c", ()), ("m", "d", ())]
    seen = []

    class Disp:
        def __init__(self, name):
            self.name = name

        def compile(self, sig):
            seen.append(self.name)
            if self.name == "c":
                raise TypeError("types that no longer compile are skipped")

    monkeypatch.setattr(compile_plan, "load_plan", lambda package: plan)
    monkeypatch.setattr(compile_plan, "dispatcher", lambda m, q: Disp(q) if q != "a" else None)
    assert compile_plan.compile_reversed("x", first=("m.b",)) == 2   # b, d (c failed, a gone)
    assert seen == ["b", "d", "c"]


def test_no_plan_means_no_work():
    assert compile_plan.load_plan("simcore.runners") == []
    assert compile_plan.compile_reversed("simcore.runners") == 0


class _NoJobs:
    """A runner factory's stand-in that cannot give a worker a job (like Ray's): plays in this
    process, records its size and its jobs."""
    made = []

    def __init__(self, workers):
        self.workers, self.jobs = workers, []
        _NoJobs.made.append(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def map(self, fn, tasks, progress=None):
        for t in tasks:
            r = fn(t)
            if progress:
                progress(t, r)
            yield r


class _Runner(_NoJobs):
    def start_job(self, worker, fn, arg=None):
        self.jobs.append((worker, fn))
        return True


# (cached, --workers, games, cores) -> (processes, helper jobs), chunks of 100 games. A cold
# run of one chunk still gets a helper process unless one worker was asked for or there is one core.
@pytest.mark.parametrize("cached,workers,games,cores,expected", [
    (False, 2, 200, 2, (2, 1)), (True, 2, 200, 2, (2, 0)), (False, 1, 200, 2, (1, 0)),
    (False, 0, 100, 2, (2, 1)), (False, 2, 100, 2, (2, 1)), (True, 0, 100, 2, (1, 0)),
    (False, 0, 100, 1, (1, 0)), (False, 1, 100, 2, (1, 0))])
def test_run_study_shares_only_a_cold_compile(monkeypatch, cached, workers, games, cores, expected):
    from simcore.momojan import scenario
    from simcore.studies import study
    monkeypatch.setattr(study, "kernels_cached", lambda fam: cached)
    monkeypatch.setattr(study, "usable_cores", lambda: cores)
    monkeypatch.setattr("simcore.runners.local.usable_cores", lambda: cores)
    _NoJobs.made = []
    res = study.run_study(family, [scenario.load("new_edition")], 1, games, workers,
                          chunk_games=100, runner=_Runner)
    assert res.games == games
    (runner,) = _NoJobs.made
    assert (runner.workers, len(runner.jobs)) == expected
    if runner.jobs:
        worker, job = runner.jobs[0]
        assert worker == runner.workers - 1
        assert job.func is compile_helpers_for_run and job.args == (family,)


@pytest.mark.parametrize("games,expected", [(200, (2, 1)), (100, (1, 0))])
def test_a_factory_not_known_to_take_jobs_gets_the_helper_only_with_two_workers(monkeypatch, games,
                                                                              expected):
    """A factory that is not the runner class (a function, a warm pool handing out a runner):
    its runners still get the job when they have two workers, and a run of one chunk is not
    given a second process it may not know what to do with."""
    from simcore.momojan import scenario
    from simcore.studies import study
    monkeypatch.setattr(study, "kernels_cached", lambda fam: False)
    monkeypatch.setattr(study, "usable_cores", lambda: 2)
    monkeypatch.setattr("simcore.runners.local.usable_cores", lambda: 2)
    for factory, jobs in ((lambda n: _Runner(n), expected[1]), (_NoJobs, 0)):
        _NoJobs.made = []
        study.run_study(family, [scenario.load("new_edition")], 1, games, 2, chunk_games=100,
                        runner=factory)
        (runner,) = _NoJobs.made
        assert (runner.workers, len(runner.jobs)) == (expected[0], jobs)


@pytest.mark.parametrize("workers", [0, 1, 2])
def test_the_plan_warm_up_keeps_the_worker_count_asked_for(monkeypatch, workers):
    """``plan``'s warm-up: --workers 1 means no helper process on a cold cache either."""
    from simcore.momojan import scenario
    from simcore.studies import plan
    seen = []

    class Stop(Exception):
        pass

    def fake_run_study(fam, scenarios, seed, games, w, **kw):
        seen.append(w)
        raise Stop

    monkeypatch.setattr(plan, "run_study", fake_run_study)
    with pytest.raises(Stop):
        plan.plan_games(family, [scenario.load("new_edition")], family.CATALOGUE[0].name, 0.01,
                        0.8, 0.05, 100, 1, workers)
    assert seen == [workers]


def _helper_job(monkeypatch, stale, cached_after):
    """compile_helpers_for_run with the compile stubbed: none of its helpers cached (``stale``) or
    all but two (as in a real cache: two entries are closures no name reaches), the
    kernel in the cache from the ``cached_after``-th look on (None: never); how often it looked."""
    import simcore.family.compiling as compiling
    looks = []

    def cached(fam):
        looks.append(1)
        return cached_after is not None and len(looks) >= cached_after
    monkeypatch.setattr(compiling, "compile_helpers", lambda fam: 7)
    plan = compiling.load_plan("simcore.momojan")
    monkeypatch.setattr(compiling, "stale_entries",
                        lambda package: list(plan) if stale else plan[:2])
    monkeypatch.setattr(compiling, "kernels_cached", cached)
    return compiling, looks


def test_the_helper_job_waits_until_the_first_worker_has_cached_the_kernel(monkeypatch):
    """A cold run's second worker does not compile the kernel a second time: after its helpers
    it waits for the kernel the first worker compiles (a cold `run` saved it twice before)."""
    compiling, looks = _helper_job(monkeypatch, stale=False, cached_after=3)
    assert compiling.compile_helpers_for_run(family, poll=0.0) == 7
    assert len(looks) == 3


def test_the_helper_job_does_not_wait_where_the_cache_took_nothing(monkeypatch):
    """None of its helpers in the cache (a read-only or full cache folder): the kernel will not
    be either, so it goes on at once and its worker compiles the kernel for its chunk."""
    compiling, looks = _helper_job(monkeypatch, stale=True, cached_after=None)
    assert compiling.compile_helpers_for_run(family, poll=0.0) == 7
    assert looks == []


def test_the_helper_job_waits_no_longer_than_its_limit(monkeypatch):
    compiling, looks = _helper_job(monkeypatch, stale=False, cached_after=None)
    assert compiling.compile_helpers_for_run(family, poll=0.001, limit=0.05) == 7
    assert looks

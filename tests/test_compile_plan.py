"""A cold start's compile shared by two workers (simcore/compile_plan.py): the shipped plan
matches the code, a second worker compiles it in the intended order, and run_study asks for it
only on a cold cache with two or more local workers."""

import importlib

import pytest

from simcore import compile_plan
from simcore.momojan import family
from simcore.study import _share_cold_compile


@pytest.mark.parametrize("package,bots", [("simcore.momojan", "policies.play.play"),
                                          ("simcore.ptrump", "simcore.ptrump.bots.decide")])
def test_the_shipped_plan_matches_the_code(package, bots):
    """Every entry's signature is in this checkout's cache. A helper compile (tests/conftest.py
    on a cold cache) writes the plan's own signatures there too, so a stale entry can pass here;
    ``python -m simcore.compile_plan check PACKAGE`` compares both ways with a fresh compile."""
    fam = importlib.import_module(package + ".family")
    fam.play_for_compile()  # compiles the kernel, or loads it: every helper's index is on disk
    plan = compile_plan.load_plan(package)
    assert len(plan) > 50
    names = {f"{m}.{q}" for m, q, _ in plan}
    assert bots in names and not names & set(fam.KERNEL_FUNCTIONS)
    stale = compile_plan.stale_entries(package)
    assert not stale, (f"{len(stale)} plan entries are not what the kernel compiles (first: "
                       f"{stale[0]}): run python -m simcore.compile_plan write {package}")


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
    monkeypatch.setattr(compile_plan, "_dispatcher", lambda m, q: Disp(q) if q != "a" else None)
    assert compile_plan.compile_reversed("x", first=("m.b",)) == 2   # b, d (c failed, a gone)
    assert seen == ["b", "d", "c"]


def test_no_plan_means_no_work():
    assert compile_plan.load_plan("simcore.backends") == []
    assert compile_plan.compile_reversed("simcore.backends") == 0


class _Runner:
    def __init__(self):
        self.jobs = []

    def start_job(self, worker, fn, arg=None):
        self.jobs.append((worker, fn))
        return True


@pytest.mark.parametrize("cached,workers,expected", [(False, 2, 1), (True, 2, 0), (False, 1, 0)])
def test_run_study_shares_only_a_cold_compile_between_local_workers(monkeypatch, cached, workers,
                                                                    expected):
    monkeypatch.setattr(family, "kernels_cached", lambda: cached)
    runner = _Runner()
    _share_cold_compile(family, runner, workers)
    assert len(runner.jobs) == expected
    if expected:
        assert runner.jobs[0] == (workers - 1, family.compile_helpers)
    _share_cold_compile(family, object(), 2)  # a runner without jobs (Ray): nothing to do

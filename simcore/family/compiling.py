"""A family's kernels and numba's compiler: whether the cache holds them, compiling them ahead
(:mod:`simcore.precompile`, the build) and a second worker's share of a cold start
(:mod:`simcore.nb.compile_plan`), and the child processes that compile (talking while they
work). Functions of the family object, which declares its ``KERNEL_FUNCTIONS``,
``COMPILE_FIRST`` and ``SEARCH_KERNEL``.

``python -m simcore.family.compiling write|check PACKAGE`` records a family's compile plan in a
fresh cache (about two minutes) and writes it next to the package, or says how the shipped one
differs.
"""

from __future__ import annotations

import functools
import importlib
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from simcore.nb.compile_plan import (dispatcher, cached_for, kernel_entries, load_plan,
                                     record, save_plan, stale_entries)


GUARD_S = 1800  # not a timing: only stops a hung compile from hanging an install or a test run
TICK_S = 10.0  # how often a compile says it is still running


def _call(module: str, function: str) -> str:
    """A line of a child's code: call ``simcore.family.compiling.function`` on the family of
    module ``module``."""
    return (f"importlib.import_module('simcore.family.compiling').{function}("
            f"importlib.import_module({module!r}).FAMILY)\n")


def _python(code, stderr):
    # A compile child ends with its parent, however the parent ends (a killed install, test
    # run or precompile): simcore.runners.local.die_with_parent, as every worker does (issue 46).
    return subprocess.Popen([sys.executable, "-c", "import importlib\n"
                             "from simcore.runners.local import die_with_parent\n"
                             f"die_with_parent({os.getpid()})\n" + code],
                            stdout=subprocess.DEVNULL, stderr=stderr, text=True)


def compile_families(cold, say=None, guard_s: float = GUARD_S) -> bool:
    """Compile the kernels of the family modules ``cold`` in child processes, two at a time:
    each family's helpers in one process, then its kernel (the round loop and the games loop,
    which link every helper) in another, once the helpers are in the cache, so that it loads
    them instead of compiling them again. Tasks start in the order given, the first one ready
    first, so a family's kernel comes before the next family's helpers. A family's kernel and
    helpers start together only when nothing else is ready as they start (one family alone:
    the natural order and the reversed plan then meet in the middle,
    :mod:`simcore.nb.compile_plan`); a kernel started late beside helpers long under way would
    compile again the very helpers not yet done, the last of the reversed plan. Never more
    than two compiles, so none fight over 2 cores; numba's cache is written by both at once
    safely (:mod:`simcore.nb.cache_lock`).

    Started together, each family's kernel compiled every helper its process reached before
    the other process had cached it: all five families took 316 s of CPU (161 s on 2 idle
    cores), against about 230 s with each kernel after its helpers (docs/performance.md).
    ``say(text)`` reports progress and failures. True when every process ended well; a failed
    or hung one is reported and stopped, never raised: whatever it did not compile compiles on
    first use. ``guard_s`` bounds each process."""
    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    tasks = [(name, f) for name in cold for f in ("compile_helpers", "play_for_compile")]
    needs = [None if f == "compile_helpers" else i - 1 for i, (_, f) in enumerate(tasks)]

    def starting(name, function):
        if len(cold) > 1 and function == "compile_helpers":
            say(f"compiling {name.split('.')[-2]}")
    return _run_children(tasks, say, guard_s, say, starting, needs=needs)


def compile_search(fam, say=None, guard_s: float = GUARD_S, ticks: bool = True) -> bool:
    """Compile the family's ``search`` kernel into numba's cache in a child process unless it is
    there, saying so and every ``TICK_S`` how long it has run: compiled in the process that plays,
    numba holds the interpreter for a minute and nothing can report (issue 51); ``ticks=False``
    says only the first line (a command's own progress speaks while it waits). True when
    it is cached or the child ended well; a failure is said, never raised (the kernel then
    compiles on first use)."""
    if search_cached(fam):
        return True
    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    from simcore.family import registry as families
    say("compiling the search bot's kernel (about a minute, once)")
    return _compile_one(families.FAMILIES[fam.NAME], say, guard_s, ("play_search_for_compile",),
                        say if ticks else (lambda text: None))


def _compile_one(name: str, say, guard_s: float,
                 functions=("compile_helpers", "play_for_compile"), tick=None) -> bool:
    return _run_children([(name, f) for f in functions], say, guard_s, tick or say)


def _run_children(tasks, say, guard_s: float, tick, starting=None, slots: int = 2,
                  every: float = TICK_S, needs=None) -> bool:
    """Run ``tasks`` (``(family module, compiling function)``), each in a child process,
    ``slots`` at a time, a task starting as soon as a slot is free: the first in order that is
    ready (``needs[i]``, when given and not None, the index of a task that must have ended
    first), or, when none is, the first whose needed task starts in the same pass (a family's
    helpers and kernel together); else the slot waits for a task to end. ``tick(text)`` every
    ``every`` seconds says how long the whole has run (a compile is a minute or more of silence
    otherwise). True when every child ended well: a failed child is said, and one that runs
    ``guard_s`` is stopped and said (``say``)."""
    start = time.monotonic()
    needs = list(needs) if needs is not None else [None] * len(tasks)
    waiting = list(range(len(tasks)))
    ended = set()
    running = []   # (proc, log, started, task index)
    ok = True
    next_tick = start + every
    try:
        while waiting or running:
            started = set()   # in this pass
            while waiting and len(running) < slots:
                ready = ([i for i in waiting if needs[i] is None or needs[i] in ended]
                         or [i for i in waiting if needs[i] in started])
                if not ready:
                    break
                i = ready[0]
                waiting.remove(i)
                started.add(i)
                name, function = tasks[i]
                if starting:
                    starting(name, function)
                log = tempfile.TemporaryFile("w+")
                running.append((_python(_call(name, function), log), log, time.monotonic(), i))
            still = []
            for proc, log, began, i in running:
                status = proc.poll()
                if status is None and time.monotonic() - began <= guard_s:
                    still.append((proc, log, began, i))
                    continue
                ended.add(i)
                if status is None:
                    say(f"a compile process ran {guard_s:.0f} s: stopped (what it did not "
                        f"compile compiles on first use)")
                    ok = False
                    proc.kill()
                    proc.wait()
                elif status != 0:
                    log.seek(0)
                    say(f"a compile process failed:\n{log.read()}")
                    ok = False
                log.close()
            if len(still) == len(running):   # nothing ended: wait a little, talking on time
                now = time.monotonic()
                if now >= next_tick:
                    tick(f"still compiling ({now - start:.0f} s)")
                    next_tick += every * (1 + (now - next_tick) // every)
                time.sleep(min(0.1, every / 4))
            running = still
    finally:  # interrupted, or hung: no compile outlives its caller
        for proc, log, _, _ in running:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            log.close()
    return ok


def has_compile_plan(fam) -> bool:
    """Whether the family compiles ahead (a cold start can be split between workers)."""
    return bool(fam.KERNEL_FUNCTIONS)


def kernel_cached(kernel) -> bool:
    """Whether numba's on-disk cache holds machine code of the dispatcher ``kernel`` for *some*
    signature that numba would load here (another numba, CPU or source does not count)."""
    try:
        index = kernel._cache._cache_file._load_index()
        magic = kernel.targetctx.codegen().magic_tuple()
    except Exception:  # numba's cache internals moved: say "cold", which costs only a message
        return False
    return any(key[1] == magic for key in index)


def _plan_package(fam) -> str:
    """The package whose compile plan holds ``fam``'s kernel helpers: simcore.<name>."""
    return importlib.import_module(fam.KERNEL_FUNCTIONS[0].rpartition(".")[0]).__package__


def kernels_cached(fam) -> bool:
    """Whether numba's on-disk cache holds the family's kernel functions for this machine and
    source *and for the argument types the code passes them*: the signatures its compile plan
    recorded (a change of the state's or the rules' types makes the cache cold even though an
    entry of the old types is there). A plan without signatures: any entry of the games loop.
    True for a family with nothing to compile."""
    if not fam.KERNEL_FUNCTIONS:
        return True
    module, _, name = fam.KERNEL_FUNCTIONS[0].rpartition(".")
    kernels = kernel_entries(_plan_package(fam))
    if not kernels:
        return kernel_cached(getattr(importlib.import_module(module), name))
    for mod, qualname, argtypes in kernels:
        disp = dispatcher(mod, qualname)
        if disp is None or not cached_for(disp, argtypes):
            return False
    return True


def search_cached(fam) -> bool:
    """Whether numba's cache holds the family's ``search`` kernel (any signature: it has one);
    True for a family without one."""
    if not fam.SEARCH_KERNEL:
        return True
    module, _, name = fam.SEARCH_KERNEL.rpartition(".")
    return kernel_cached(getattr(importlib.import_module(module), name))


def play_search_for_compile(fam) -> None:
    """Play one game of the default scenario with ``search`` in every seat at two simulations a
    decision: compiles the search kernel (its types do not depend on the scenario or params)."""
    from simcore.family.players import with_players
    from simcore.family.policy import SEARCH
    sc = with_players(fam, fam.SCENARIOS.load(fam.DEFAULT_SCENARIO), f"{SEARCH}:sims=2")
    fam.SIMULATOR(sc).play(np.arange(1), seed=1)


def play_for_compile(fam) -> None:
    """Play two games of the default scenario: compiles the kernel (one for every scenario and
    bot: rules and seats are arrays)."""
    if fam.DEFAULT_SCENARIO:
        sc = fam.SCENARIOS.load(fam.DEFAULT_SCENARIO)
        fam.SIMULATOR(sc).play(np.arange(2), seed=1)


def compile_helpers(fam, _arg=None) -> int:
    """A second worker's share of a cold start (:mod:`simcore.nb.compile_plan`): the kernel's
    helpers, last-needed first, into numba's cache."""
    from simcore.nb.compile_plan import compile_reversed
    return compile_reversed(_plan_package(fam), first=fam.COMPILE_FIRST)


def compile_helpers_for_run(fam, _arg=None, poll: float = 0.25, limit: float = 900.0) -> int:
    """A cold run's second worker (:func:`simcore.studies.study.run_study`): the kernel's helpers
    (:func:`compile_helpers`), then wait, up to ``limit`` seconds, until the kernel the first
    worker compiles for its chunk is in the cache, so that this worker's first chunk loads it
    instead of compiling the same kernel again. Without the wait it did: a cold `run
    new_edition` saved play_round and play_games twice (``NUMBA_DEBUG_CACHE``), about 100 s of
    CPU for a 54 s run, and the second worker's first chunk came 9 s after the first. A
    precompile does not wait (:func:`compile_families` starts the next family's helpers).

    It waits only where waiting can end: not when none of its own helpers reached the cache (a
    read-only or full cache folder: numba then caches nothing, and this worker compiles the
    kernel for its chunk as before), and not longer than ``limit`` seconds or twice its own
    compile's time, whichever is less (the kernel's compile is shorter than the helpers')."""
    start = time.monotonic()
    n = compile_helpers(fam)
    spent = time.monotonic() - start
    package = _plan_package(fam)
    if len(stale_entries(package)) >= len(load_plan(package)):   # none of them was cached
        return n
    deadline = time.monotonic() + min(limit, max(60.0, 2.0 * spent))
    while not kernels_cached(fam) and time.monotonic() < deadline:
        time.sleep(poll)
    return n


def _record_fresh(package: str) -> tuple:
    """The plan of a natural compile of ``package``'s kernel in a fresh, temporary cache:
    ``(helpers, kernels)`` (:func:`simcore.nb.compile_plan.record`)."""
    import tempfile
    with tempfile.TemporaryDirectory(prefix="mjplan") as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache  # read when numba's dispatchers are made: first
        fam = importlib.import_module(package + ".family").FAMILY
        return record(functools.partial(play_for_compile, fam), ("simcore", "policies"),
                      fam.KERNEL_FUNCTIONS)


def main(argv=None) -> int:
    """``python -m simcore.family.compiling write|check PACKAGE``: compile the package's kernel in a
    fresh cache (about two minutes) and write its plan, or say how the shipped plan differs (exit
    1). The test suite's check (:func:`stale_entries`) reads this checkout's cache, which a helper
    compile also fills with the plan's own signatures; ``check`` is the full comparison."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0] not in ("write", "check"):
        print("usage: python -m simcore.family.compiling write|check PACKAGE (e.g. "
              "simcore.momojan)",
              file=sys.stderr)
        return 2
    command, package = argv
    plan, kernels = _record_fresh(package)
    if command == "check":
        shipped = load_plan(package) + kernel_entries(package)
        plan = plan + kernels
        extra = [e for e in shipped if e not in plan]
        missing = [e for e in plan if e not in shipped]
        for what, entries in (("not compiled by the kernel", extra), ("missing", missing)):
            for m, q, a in entries:
                print(f"{what}: {m}.{q}{a}")
        print(f"{package}: {len(shipped)} planned, {len(plan)} compiled, {len(extra)} stale, "
              f"{len(missing)} missing")
        return 1 if extra or missing else 0
    if len(plan) < 10:  # e.g. NUMBA_DISABLE_JIT: nothing compiled; keep the shipped plan
        print(f"only {len(plan)} functions compiled: plan not written", file=sys.stderr)
        return 1
    path = save_plan(package, plan, kernels)
    print(f"{len(plan)} helpers and {len(kernels)} kernel functions -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

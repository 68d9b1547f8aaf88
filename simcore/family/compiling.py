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
                                     record, save_plan)


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


def _wait_talking(proc, start: float, guard_s: float, say, every: float = TICK_S):
    """``proc``'s exit status, saying every ``every`` seconds how long the compile has run (a
    compile is a minute or more of silence otherwise); TimeoutExpired past ``guard_s``."""
    while True:
        left = guard_s - (time.monotonic() - start)
        if left <= 0:
            raise subprocess.TimeoutExpired(proc.args, guard_s)
        to_tick = every - (time.monotonic() - start) % every   # ticks on the whole clock
        try:
            return proc.wait(timeout=min(to_tick, max(left, 0.1)))
        except subprocess.TimeoutExpired:
            if guard_s - (time.monotonic() - start) > 0:
                say(f"still compiling ({time.monotonic() - start:.0f} s)")


def compile_families(cold, say=None, guard_s: float = GUARD_S) -> bool:
    """Compile the kernels of the family modules ``cold``, one family at a time: each in two
    child processes, its kernel in one and its helpers in the other (the module docstring), so
    two compiles never fight over 2 cores and the first family is ready soonest. ``say(text)``
    reports progress and failures. True when every process ended well; a failed or hung one is
    reported and stopped, never raised: whatever it did not compile compiles on first use.
    ``guard_s`` bounds each family's compile."""
    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    ok = True
    for name in cold:
        if len(cold) > 1:
            say(f"compiling {name.split('.')[-2]}")
        ok = _compile_one(name, say, guard_s) and ok
    return ok


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
    codes = [_call(name, f) for f in functions]
    start = time.monotonic()
    logs = [tempfile.TemporaryFile("w+") for _ in codes]
    procs = []
    ok = True
    try:
        procs = [_python(code, log) for code, log in zip(codes, logs)]
        for proc, log in zip(procs, logs):
            try:
                status = _wait_talking(proc, start, guard_s, tick or say)
            except subprocess.TimeoutExpired:
                say(f"a compile process ran {guard_s:.0f} s: stopped (what it did not compile "
                    f"compiles on first use)")
                ok = False
                break
            if status != 0:
                log.seek(0)
                say(f"a compile process failed:\n{log.read()}")
                ok = False
    finally:  # interrupted, or hung: no compile outlives its caller
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        for log in logs:
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


def kernels_cached(fam) -> bool:
    """Whether numba's on-disk cache holds the family's kernel functions for this machine and
    source *and for the argument types the code passes them*: the signatures its compile plan
    recorded (a change of the state's or the rules' types makes the cache cold even though an
    entry of the old types is there). A plan without signatures: any entry of the games loop.
    True for a family with nothing to compile."""
    if not fam.KERNEL_FUNCTIONS:
        return True
    module, _, name = fam.KERNEL_FUNCTIONS[0].rpartition(".")
    kernels = kernel_entries(importlib.import_module(module).__package__)
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
    kernel_module = fam.KERNEL_FUNCTIONS[0].rpartition(".")[0]
    package = importlib.import_module(kernel_module).__package__   # the plan's: simcore.<name>
    return compile_reversed(package, first=fam.COMPILE_FIRST)


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

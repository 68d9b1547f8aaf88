"""Play games under a sampling profiler with numba's compiled functions named.

Run::

    perf record -e cpu-clock -F 4000 -o perf.data \\
        python benchmarks/perf_profile.py --scenario new_edition --players greedy --games 10000
    perf report -i perf.data --no-children --sort sym

``perf`` cannot name code that numba compiled (or loaded from its cache) at run time; it reads
``/tmp/perf-<pid>.map`` for such code. After a warm-up that compiles or loads every kernel, this
script writes that map from numba's JIT engine (every symbol it defined, with its address; a
symbol's size is the gap to the next one) and then plays the games, so the report names
``play_round``, ``useful_cards_from``, ``NRT_incref`` and so on. Functions LLVM inlined into their
callers are counted in the caller. ``-e cpu-clock`` because this kind of VM has no hardware
counters; expect some skid onto slow instructions (atomic reference counts look costlier than they
are: see ``simcore/nb/borrow.py``).

The games are played in batches of ``--batch`` (2,000: what a chunk of a run plays at once). One
batch of all the games allocates record buffers of hundreds of MB that the kernel must clear, and
the garbage collector walks them at exit: a profile of one 40,000-game batch put 6-28% of its
samples there, in no function a run spends time in.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from simcore.errors import InputError  # noqa: E402
from simcore.family.players import with_players
from simcore.family.registry import family_of  # noqa: E402


def write_perf_map(path: str | None = None) -> int:
    """Write the perf map of every function numba's JIT engine holds now; return how many."""
    from numba.core.registry import cpu_target
    engine = cpu_target.target_context.codegen()._engine
    found = []
    for name in engine._defined_symbols:
        try:
            address = engine.get_function_address(name)
        except Exception:  # a data symbol, or one the engine cannot resolve
            continue
        if address:
            found.append((address, name))
    found.sort()
    path = path or f"/tmp/perf-{os.getpid()}.map"
    with open(path, "w") as f:
        for i, (address, name) in enumerate(found):
            size = min(found[i + 1][0] - address if i + 1 < len(found) else 4096, 1 << 20)
            short = re.sub(r"B\d+v\d+B\d+\w+$", "", name)  # drop numba's ABI suffix
            f.write(f"{address:x} {size:x} {short}\n")
    return len(found)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="new_edition", help="a bundled scenario name or a file")
    ap.add_argument("--players", default="greedy", help="one policy for every seat")
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--batch", type=int, default=2000, help="games per play call (a chunk's)")
    args = ap.parse_args(argv)
    try:
        family = family_of(args.scenario)
        sc = family.SCENARIOS.load(args.scenario)
        sc = with_players(family, sc, ",".join([args.players] * len(sc["players"])))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sim = family.SIMULATOR(sc)   # the compiled engine's own entry, without the chunk function
    sim.play(np.arange(2), seed=1)  # compile or load every kernel before the map is written
    n = write_perf_map()
    t = time.perf_counter()
    rounds = 0
    for start in range(0, args.games, max(1, args.batch)):
        stop = min(args.games, start + max(1, args.batch))
        rounds += len(sim.play(np.arange(start, stop), seed=args.seed).rounds)
    dt = time.perf_counter() - t
    print(f"{n} compiled symbols mapped; {rounds} rounds in {dt:.1f} s "
          f"({rounds / dt:,.0f} rounds/s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Chunks of games around a family's compiled engine: the game-agnostic part.

A family's :class:`Simulator` subclass holds its kernel's arguments (rules array, tables, seats)
and says how to call the kernel; the rest lives here once: the :class:`Batch` of records and the
growth of its round rows, the replay log, the per-process cache of simulators, the pure chunk
function's body (:func:`chunk_stats`), the histogram and example helpers, and
:func:`run_games`. Nothing here imports a game package or a numba kernel at import time (the
simulator imports its ``KERNEL`` module when it first plays).

What this implementation simplifies: a batch whose round rows run out is played again with 4x
the rows (the kernel reports it instead of allocating), so a rare long chunk costs a replay.
"""

from __future__ import annotations

import functools
import os
import socket
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from simcore.runners.local import ChunkRunner, clamp_workers
from simcore.stats.moments import MomentSums

CHUNK_GAMES = 2000
# A chunk is also the unit of progress: a ``search`` seat plays a few MOMOJAN games a second,
# so a chunk of its games is a few seconds of play (about 8 with both seats searching), not
# the half hour 2,000 would be.
SEARCH_CHUNK_GAMES = 8


def searches(scenarios) -> bool:
    """Whether a seat of some scenario plays the ``search`` bot."""
    from simcore.family.policy import SEARCH
    return any(p.get("policy") == SEARCH for sc in scenarios for p in sc["players"])


def all_search(scenarios) -> bool:
    """Whether every scenario (there is one) seats a ``search`` bot: such a study plays the
    search kernel alone, never the policies' kernel."""
    return bool(scenarios) and all(searches([sc]) for sc in scenarios)


def chunk_games_for(scenarios) -> int:
    """Games per chunk for a study of ``scenarios`` (recorded in its result: a resumed study
    keeps its own)."""
    return SEARCH_CHUNK_GAMES if searches(scenarios) else CHUNK_GAMES


@dataclass(frozen=True)
class ChunkTask:
    """Games ``start .. stop - 1`` of every variant: the unit of work, storage and resumption."""

    variants: tuple          # per variant: the family's payload (resolved scenario data)
    seeds: tuple             # per variant: the base seed (equal seeds = common random numbers)
    start: int
    stop: int
    debug: bool = False
    records: bool = False    # also return the raw records (for writing them to disk)
    round_records: bool = True  # with ``records``: the per-round records too (else games only)
    values: bool = False     # also return the per-game metric values (a tournament's deals)


@dataclass
class ChunkResult:
    start: int
    stop: int
    sums: MomentSums
    batches: tuple | None = None
    # Family-defined extras, plain JSON data persisted with the chunk (simcore.studies.results):
    # {"hist": {name: [[count per value] per variant]}, "examples": [[[game, ...] per metric]
    # per variant], "trajectories": [...] (chunk 0 only)}
    extras: dict | None = None
    values: np.ndarray | None = None   # int64[games, k, 2V] when ``task.values``
    # where and how long it played ((host, process id): a Ray cluster's nodes may reuse a
    # process id; and its seconds of wall clock): the result's steady rounds/s
    # (simcore.studies.results), never saved with the chunk
    worker: tuple | None = None
    seconds: float | None = None


_HOST = socket.gethostname()   # a chunk's worker is (_HOST, its process id)
EXAMPLES_PER_METRIC = 3   # example games kept per metric and chunk
TRAJECTORY_GAMES = 6      # score trajectories of the first games (chunk 0)
MAX_SIMULATORS = 64       # simulators one process keeps built


def _function(path: str, name: str = ""):
    """The function ``path`` (module.function), or ``name`` of its module: imported on first
    use, so a simulator built for a report never compiles a kernel."""
    import importlib
    module, _, own = path.rpartition(".")
    return getattr(importlib.import_module(module), name or own)


@dataclass
class Batch:
    """Records of a set of games (matches), in game order."""

    games: np.ndarray   # int64[n_games, N_GF] (the family's engine.GAME_FIELDS)
    rounds: np.ndarray  # int64[n_rounds, N_RF] (the family's engine.ROUND_FIELDS)


class Simulator:
    """What the compiled engine needs to play one scenario, built once; a family subclasses it.

    The kernel contract (every family's games loop): ``kernel(idx, seed, state, debug,
    rounds, games) -> n`` fills ``games`` (one row per index) and the first ``n`` rows of
    ``rounds``, or returns -1 when ``rounds`` is too short. A subclass names its ``ENGINE``
    (record widths, event-log constants, ``new_state``), its ``KERNEL`` (and ``SEARCH_KERNEL``)
    and writes :meth:`kernel_inputs`; or it overrides :meth:`kernel` (P-style's matches).
    """

    GAME_FIELDS: tuple = ()     # column names of a game record
    ROUND_FIELDS: tuple = ()    # column names of a round record
    N_GF: int = 0           # columns of a game record (from GAME_FIELDS)
    N_RF: int = 0           # columns of a round record (from ROUND_FIELDS)
    ROUNDS_PER_GAME = 16    # round rows allocated per game before the first try
    MIN_ROUND_ROWS = 64
    ST_LOG = ST_N_EV = 0    # the state's scalar slots: "log events", "events logged"
    MAX_EVENTS = 0
    # histograms a chunk keeps: name -> (what is counted, per what, bins: values 0 .. bins - 2,
    # the last bin holds everything larger); histogram_values() gives their values
    HISTOGRAMS: dict = {}

    # the engine module, if the subclass names one: its GAME_FIELDS, ROUND_FIELDS, MAX_EVENTS,
    # ST_LOG, ST_N_EV, new_state(log) and MAX_ROUNDS (a replay's rows) are taken from it
    ENGINE = None

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if "KERNEL_FUNCTIONS" not in cls.__dict__:
            cls.KERNEL_FUNCTIONS = (cls.KERNEL,) if cls.KERNEL else ()
        if cls.ENGINE is not None and "ENGINE" in cls.__dict__:
            for name in ("GAME_FIELDS", "ROUND_FIELDS", "MAX_EVENTS", "ST_LOG", "ST_N_EV"):
                if name not in cls.__dict__:
                    setattr(cls, name, getattr(cls.ENGINE, name))
        cls.N_GF, cls.N_RF = len(cls.GAME_FIELDS), len(cls.ROUND_FIELDS)
        if cls.ROUND_SCORE0 is not None and cls.ROUND_FIELDS and \
                cls.ROUND_SCORE0 not in cls.ROUND_FIELDS:
            raise TypeError(f"{cls.__module__}.{cls.__name__}.ROUND_SCORE0 = "
                            f"{cls.ROUND_SCORE0!r}: not a column of its ROUND_FIELDS")

    # the kernels, as module.function: the bots' games loop, and the ``search`` bot's (the same
    # arguments and then a scratch from its module's ``new_scratch()``; compiled apart on its
    # first use; "": no search). :meth:`kernel` calls them with :meth:`kernel_inputs`.
    KERNEL: str = ""
    SEARCH_KERNEL: str = ""
    KERNEL_FUNCTIONS: tuple = ()   # (KERNEL,): the Family's default
    # the bot registry (simcore.family.policy.Registry) and the seats the engine holds: the kit
    # deals each seat its policy id and params row (``self.policy_ids``, ``self.params``)
    POLICIES = None
    MAX_SEATS = 0

    def __init__(self, scenario):
        self.scenario = scenario
        from simcore.nb import cache_guard
        cache_guard.check(type(self).__module__.rpartition(".")[0])   # stale machine code
        if self.POLICIES is not None:
            self.policy_ids, self.params = self.POLICIES.seat_arrays(scenario["players"],
                                                                     self.MAX_SEATS)
        self._scratch = None

    def new_state(self, log: bool):
        """The kernel's per-round state (with an event log when ``log``)."""
        if self.ENGINE is None:
            raise NotImplementedError
        return self.ENGINE.new_state(log)

    def kernel_inputs(self, debug: bool) -> tuple:
        """The kernel's arguments between ``state`` and the records (rules, tables, seats...)."""
        raise NotImplementedError

    def kernel(self, idx, seed, state, debug: bool, rounds, games) -> int:
        """``KERNEL(idx, seed, state, *kernel_inputs(debug), rounds, games)``; with a ``search``
        seat, ``SEARCH_KERNEL`` with the scratch last."""
        args = (idx, seed, state, *self.kernel_inputs(debug), rounds, games)
        if self.SEARCH_KERNEL and (self.policy_ids == self.POLICIES.id("search")).any():
            if self._scratch is None:
                self._scratch = _function(self.SEARCH_KERNEL, "new_scratch")()
            return _function(self.SEARCH_KERNEL)(*args, self._scratch)
        return _function(self.KERNEL)(*args)

    def policy_tables(self) -> tuple:
        """The last two arguments the family's ``decide`` takes after ``rng`` (its tables and
        rules array), so a bot can be asked from Python (``play``'s hints)."""
        raise NotImplementedError

    @classmethod
    def histogram_values(cls, batch) -> dict:
        """name -> int64 values counted into each of the family's ``HISTOGRAMS``; by default the
        kit's two of records in the standard layout (:func:`simcore.family.metrics.
        standard_quantities`), where ``HISTOGRAMS`` names them: ``winning_points`` (each win's
        ``value<seat>``) and ``rounds_per_game``."""
        out, rf = {}, cls.ROUND_FIELDS
        if "winning_points" in cls.HISTOGRAMS:
            v0, won = rf.index("value0"), batch.rounds[:, rf.index("winners")]
            won = (won[:, None] >> np.arange(cls.MAX_SEATS)) & 1 == 1
            out["winning_points"] = batch.rounds[:, v0:v0 + cls.MAX_SEATS][won]
        if "rounds_per_game" in cls.HISTOGRAMS:
            out["rounds_per_game"] = batch.games[:, cls.GAME_FIELDS.index("rounds")]
        return out

    # the kit's score trajectories: the round records' column of seat 0's score after the round
    # (the other seats' follow it) and the dotted rule key of every seat's starting score
    # (None: every seat starts at 0)
    ROUND_SCORE0: str | None = None
    START_SCORE: str | None = None

    @classmethod
    def trajectories(cls, idx, batch, data: dict) -> list:
        """``[{"game": g, "scores": [[score per seat], ...]}]`` of the first games (reports
        draw them), from ``ROUND_SCORE0`` and ``START_SCORE`` (0 without it); none when a
        family sets no ``ROUND_SCORE0``."""
        if cls.ROUND_SCORE0 is None:
            return []
        from simcore.family.scenario.bounds import get
        c, n = cls.ROUND_FIELDS.index(cls.ROUND_SCORE0), len(data["players"])
        start = [int(get(data, cls.START_SCORE)) if cls.START_SCORE else 0] * n
        return [{"game": int(g), "scores": [start] + batch.rounds[
            batch.rounds[:, cls.ROUND_FIELDS.index("game")] == g, c:c + n].tolist()}
                for g in idx[:TRAJECTORY_GAMES]]

    def replay_rounds(self) -> int:
        """Round rows a replayed game may need (the engine's ``MAX_ROUNDS`` where it has one)."""
        return getattr(self.ENGINE, "MAX_ROUNDS", 1024)

    def play(self, game_indices, seed: int, debug: bool = False) -> Batch:
        """The records of games ``game_indices`` (each depends on (seed, index) alone).

        The kernel is given views of buffers :data:`GUARD_ROWS` rows longer, the rows past the
        view filled with :data:`GUARD`: a kernel that writes past its buffer (numba does not
        check bounds) lands there, and :func:`check_guard` says so by name (else it would
        corrupt memory and, at best, be reported as a worker that died)."""
        idx = np.asarray(game_indices, np.int64)
        rs = self.new_state(False)
        games_buf = guarded((len(idx), self.N_GF))
        games = games_buf[:len(idx)]
        cap = max(self.ROUNDS_PER_GAME * len(idx), self.MIN_ROUND_ROWS)
        while True:
            rounds_buf = guarded((cap, self.N_RF))
            rounds = rounds_buf[:cap]
            n = self.kernel(idx, np.uint64(seed), rs, debug, rounds, games)
            check_guard(self, games_buf, len(idx), "game records (games)")
            check_guard(self, rounds_buf, cap, "round records (rounds)")
            if n > cap:
                raise BufferOverrun(f"{self.family_name()}: the kernel reports {n} round records "
                                    f"in a round buffer (rounds) of {cap} rows")
            if n >= 0:
                return Batch(games, rounds[:n].copy())
            cap *= 4

    def family_name(self) -> str:
        """The family this simulator plays, for errors (its scenario's ``game:``, else its
        module's: ``simcore.<name>.*``)."""
        game = getattr(getattr(self, "scenario", None), "data", {}).get("game")
        if isinstance(game, str):
            return game
        parts = type(self).__module__.split(".")
        return parts[1] if len(parts) > 2 and parts[0] == "simcore" else \
            f"{parts[0]} ({type(self).__name__})"

    def replay_events(self, seed: int, game: int) -> tuple[np.ndarray, Batch]:
        """The event log of one game (for ``replay``), and its records."""
        from ..errors import InputError
        rs = self.new_state(True)
        rs.st[self.ST_LOG] = 1
        games_buf = guarded((1, self.N_GF))
        games = games_buf[:1]
        cap = self.replay_rounds()
        rounds_buf = guarded((cap, self.N_RF))
        rounds = rounds_buf[:cap]
        n = self.kernel(np.array([game], np.int64), np.uint64(seed), rs, True, rounds, games)
        check_guard(self, games_buf, 1, "game records (games)")
        check_guard(self, rounds_buf, cap, "round records (rounds)")
        if n > cap or int(rs.st[self.ST_N_EV]) > self.MAX_EVENTS:
            raise BufferOverrun(f"{self.family_name()}: the kernel reports {n} round records for "
                                f"a round buffer of {cap} rows and {int(rs.st[self.ST_N_EV])} "
                                f"events for an event log (ev) of {self.MAX_EVENTS} rows")
        if n < 0:
            raise InputError(f"game {game} has more rounds than a replay holds")
        n_ev = int(rs.st[self.ST_N_EV])
        if n_ev >= self.MAX_EVENTS:
            raise InputError(f"game {game} is longer than the replay log holds "
                             f"({self.MAX_EVENTS} events)")
        return rs.ev[:n_ev].copy(), Batch(games, rounds[:n].copy())


GUARD_ROWS = 64                       # rows past a kernel's buffers that must stay untouched
GUARD = np.iinfo(np.int64).min + 0x6A5   # what they hold (no record value is ever this)


class BufferOverrun(RuntimeError):
    """A kernel wrote past a buffer it was given, or reported more rows than it holds."""


def guarded(shape) -> np.ndarray:
    """int64 zeros of ``shape`` followed by :data:`GUARD_ROWS` rows of :data:`GUARD` (the kernel
    is given the first ``shape[0]`` rows, a C-contiguous view of the same type)."""
    buf = np.zeros((shape[0] + GUARD_ROWS, shape[1]), np.int64)
    buf[shape[0]:] = GUARD
    return buf


def check_guard(sim, buf: np.ndarray, rows: int, what: str) -> None:
    """:class:`BufferOverrun` naming the family and the buffer if the kernel wrote into the
    guard rows past the ``rows`` it was given."""
    bad = np.nonzero(np.any(buf[rows:] != GUARD, axis=1))[0]
    if len(bad):
        raise BufferOverrun(f"{sim.family_name()}: the kernel wrote past its {what} buffer of "
                            f"{rows} rows (row {rows + int(bad[-1])} written; "
                            f"{type(sim).__module__}.{type(sim).__name__}.kernel)")


def cached_simulator(cache: dict, data: dict, build: Callable[[dict], object]):
    """The simulator of a resolved scenario's ``data`` from ``cache`` (one per family and
    process: a sweep's worker plays every variant of each chunk, so all of them stay built), or
    ``build(data)`` stored there; the cache is emptied once it holds :data:`MAX_SIMULATORS`."""
    key = repr(data)
    sim = cache.get(key)
    if sim is None:
        if len(cache) >= MAX_SIMULATORS:
            cache.clear()
        sim = cache[key] = build(data)
    return sim


def play_chunk(task: ChunkTask, simulator_for: Callable, n_metrics: int,
               game_values: Callable, histograms, extras_of: Callable,
               luck_of: Callable | None = None, luck_names: tuple = ()) -> ChunkResult:
    """Play games ``task.start .. task.stop - 1`` of every variant and return their sums.

    ``simulator_for(data)`` gives a variant's simulator, ``game_values(idx, games, rounds)`` its
    per-game numerators and denominators of the family's ``n_metrics`` catalogue metrics (they
    become components 2v and 2v + 1 of :class:`simcore.stats.moments.MomentSums`), ``extras_of(extras,
    idx, num, batch, data, first_chunk)`` appends its ``histograms`` and examples,
    ``luck_of(idx, games, rounds)`` its luck controls (float[n, K], mean 0; named
    ``luck_names``), streamed as :class:`simcore.stats.luck_sums.LuckSums`: every variant's for one
    or two variants, the first variant's alone for more (a sweep's or solve's variants share
    its deals, and every variant's controls against every metric of every variant would be
    ten times the moments on disk for eleven variants). Records come back only when
    ``task.records`` is set.
    """
    t0 = time.perf_counter()
    idx = np.arange(task.start, task.stop, dtype=np.int64)
    z = np.empty((len(idx), n_metrics, 2 * len(task.variants)), np.int64)
    controls = []
    batches = []
    extras = {"hist": {name: [] for name in histograms}, "examples": [], "trajectories": []}
    for v, (data, seed) in enumerate(zip(task.variants, task.seeds)):
        batch = simulator_for(data).play(idx, seed, task.debug)
        z[:, :, 2 * v], z[:, :, 2 * v + 1] = game_values(idx, batch.games, batch.rounds)
        if luck_of is not None and (v == 0 or len(task.variants) <= 2):
            controls.append(luck_of(idx, batch.games, batch.rounds))
        extras_of(extras, idx, z[:, :, 2 * v], batch, data, task.start == 0, z[:, :, 2 * v + 1])
        if task.records:
            batches.append(batch if task.round_records else Batch(batch.games, batch.rounds[:0]))
    luck = None
    if controls:
        from simcore.stats.luck_sums import LuckSums
        luck = LuckSums.from_values(idx, z, np.concatenate(controls, axis=1), luck_names)
    return ChunkResult(task.start, task.stop, MomentSums.from_values(z, luck),
                       tuple(batches) if task.records else None, extras,
                       z if task.values else None, (_HOST, os.getpid()),
                       time.perf_counter() - t0)


def bincount(values, bins: int) -> list:
    """Counts of values 0 .. bins - 2; the last bin holds everything larger."""
    return np.bincount(np.clip(values, 0, bins - 1), minlength=bins).tolist()


def examples(idx, num) -> list:
    """Per metric (column of ``num``), up to :data:`EXAMPLES_PER_METRIC` games of ``idx`` where
    its numerator is positive."""
    ex = []
    for j in range(num.shape[1]):
        hit = np.flatnonzero(num[:, j] > 0)[:EXAMPLES_PER_METRIC]
        ex.append(idx[hit].tolist())
    return ex


# ---------------------------------------------------------------------------------------------
# A family's chunks: what run_study maps over its workers
# ---------------------------------------------------------------------------------------------

_SIMULATORS: dict = {}   # family class -> {repr(resolved data): simulator}, per process


def simulator_for(fam, data: dict) -> Simulator:
    """The simulator of a resolved scenario's data, built once per process."""
    def build(d):
        return fam.SIMULATOR(fam.SCENARIOS.from_dict(d, name=d.get("name") or "inline"))
    return cached_simulator(_SIMULATORS.setdefault(type(fam), {}), data, build)


def game_values(fam, idx, games, rounds, catalogue=None):
    """``(num, den)``, int64[n, k] each: per game, each catalogue metric's numerator and
    denominator (from the family's ``game_quantities``)."""
    from simcore.family.metrics import MissingQuantity, catalogue_values
    cat = fam.CATALOGUE if catalogue is None else catalogue
    try:
        return catalogue_values(fam.game_quantities(idx, games, rounds), cat, len(idx))
    except MissingQuantity as exc:
        raise MissingQuantity(f"{fam.NAME}: {exc}".replace(
            " (simcore.testing.check_family names the family)", "")) from None


def chunk_stats(fam, task: ChunkTask) -> ChunkResult:
    """Play games ``task.start .. task.stop - 1`` of every variant of a family's scenarios and
    return their sums (pure: game i of a variant depends on (seed, i) alone; see
    :func:`play_chunk`). ``functools.partial(chunk_stats, fam)`` pickles as the family's module."""
    return play_chunk(task, functools.partial(simulator_for, fam), len(fam.CATALOGUE),
                      functools.partial(game_values, fam), fam.SIMULATOR.HISTOGRAMS,
                      functools.partial(_extras, fam),
                      fam.luck_controls if fam.LUCK_CONTROLS else None, fam.LUCK_CONTROLS)


def _extras(fam, extras: dict, idx, num, batch, data: dict, first_chunk: bool, den=None) -> None:
    """One variant's histograms (the simulator's ``HISTOGRAMS``), example games per metric,
    (chunk 0) score trajectories, the ``BREAKDOWN_METRICS`` by each of ``BREAKDOWNS`` and the
    ``point_sources``' sums, appended to ``extras``."""
    from simcore.stats import domains
    if fam.BREAKDOWNS and den is not None:
        names = [m.name for m in fam.CATALOGUE]
        js = [names.index(m) for m in fam.BREAKDOWN_METRICS]
        codes = fam.breakdown_codes(idx, batch.games, batch.rounds)
        extras.setdefault("strata", []).append(
            {b: domains.ratio_sums(num[:, js], den[:, js], codes[b], len(labels)).tolist()
             for b, (_, labels) in fam.BREAKDOWNS.items()})
    sources = fam.point_sources(idx, batch, data)
    if sources is not None:
        rows, x, fired, wins, total = sources
        zero = np.zeros(len(idx), np.int64)

        def per(values, of):
            return domains.ratio_sums(values, np.repeat(of[:, None], x.shape[1], 1), zero,
                                      1)[0].tolist()
        part = {"fired": per(fired, wins), "per_win": per(x, wins), "of_all": per(x, total),
                "rows": rows if first_chunk else None}
        reach = fam.yaku_reach(idx, batch, data)
        if reach is not None:
            measured, reached, completed, hands = reach
            part["within_reach"] = per(reached, hands)
            part["completed"] = domains.ratio_sums(completed, reached, zero, 1)[0].tolist()
            part["measured"] = [bool(m) for m in measured] if first_chunk else None
        extras.setdefault("points", []).append(part)
    sim = fam.SIMULATOR
    for name, values in sim.histogram_values(batch).items():
        if name not in sim.HISTOGRAMS:
            raise KeyError(f"{fam.NAME}: the simulator counts histogram {name!r}, which its "
                           f"HISTOGRAMS does not declare")
        extras["hist"][name].append(bincount(values, sim.HISTOGRAMS[name][2]))
    extras["examples"].append(examples(idx, num))
    if first_chunk:
        extras["trajectories"].append(sim.trajectories(idx, batch, data))


def rounds_played(fam, sums, v: int = 0) -> int:
    """Rounds in ``sums`` (variant v), for rounds/s: the numerator of the family's
    ``ROUNDS_METRIC`` (0 where the catalogue lacks it: a tournament's cut one)."""
    from simcore.stats.luck import plain
    names = [m.name for m in fam.CATALOGUE]
    if fam.ROUNDS_METRIC not in names:
        return 0
    return int(plain(sums).s[names.index(fam.ROUNDS_METRIC), 2 * v])   # a count, not corrected


def run_games(fam, scenario, games: int, seed: int, workers: int = 0, debug: bool = False,
              progress=None) -> Batch:
    """The records of games 0..games-1 of ``scenario``, played in chunks (memory grows with
    ``games``); they do not depend on ``workers``."""
    step = chunk_games_for([scenario])
    tasks = [ChunkTask((scenario.to_dict(),), (seed,), s, min(s + step, games), debug, True)
             for s in range(0, games, step)]
    n_workers, _ = clamp_workers(workers, len(tasks))
    parts = []
    with ChunkRunner(n_workers) as runner:
        for res in runner.map(functools.partial(chunk_stats, fam), tasks,
                              progress and (lambda t, r: progress(t.stop - t.start))):
            parts.append(res.batches[0])
    return Batch(np.concatenate([p.games for p in parts]),
                 np.concatenate([p.rounds for p in parts]))

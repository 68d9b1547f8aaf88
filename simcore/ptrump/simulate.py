"""Running ptrump matches: the Python side of the engine (allocation, the chunk function, replay).

:class:`Simulator` builds everything the compiled engine needs for one scenario once (rules
array, hand-rules array, seat policies and parameters) and plays matches by index;
:func:`chunk_stats` is the pure function a worker (or a remote task) runs on a
:class:`simcore.study.ChunkTask`, as :mod:`simcore.momojan.simulate`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..parallel import ChunkRunner, clamp_workers
from ..stats import MomentSums
from ..study import ChunkResult, ChunkTask
from .engine import (
    GF_ROUNDS, MAX_EVENTS, N_GF, N_RF, OUT_DRAW, RF_GAME, RF_OUTCOME, RF_SCORE0, RF_VALUE0,
    RF_WINNERS, ST_LOG, ST_N_EV, new_round_state, play_matches,
)
from .layout import MAX_SEATS
from .metrics import CATALOGUE, game_values
from .rules_array import RA_MAX_ROUNDS, build_hand_rules, build_rules_array

CHUNK_GAMES = 2000

# Histograms every chunk accumulates (name -> (what is counted, per what, bins: values 0 ..
# bins - 2, the last bin holds everything larger)); examples kept per metric and chunk; score
# trajectories of the first matches (chunk 0).
HISTOGRAMS = {"winning_value": ("points per win", "wins", 41),
              "rounds_per_match": ("rounds per match", "games", 61)}
EXAMPLES_PER_METRIC = 3
TRAJECTORY_GAMES = 6


@dataclass
class Batch:
    """Records of a set of matches, in match order."""

    games: np.ndarray   # int64[n_games, N_GF] (engine.GAME_FIELDS)
    rounds: np.ndarray  # int64[n_rounds, N_RF] (engine.ROUND_FIELDS)


class Simulator:
    """Everything the compiled engine needs for one scenario, built once."""

    def __init__(self, scenario):
        from .bots import MAX_PARAMS, POLICY_IDS, param_row
        self.scenario = scenario
        self.ra = build_rules_array(scenario)
        self.hr = build_hand_rules(scenario)
        seats = scenario["players"]
        self.n = len(seats)
        self.policy_ids = np.zeros(MAX_SEATS, np.int64)
        self.params = np.zeros((MAX_SEATS, MAX_PARAMS), np.float64)
        for i, s in enumerate(seats):
            self.policy_ids[i] = POLICY_IDS[s["policy"]]
            vals = param_row(s["policy"], s.get("params") or {})
            self.params[i, :len(vals)] = vals

    def play(self, game_indices, seed: int, debug: bool = False) -> Batch:
        """The records of matches ``game_indices`` (each depends on (seed, index) alone)."""
        idx = np.asarray(game_indices, np.int64)
        rs = new_round_state(False)
        games = np.zeros((len(idx), N_GF), np.int64)
        cap = max(32 * len(idx), 256)
        while True:
            rounds = np.zeros((cap, N_RF), np.int64)
            n = play_matches(idx, np.uint64(seed), rs, self.ra, self.hr, self.n,
                             self.policy_ids, self.params, debug, rounds, games)
            if n >= 0:
                return Batch(games, rounds[:n].copy())
            cap *= 4

    def replay_events(self, seed: int, game: int) -> tuple[np.ndarray, Batch]:
        """The event log of one match (for ``replay``), and its records."""
        rs = new_round_state(True)
        rs.st[ST_LOG] = 1
        games = np.zeros((1, N_GF), np.int64)
        rounds = np.zeros((int(self.ra[RA_MAX_ROUNDS]) + 1, N_RF), np.int64)
        n = play_matches(np.array([game], np.int64), np.uint64(seed), rs, self.ra, self.hr,
                         self.n, self.policy_ids, self.params, True, rounds, games)
        if n < 0:
            raise InputError(f"game {game} has more rounds than a replay holds")
        n_ev = int(rs.st[ST_N_EV])
        if n_ev >= MAX_EVENTS:
            raise InputError(f"game {game} is longer than the replay log holds "
                             f"({MAX_EVENTS} events)")
        return rs.ev[:n_ev].copy(), Batch(games, rounds[:n].copy())


# ---------------------------------------------------------------------------------------------
# Chunks: the pure function a worker (or a remote task) runs
# ---------------------------------------------------------------------------------------------

_SIMULATORS: dict = {}
_MAX_SIMULATORS = 64


def simulator_for(data: dict) -> Simulator:
    """The Simulator of a resolved scenario's data, built once per process."""
    key = repr(data)
    sim = _SIMULATORS.get(key)
    if sim is None:
        from . import scenario as scenario_mod
        if len(_SIMULATORS) >= _MAX_SIMULATORS:
            _SIMULATORS.clear()
        sim = _SIMULATORS[key] = Simulator(scenario_mod.from_dict(
            data, name=data.get("name") or "inline"))
    return sim


def chunk_stats(task: ChunkTask) -> ChunkResult:
    """Play matches ``task.start .. task.stop - 1`` of every variant and return their sums.

    Pure: match i of a variant depends on (seed, i) only. Variant v's per-match numerators and
    denominators of every catalogue metric are components 2v and 2v + 1 of the
    :class:`simcore.stats.MomentSums`; records come back only when ``task.records`` is set.
    """
    idx = np.arange(task.start, task.stop, dtype=np.int64)
    k = len(CATALOGUE)
    z = np.empty((len(idx), k, 2 * len(task.variants)), np.int64)
    batches = []
    extras = {"hist": {name: [] for name in HISTOGRAMS}, "examples": [], "trajectories": []}
    for v, (data, seed) in enumerate(zip(task.variants, task.seeds)):
        batch = simulator_for(data).play(idx, seed, task.debug)
        z[:, :, 2 * v], z[:, :, 2 * v + 1] = game_values(idx, batch.games, batch.rounds)
        _extras(extras, idx, z[:, :, 2 * v], batch, data, task.start == 0)
        if task.records:
            batches.append(batch if task.round_records else Batch(batch.games, batch.rounds[:0]))
    return ChunkResult(task.start, task.stop, MomentSums.from_values(z),
                       tuple(batches) if task.records else None, extras)


def _bincount(values, bins: int) -> list:
    return np.bincount(np.clip(values, 0, bins - 1), minlength=bins).tolist()


def _extras(extras: dict, idx, num, batch: Batch, data: dict, first_chunk: bool) -> None:
    """One variant's histograms, example matches per metric and (chunk 0) score trajectories."""
    r = batch.rounds
    wins = r[r[:, RF_OUTCOME] != OUT_DRAW]
    vals = [wins[((wins[:, RF_WINNERS] >> s) & 1) != 0, RF_VALUE0 + s] for s in range(MAX_SEATS)]
    extras["hist"]["winning_value"].append(
        _bincount(np.concatenate(vals).astype(np.int64), HISTOGRAMS["winning_value"][2]))
    extras["hist"]["rounds_per_match"].append(
        _bincount(batch.games[:, GF_ROUNDS], HISTOGRAMS["rounds_per_match"][2]))
    ex = []
    for j in range(num.shape[1]):
        hit = np.flatnonzero(num[:, j] > 0)[:EXAMPLES_PER_METRIC]
        ex.append(idx[hit].tolist())
    extras["examples"].append(ex)
    if first_chunk:
        n = len(data["players"])
        start = int(data["match"]["start_score"])
        traj = []
        for g in idx[:TRAJECTORY_GAMES]:
            rows = r[r[:, RF_GAME] == g]
            traj.append({"game": int(g), "scores": [[start] * n]
                         + rows[:, RF_SCORE0:RF_SCORE0 + n].tolist()})
        extras["trajectories"].append(traj)


def run_games(scenario, games: int, seed: int, workers: int = 0, debug: bool = False,
              progress=None) -> Batch:
    """The records of matches 0..games-1 of ``scenario``; they do not depend on ``workers``."""
    tasks = [ChunkTask((scenario.to_dict(),), (seed,), s, min(s + CHUNK_GAMES, games), debug, True)
             for s in range(0, games, CHUNK_GAMES)]
    n_workers, _ = clamp_workers(workers, len(tasks))
    parts = []
    with ChunkRunner(n_workers) as runner:
        for res in runner.map(chunk_stats, tasks,
                              progress and (lambda t, r: progress(t.stop - t.start))):
            parts.append(res.batches[0])
    return Batch(np.concatenate([p.games for p in parts]),
                 np.concatenate([p.rounds for p in parts]))

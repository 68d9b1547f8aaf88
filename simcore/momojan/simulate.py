"""Running games: the Python side of the engine (allocation, the chunk function, replay logs)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..parallel import ChunkRunner, clamp_workers
from ..stats import MomentSums
from ..study import ChunkResult, ChunkTask
from .engine import (
    GF_ROUNDS, MAX_EVENTS, N_GF, N_RF, OUT_DRAW, RF_GAME, RF_OUTCOME, RF_POINTS, RF_SCORE0,
    RF_SCORE1, build_engine_tables, new_round_state, play_games, ST_N_EV, ST_LOG,
)
from .hand import build_hand_tables
from .metrics import CATALOGUE, game_values
from .rules_array import build_rules_array

MAX_PARAMS = 16
CHUNK_GAMES = 2000

# Histograms every chunk accumulates (name -> (what is counted, per what, bins: values 0 ..
# bins - 2, the last bin holds everything larger)); examples kept per metric and chunk; score
# trajectories of the first games (chunk 0).
HISTOGRAMS = {"winning_points": ("points paid per win", "wins", 65),
              "rounds_per_game": ("rounds per game", "games", 41)}
EXAMPLES_PER_METRIC = 3
TRAJECTORY_GAMES = 6


@dataclass
class Batch:
    """Records of a set of games, in game order."""

    games: np.ndarray   # int64[n_games, N_GF] (engine.GAME_FIELDS)
    rounds: np.ndarray  # int64[n_rounds, N_RF] (engine.ROUND_FIELDS)


class Simulator:
    """Everything the compiled engine needs for one scenario, built once."""

    def __init__(self, scenario):
        from policies.registry import POLICY_IDS, param_row
        self.scenario = scenario
        self.ra = build_rules_array(scenario)
        self.T = build_hand_tables(scenario.hand_rules)
        self.ET = build_engine_tables(self.T, scenario.hand_rules)
        seats = scenario["players"]
        self.policy_ids = np.array([POLICY_IDS[s["policy"]] for s in seats], np.int64)
        self.params = np.zeros((2, MAX_PARAMS), np.float64)
        for i, s in enumerate(seats):
            vals = param_row(s["policy"], s["params"])  # declared order (policies.registry)
            self.params[i, :len(vals)] = vals

    def play(self, game_indices, seed: int, debug: bool = False) -> Batch:
        idx = np.asarray(game_indices, np.int64)
        rs = new_round_state(False)
        games = np.zeros((len(idx), N_GF), np.int64)
        cap = max(16 * len(idx), 64)
        while True:
            rounds = np.zeros((cap, N_RF), np.int64)
            n = play_games(idx, np.uint64(seed), rs, self.ET, self.ra, self.T, self.policy_ids,
                           self.params, debug, rounds, games)
            if n >= 0:
                return Batch(games, rounds[:n].copy())
            cap *= 4

    def replay_events(self, seed: int, game: int) -> tuple[np.ndarray, Batch]:
        """The event log of one game (for ``replay``), and its records."""
        rs = new_round_state(True)
        rs.st[ST_LOG] = 1
        games = np.zeros((1, N_GF), np.int64)
        rounds = np.zeros((1024, N_RF), np.int64)
        n = play_games(np.array([game], np.int64), np.uint64(seed), rs, self.ET, self.ra, self.T,
                       self.policy_ids, self.params, True, rounds, games)
        n_ev = rs.st[ST_N_EV]
        if n_ev >= MAX_EVENTS:
            raise InputError(f"game {game} is longer than the replay log holds")
        return rs.ev[:n_ev].copy(), Batch(games, rounds[:n].copy())


# ---------------------------------------------------------------------------------------------
# Chunks: the pure function a worker (or a remote task) runs
# ---------------------------------------------------------------------------------------------

# Simulators built in this process, by resolved scenario (a sweep's worker plays every variant
# of each chunk, so all of them stay built).
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
        sim = _SIMULATORS[key] = Simulator(scenario_mod.from_dict(data, name=data.get("name")
                                                                  or "inline"))
    return sim


def chunk_stats(task: ChunkTask) -> ChunkResult:
    """Play games ``task.start .. task.stop - 1`` of every variant and return their sums.

    Pure: the result depends on the task alone (game i of a variant depends on (seed, i) only),
    so chunks can run anywhere, in any order, be stored and merged. Variant v's per-game
    numerators and denominators of every catalogue metric become components 2v and 2v + 1 of
    :class:`simcore.stats.MomentSums`; the records themselves are returned only when
    ``task.records`` is set.
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
            batches.append(batch if task.round_records
                           else Batch(batch.games, batch.rounds[:0]))
    return ChunkResult(task.start, task.stop, MomentSums.from_values(z),
                       tuple(batches) if task.records else None, extras)


def _bincount(values, bins: int) -> list:
    return np.bincount(np.clip(values, 0, bins - 1), minlength=bins).tolist()


def _extras(extras: dict, idx, num, batch: Batch, data: dict, first_chunk: bool) -> None:
    """One variant's histograms, example games per metric and (chunk 0) score trajectories."""
    r = batch.rounds
    wins = r[r[:, RF_OUTCOME] != OUT_DRAW]
    extras["hist"]["winning_points"].append(_bincount(wins[:, RF_POINTS],
                                                      HISTOGRAMS["winning_points"][2]))
    extras["hist"]["rounds_per_game"].append(_bincount(batch.games[:, GF_ROUNDS],
                                                       HISTOGRAMS["rounds_per_game"][2]))
    ex = []
    for j in range(num.shape[1]):
        hit = np.flatnonzero(num[:, j] > 0)[:EXAMPLES_PER_METRIC]
        ex.append(idx[hit].tolist())
    extras["examples"].append(ex)
    if first_chunk:
        start = int(data["starting_points"])
        traj = []
        for g in idx[:TRAJECTORY_GAMES]:
            rows = r[r[:, RF_GAME] == g]
            traj.append({"game": int(g), "scores": [[start, start]]
                         + rows[:, [RF_SCORE0, RF_SCORE1]].tolist()})
        extras["trajectories"].append(traj)


def run_games(scenario, games: int, seed: int, workers: int = 0, debug: bool = False,
              progress=None) -> Batch:
    """The records of games 0..games-1 of ``scenario`` (memory grows with ``games``: for
    statistics use :func:`simcore.study.run_study`, which streams). The records do not depend
    on ``workers`` (each game's randomness comes from (seed, game index) alone)."""
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

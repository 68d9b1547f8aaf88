"""Running games: the Python side of the engine (allocation, the chunk function, replay logs)."""

from __future__ import annotations

import numpy as np

from .. import simulate_common as _common
from ..errors import InputError
from ..simulate_common import (  # noqa: F401  (CHUNK_GAMES etc.: this module's API too)
    CHUNK_GAMES, EXAMPLES_PER_METRIC, TRAJECTORY_GAMES, Batch, bincount as _bincount,
)
from ..study import ChunkResult, ChunkTask
from .engine import (
    GF_ROUNDS, MAX_EVENTS, N_GF, N_RF, OUT_DRAW, RF_GAME, RF_OUTCOME, RF_POINTS, RF_SCORE0,
    RF_SCORE1, build_engine_tables, new_round_state, play_games, ST_N_EV, ST_LOG,
)
from .hand import build_hand_tables
from .metrics import CATALOGUE, game_values
from .rules_array import build_rules_array

MAX_PARAMS = 16
# Histograms every chunk accumulates (name -> (what is counted, per what, bins: values 0 ..
# bins - 2, the last bin holds everything larger)); examples kept per metric and chunk; score
# trajectories of the first games (chunk 0).
HISTOGRAMS = {"winning_points": ("points paid per win", "wins", 65),
              "rounds_per_game": ("rounds per game", "games", 41)}


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


def simulator_for(data: dict) -> Simulator:
    """The Simulator of a resolved scenario's data, built once per process."""
    return _common.cached_simulator(_SIMULATORS, data, _build_simulator)


def _build_simulator(data: dict) -> Simulator:
    from . import scenario as scenario_mod
    return Simulator(scenario_mod.from_dict(data, name=data.get("name") or "inline"))


def chunk_stats(task: ChunkTask) -> ChunkResult:
    """Play games ``task.start .. task.stop - 1`` of every variant and return their sums.

    Pure: the result depends on the task alone (game i of a variant depends on (seed, i) only),
    so chunks can run anywhere, in any order, be stored and merged. Variant v's per-game
    numerators and denominators of every catalogue metric become components 2v and 2v + 1 of
    :class:`simcore.stats.MomentSums`; the records themselves are returned only when
    ``task.records`` is set.
    """
    return _common.chunk_stats(task, simulator_for, len(CATALOGUE), game_values, HISTOGRAMS,
                               _extras)


def _extras(extras: dict, idx, num, batch: Batch, data: dict, first_chunk: bool) -> None:
    """One variant's histograms, example games per metric and (chunk 0) score trajectories."""
    r = batch.rounds
    wins = r[r[:, RF_OUTCOME] != OUT_DRAW]
    extras["hist"]["winning_points"].append(_bincount(wins[:, RF_POINTS],
                                                      HISTOGRAMS["winning_points"][2]))
    extras["hist"]["rounds_per_game"].append(_bincount(batch.games[:, GF_ROUNDS],
                                                       HISTOGRAMS["rounds_per_game"][2]))
    extras["examples"].append(_common.examples(idx, num))
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
    return _common.run_games(scenario, games, seed, workers, debug, progress, chunk_stats)

"""Running ptrump matches: the Python side of the engine (allocation, the chunk function, replay).

:class:`Simulator` builds everything the compiled engine needs for one scenario once (rules
array, hand-rules array, seat policies and parameters) and plays matches by index;
:func:`chunk_stats` is the pure function a worker (or a remote task) runs on a
:class:`simcore.study.ChunkTask`, as :mod:`simcore.momojan.simulate`'s.
"""

from __future__ import annotations

import numpy as np

from .. import simulate_common as _common
from ..errors import InputError
from ..simulate_common import (  # noqa: F401  (CHUNK_GAMES etc.: this module's API too)
    CHUNK_GAMES, EXAMPLES_PER_METRIC, TRAJECTORY_GAMES, Batch, bincount as _bincount,
)
from ..study import ChunkResult, ChunkTask
from .engine import (
    GF_ROUNDS, MAX_EVENTS, N_GF, N_RF, OUT_DRAW, RF_GAME, RF_OUTCOME, RF_SCORE0, RF_VALUE0,
    RF_WINNERS, ST_LOG, ST_N_EV, new_round_state, play_matches,
)
from .layout import MAX_SEATS
from .metrics import CATALOGUE, game_values
from .rules_array import RA_MAX_ROUNDS, build_hand_rules, build_rules_array

# Histograms every chunk accumulates (name -> (what is counted, per what, bins: values 0 ..
# bins - 2, the last bin holds everything larger)); examples kept per metric and chunk; score
# trajectories of the first matches (chunk 0).
HISTOGRAMS = {"winning_value": ("points per win", "wins", 41),
              "rounds_per_match": ("rounds per match", "games", 61)}


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


def simulator_for(data: dict) -> Simulator:
    """The Simulator of a resolved scenario's data, built once per process."""
    return _common.cached_simulator(_SIMULATORS, data, _build_simulator)


def _build_simulator(data: dict) -> Simulator:
    from . import scenario as scenario_mod
    return Simulator(scenario_mod.from_dict(data, name=data.get("name") or "inline"))


def chunk_stats(task: ChunkTask) -> ChunkResult:
    """Play matches ``task.start .. task.stop - 1`` of every variant and return their sums.

    Pure: match i of a variant depends on (seed, i) only. Variant v's per-match numerators and
    denominators of every catalogue metric are components 2v and 2v + 1 of the
    :class:`simcore.stats.MomentSums`; records come back only when ``task.records`` is set.
    """
    return _common.chunk_stats(task, simulator_for, len(CATALOGUE), game_values, HISTOGRAMS,
                               _extras)


def _extras(extras: dict, idx, num, batch: Batch, data: dict, first_chunk: bool) -> None:
    """One variant's histograms, example matches per metric and (chunk 0) score trajectories."""
    r = batch.rounds
    wins = r[r[:, RF_OUTCOME] != OUT_DRAW]
    vals = [wins[((wins[:, RF_WINNERS] >> s) & 1) != 0, RF_VALUE0 + s] for s in range(MAX_SEATS)]
    extras["hist"]["winning_value"].append(
        _bincount(np.concatenate(vals).astype(np.int64), HISTOGRAMS["winning_value"][2]))
    extras["hist"]["rounds_per_match"].append(
        _bincount(batch.games[:, GF_ROUNDS], HISTOGRAMS["rounds_per_match"][2]))
    extras["examples"].append(_common.examples(idx, num))
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
    return _common.run_games(scenario, games, seed, workers, debug, progress, chunk_stats)

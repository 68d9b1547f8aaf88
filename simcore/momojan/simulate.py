"""Running games: the Python side of the engine (allocation, chunking, workers, replay logs)."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .engine import (
    MAX_EVENTS, N_GF, N_RF, build_engine_tables, new_round_state, play_games, ST_N_EV, ST_LOG,
)
from .hand import build_hand_tables
from .rules_array import build_rules_array

MAX_PARAMS = 16
CHUNK_GAMES = 2000


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


# Worker processes: each builds its Simulator once.
_WORKER = {}


def _worker_play(args):
    scenario_path, scenario_dict, idx, seed, debug = args
    key = (scenario_path, repr(scenario_dict))
    if key not in _WORKER:
        from . import scenario as scenario_mod
        sc = scenario_mod.from_dict(scenario_dict) if scenario_path is None \
            else scenario_mod.load(scenario_path)
        _WORKER.clear()
        _WORKER[key] = Simulator(sc)
    return _WORKER[key].play(idx, seed, debug)


def run_games(scenario, games: int, seed: int, workers: int = 0, debug: bool = False,
              progress=None) -> Batch:
    """Play games 0..games-1 of ``scenario`` with ``seed``; the records do not depend on
    ``workers`` (each game's randomness comes from (seed, game index) alone)."""
    chunks = [np.arange(s, min(s + CHUNK_GAMES, games)) for s in range(0, games, CHUNK_GAMES)]
    workers = workers or os.cpu_count() or 1
    workers = min(workers, len(chunks))
    parts = []
    if workers <= 1:
        sim = Simulator(scenario)
        for c in chunks:
            parts.append(sim.play(c, seed, debug))
            if progress:
                progress(len(c))
    else:
        data = scenario.to_dict()
        args = [(None, data, c, seed, debug) for c in chunks]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for c, part in zip(chunks, pool.map(_worker_play, args)):
                parts.append(part)
                if progress:
                    progress(len(c))
    return Batch(np.concatenate([p.games for p in parts]),
                 np.concatenate([p.rounds for p in parts]))

"""Running P-style matches: the simulator (what the compiled engine needs for one scenario) and
the histograms and score trajectories a chunk keeps besides its sums."""

from __future__ import annotations

import numpy as np

from policies.ptrump import POLICIES

from ..family.chunks import Simulator as _Simulator
from .engine import (
    GAME_FIELDS, GF_ROUNDS, MAX_EVENTS, OUT_DRAW, RF_OUTCOME, RF_VALUE0,
    RF_WINNERS, ROUND_FIELDS, ST_LOG, ST_N_EV, new_round_state,
)
from .layout import MAX_SEATS
from .rules_array import RA_MATCH_MAX_ROUNDS, build_hand_rules, build_rules_array


class Simulator(_Simulator):
    """Everything the compiled engine needs for one scenario, built once."""

    GAME_FIELDS, ROUND_FIELDS = GAME_FIELDS, ROUND_FIELDS
    ST_LOG, ST_N_EV, MAX_EVENTS = ST_LOG, ST_N_EV, MAX_EVENTS
    ROUND_SCORE0, START_SCORE = "score0", "match.start_score"   # the kit's trajectories
    # what a chunk counts besides its sums: see the base's HISTOGRAMS
    HISTOGRAMS = {"winning_value": ("points per win", "wins", 41),
                  "rounds_per_match": ("rounds per match", "games", 61)}
    ROUNDS_PER_GAME, MIN_ROUND_ROWS = 32, 256
    KERNEL = "simcore.ptrump.engine.play_matches"
    SEARCH_KERNEL = "simcore.ptrump.search.play_matches_search"
    POLICIES, MAX_SEATS = POLICIES, MAX_SEATS

    def __init__(self, scenario):
        super().__init__(scenario)
        self.ra = build_rules_array(scenario)
        self.hr = build_hand_rules(scenario)
        self.n = len(scenario["players"])

    def new_state(self, log: bool):
        return new_round_state(log)

    def policy_tables(self) -> tuple:
        return self.hr, self.ra

    def kernel_inputs(self, debug) -> tuple:
        return self.ra, self.hr, self.n, self.policy_ids, self.params, debug

    def replay_rounds(self) -> int:
        return int(self.ra[RA_MATCH_MAX_ROUNDS]) + 1

    @staticmethod
    def histogram_values(batch) -> dict:
        r = batch.rounds
        wins = r[r[:, RF_OUTCOME] != OUT_DRAW]
        vals = [wins[((wins[:, RF_WINNERS] >> s) & 1) != 0, RF_VALUE0 + s] for s in range(MAX_SEATS)]
        return {"winning_value": np.concatenate(vals).astype(np.int64),
                "rounds_per_match": batch.games[:, GF_ROUNDS]}


"""Running MOMOJAN games: the simulator (what the compiled engine needs for one scenario) and
the histograms and score trajectories a chunk keeps besides its sums."""

from __future__ import annotations

from policies.momojan import MAX_PARAMS, POLICIES  # noqa: F401  (MAX_PARAMS: tests read it here)

from ..family.chunks import Simulator as _Simulator
from .engine import (
    GAME_FIELDS, GF_ROUNDS, MAX_EVENTS, OUT_DRAW, RF_OUTCOME, RF_POINTS, ROUND_FIELDS, ST_LOG,
    ST_N_EV, build_engine_tables, new_round_state,
)
from .tables import build_hand_tables
from .rules_array import build_rules_array


class Simulator(_Simulator):
    """Everything the compiled engine needs for one scenario, built once."""

    GAME_FIELDS, ROUND_FIELDS = GAME_FIELDS, ROUND_FIELDS
    ST_LOG, ST_N_EV, MAX_EVENTS = ST_LOG, ST_N_EV, MAX_EVENTS
    ROUND_SCORE0, START_SCORE = "score0", "starting_points"   # the kit's trajectories
    KERNEL = "simcore.momojan.engine.play_games"
    SEARCH_KERNEL = "simcore.momojan.search.play_games_search"
    POLICIES, MAX_SEATS = POLICIES, 2
    # what a chunk counts besides its sums: see the base's HISTOGRAMS
    HISTOGRAMS = {"winning_points": ("points paid per win", "wins", 65),
                  "rounds_per_game": ("rounds per game", "games", 41)}

    def __init__(self, scenario):
        super().__init__(scenario)
        self.ra = build_rules_array(scenario)
        self.T = build_hand_tables(scenario.hand_rules)
        self.ET = build_engine_tables(self.T, scenario.hand_rules)

    def policy_tables(self) -> tuple:
        return self.T.core, self.ra

    def new_state(self, log: bool):
        return new_round_state(log)

    def kernel_inputs(self, debug) -> tuple:
        return self.ET, self.ra, self.T, self.policy_ids, self.params, debug

    @staticmethod
    def histogram_values(batch) -> dict:
        r = batch.rounds
        return {"winning_points": r[r[:, RF_OUTCOME] != OUT_DRAW][:, RF_POINTS],
                "rounds_per_game": batch.games[:, GF_ROUNDS]}


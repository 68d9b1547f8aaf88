"""Chunks of emoji games around the compiled engine: the family's :class:`Simulator` (kit:
:mod:`simcore.family.chunks`)."""

from __future__ import annotations

import numpy as np

from ..family import chunks
from . import engine as E
from .hand import tables
from .rules_array import from_scenario, scoring_from_scenario


class Simulator(chunks.Simulator):
    ENGINE, ROUNDS_PER_GAME = E, 12
    HISTOGRAMS = {"winning_value": ("value per win, in hundreds of chips", "wins", 41),
                  "rounds_per_game": ("rounds per game", "games", 13)}
    VALUE_BIN = 100   # winning_value bins of 100 chips

    def __init__(self, scenario):
        super().__init__(scenario)
        from policies.emoji import POLICIES
        self.ra = from_scenario(scenario)
        self.sr = scoring_from_scenario(scenario)
        self.t = tables(scenario.get("shapes.wrap_runs"))
        self.policy_ids, self.params = POLICIES.seat_arrays(scenario["players"], E.N_SEATS)

    def policy_tables(self) -> tuple:
        return self.t, self.ra

    def kernel(self, idx, seed, state, debug, rounds, games) -> int:
        return E.play_games(idx, seed, state, self.ra, self.sr, self.t, self.policy_ids,
                            self.params, debug, rounds, games)

    @classmethod
    def histogram_values(cls, batch) -> dict:
        r = batch.rounds
        won = np.stack([(r[:, E.RF_WINNERS] >> s) & 1 for s in range(E.N_SEATS)], axis=1)
        values = r[:, E.RF_VALUE0:E.RF_VALUE0 + E.N_SEATS][won.astype(bool)]
        return {"winning_value": values // cls.VALUE_BIN,
                "rounds_per_game": batch.games[:, E.GF_ROUNDS]}

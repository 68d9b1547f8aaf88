"""Chunks of emoji games around the compiled engine: the family's :class:`Simulator` (kit:
:mod:`simcore.family.chunks`)."""

from __future__ import annotations

from policies.emoji import POLICIES

from ..family import chunks
from ..family.metrics import seat_bits
from . import engine as E
from .hand import tables
from .rules_array import from_scenario, scoring_from_scenario


class Simulator(chunks.Simulator):
    ENGINE, ROUNDS_PER_GAME, KERNEL = E, 12, "simcore.emoji.engine.play_games"
    SEARCH_KERNEL = "simcore.emoji.search.play_games_search"
    POLICIES, MAX_SEATS = POLICIES, E.N_SEATS
    HISTOGRAMS = {"winning_value": ("value per win, in hundreds of chips", "wins", 41),
                  "rounds_per_game": ("rounds per game", "games", 13)}
    VALUE_BIN = 100   # winning_value bins of 100 chips

    def __init__(self, scenario):
        super().__init__(scenario)
        self.ra = from_scenario(scenario)
        self.sr = scoring_from_scenario(scenario)
        self.t = tables(scenario.get("shapes.wrap_runs"))

    def policy_tables(self) -> tuple:
        return self.t, self.ra

    def kernel_inputs(self, debug) -> tuple:
        return self.ra, self.sr, self.t, self.policy_ids, self.params, debug

    @classmethod
    def histogram_values(cls, batch) -> dict:
        r = batch.rounds
        values = r[:, E.RF_VALUE0:E.RF_VALUE0 + E.N_SEATS][seat_bits(r[:, E.RF_WINNERS],
                                                                      E.N_SEATS)]
        return {"winning_value": values // cls.VALUE_BIN,
                "rounds_per_game": batch.games[:, E.GF_ROUNDS]}

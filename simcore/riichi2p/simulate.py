"""Chunks of riichi2p games around the compiled engine: the family's :class:`Simulator` (kit:
:mod:`simcore.family.chunks`)."""

from __future__ import annotations

from policies.riichi2p import POLICIES

from ..family import chunks
from . import engine as E
from .hand import tables
from .rules_array import from_scenario, scoring_from_scenario


class Simulator(chunks.Simulator):
    ENGINE, ROUNDS_PER_GAME = E, 16
    HISTOGRAMS = {"winning_pay": ("points lost per win, in thousands", "wins", 50),
                  "hands_per_game": ("hands per game", "games", 61)}

    KERNEL = "simcore.riichi2p.engine.play_games"
    SEARCH_KERNEL = "simcore.riichi2p.search.play_games_search"
    POLICIES, MAX_SEATS = POLICIES, E.N_SEATS

    def __init__(self, scenario):
        super().__init__(scenario)
        self.ra = from_scenario(scenario)
        self.sr = scoring_from_scenario(scenario)
        self.ts, self.th = tables()

    def policy_tables(self) -> tuple:
        return self.ts, self.th

    def kernel_inputs(self, debug) -> tuple:
        return self.sr, self.ra, self.ts, self.th, self.policy_ids, self.params, debug

    def replay_rounds(self) -> int:
        return int(self.ra[E.RA_MAX_HANDS]) + 1

    @staticmethod
    def histogram_values(batch) -> dict:
        r = batch.rounds
        won = r[:, E.RF_OUTCOME] <= E.OUT_RON
        return {"winning_pay": r[won, E.RF_PAY] // 1000,
                "hands_per_game": batch.games[:, E.GF_ROUNDS]}

    @staticmethod
    def trajectories(idx, batch, data: dict) -> list:
        out = []
        for i, g in enumerate(idx[:chunks.TRAJECTORY_GAMES]):
            rows = batch.rounds[batch.rounds[:, E.RF_GAME] == g]
            start = data["start_points"]
            first = int(batch.games[i, E.GF_FIRST_DEALER])
            s0 = [start[0] if first == 0 else start[1], start[1] if first == 0 else start[0]]
            pts = [s0] + [[int(r[E.RF_SCORE0]), int(r[E.RF_SCORE1])] for r in rows]
            out.append({"game": int(g), "scores": pts})
        return out

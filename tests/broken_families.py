"""Deliberately broken variants of the fake family (tests/fake_family.py): each makes one mistake
a new contributor's family made while the conformance check still passed (issue 47), and
tests/harness/test_conformance_catches.py shows the check (or the harness) naming it.

This module is also a stand-in bots package (``P_*`` constants and a ``decide``) whose ``decide``
forgets a registered policy, the way a new bot was once added to the registry only.
"""

from __future__ import annotations

import numba
import numpy as np

import fake_family
from fake_family import FakeFamily, FakeSimulator, MAX_SEATS, STRENGTH
from simcore.family.chunks import Simulator
from simcore.family.metrics import Metric

# ---- 1. a bot without a branch ------------------------------------------------------------------
POLICIES = fake_family.POLICIES
P_WEAK, P_MEDIUM = POLICIES.id("weak"), POLICIES.id("medium")   # no P_STRONG


def weak_policy(obs):
    return 0


def medium_policy(obs):
    return 1


def fallback_policy(obs):
    return -1


def decide(policy_id, obs):
    """The bots of the fake family, as a compiled family writes them; "strong" was registered
    and never given a branch, so its seats play the fallback."""
    if policy_id == P_WEAK:
        return weak_policy(obs)
    if policy_id == P_MEDIUM:
        return medium_policy(obs)
    return fallback_policy(obs)


class StrongPlaysWeak(FakeSimulator):
    """The simulator's view of that mistake: a "strong" seat gets the fallback (weak) play."""

    def __init__(self, scenario):
        super().__init__(scenario)
        self.strength = np.array([STRENGTH["weak" if p["policy"] == "strong" else p["policy"]]
                                  for p in scenario["players"]])


class FallbackBots(FakeFamily):
    SIMULATOR = StrongPlaysWeak


# ---- 2. a replay that loses information -------------------------------------------------------
class LossyReplay(FakeFamily):
    """The replay rebuilds the scores from its own log, which forgot the last seat's noise."""

    def replay(self, sc, seed: int, game: int):
        from simcore.family.replay import Replay
        b = self.SIMULATOR(sc).play([game], seed)
        n = len(sc["players"])
        scores = b.games[0, :n].copy()
        scores[-1] = round(STRENGTH[sc["players"][-1]["policy"]] * 10)   # the noise is lost
        r = Replay(f"fake replay: seed {seed}, game {game}")
        r.new_round("round 1").add("ledger", f"scores {scores.tolist()}")
        return r


# ---- 3. storage types too small for an allowed option value ----------------------------------
class NarrowScores(FakeFamily):
    """Scores stored as int8: enough at the default noise, not at the largest allowed one."""
    GAME_DTYPES = {f"score{s}": "int8" for s in range(MAX_SEATS)}


# ---- 4. a kernel that overruns its round buffer -------------------------------------------------
@numba.njit(cache=False)
def _write_past(rounds, games_played):
    """Writes one round row per game, and one more past the buffer's end (no bounds check)."""
    for i in range(games_played):
        rounds[i, 0] = i
    rounds[rounds.shape[0], 0] = 7   # the overrun: numba does not check bounds
    return games_played


class OverrunSimulator(FakeSimulator):
    """The fake game played through the base :meth:`Simulator.play` with a compiled kernel
    that writes one round row past the buffer it is given."""

    def new_state(self, log: bool):
        return None

    def kernel(self, idx, seed, state, debug, rounds, games):
        batch = FakeSimulator.play(self, idx, int(seed))
        games[:] = batch.games
        return _write_past(rounds, len(idx))

    play = Simulator.play


class Overrun(FakeFamily):
    SIMULATOR = OverrunSimulator


# ---- 5. contract mismatches --------------------------------------------------------------------
class MetricWithoutQuantity(FakeFamily):
    METRICS = FakeFamily.METRICS + (
        Metric("mean_bonus", "per_game", "bonus", "games", "bonus per game", 1.0,
               unit="points"),)


class UndeclaredHistogramSimulator(FakeSimulator):
    @staticmethod
    def histogram_values(batch) -> dict:
        return {"top_scores": batch.games[:, :MAX_SEATS].max(axis=1)}


class UndeclaredHistogram(FakeFamily):
    SIMULATOR = UndeclaredHistogramSimulator   # HISTOGRAMS stays {}


class BreakdownOfUnknownMetric(FakeFamily):
    BREAKDOWNS = {"leader": ("who leads", ("seat 0", "another seat"))}
    BREAKDOWN_METRICS = ("seat0_win_shares",)   # a typo of seat0_win_share

    def breakdown_codes(self, idx, games, rounds) -> dict:
        return {"leader": (np.argmax(games[:, :2], axis=1) > 0).astype(np.int64)}


class DtypeOfNoField(FakeFamily):
    GAME_DTYPES = {"scroe0": "int32"}   # a typo of score0


class TypoSimulator(FakeSimulator):
    def __init__(self, scenario):
        super().__init__(scenario)
        self.noise = np.array([scenario["noize"]])   # a typo of noise


class RuleKeyTypo(FakeFamily):
    SIMULATOR = TypoSimulator


class ConditionalKeyTypo(FakeFamily):
    CONDITIONAL_KEYS = {"noize": "only while edge is set"}

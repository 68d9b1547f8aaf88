"""A fake game family of 2 to 4 seats, written on the family kit as a new family would be.

Each seat's final score is its policy's strength plus noise drawn from (seed, game, seat)
alone, so every seating of a game sees the same noise per seat and a stronger policy finishes
ahead more often. It has no compiled kernel: its Simulator plays in NumPy. It is the README's
worked example of what a family writes (``simcore/family/base.py``), and the conformance check
and every command run on it (tests/harness/test_conformance.py, tests/harness/test_families.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml

from simcore.errors import InputError
from simcore.family.base import Family
from simcore.family.chunks import Batch, Simulator
from simcore.family.metrics import Metric, seat_quantities
from simcore.family.policy import PolicySpec, Registry
from simcore.family.scenario.files import ScenarioBase, freeze

MAX_SEATS = 4
MAX_NOISE = 1000.0   # a score is 10 x (strength + noise x a normal draw): within 32 bits
STRENGTH = {"strong": 1.5, "medium": 0.75, "weak": 0.0}
POLICIES = Registry([PolicySpec(name, f"strength {s}", ()) for name, s in STRENGTH.items()], 1)


class Scenario(ScenarioBase):
    """A name, a path and the data (``players``, ``run``)."""


def _scenario(data: dict, name: str, path=None) -> Scenario:
    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_SEATS:
        raise InputError(f"{path or '<scenario>'}: players: expected 2 to {MAX_SEATS} seats")
    for i, p in enumerate(players):
        if not isinstance(p, dict) or p.get("policy") not in STRENGTH:
            raise InputError(f"{path or '<scenario>'}: players[{i}].policy: expected one of "
                             f"{', '.join(STRENGTH)}")
    noise = data.get("noise", 1.0)
    if not isinstance(noise, (int, float)) or not 0 <= noise <= MAX_NOISE:
        raise InputError(f"{path or '<scenario>'}: noise: expected a number 0..{MAX_NOISE:g} "
                         f"(scores are stored as 32-bit integers)")
    clean = {"game": "fake", "name": data.get("name") or name,
             "description": data.get("description") or "a fake game",
             "players": [{"policy": p["policy"], "params": {}} for p in players],
             "noise": float(data.get("noise", 1.0)),
             "edge": float(data.get("edge", 0.0)),
             "run": {"games": 100, "seed": 1, "workers": 1, **(data.get("run") or {})}}
    return Scenario(clean["name"], path, freeze(clean))


class FakeSimulator(Simulator):
    GAME_FIELDS = tuple(f"score{s}" for s in range(MAX_SEATS)) + ("seats", "rounds")
    ROUND_FIELDS = ("game", "round", "leader")

    def __init__(self, scenario):
        super().__init__(scenario)
        self.strength = np.array([STRENGTH[p["policy"]] for p in scenario["players"]])
        self.noise = np.array([scenario["noise"]])
        self.strength[0] += scenario["edge"]   # seat 0's edge: a number rule solve can find

    def play(self, game_indices, seed: int, debug: bool = False) -> Batch:
        idx = np.asarray(game_indices, np.int64)
        n = len(self.strength)
        games = np.zeros((len(idx), self.N_GF), np.int64)
        for i, g in enumerate(idx):
            noise = np.random.default_rng([seed, int(g)]).normal(size=n) * self.noise[0]
            games[i, :n] = np.round((self.strength + noise) * 10)
        games[:, MAX_SEATS] = n
        games[:, MAX_SEATS + 1] = 1
        leader = np.argmax(games[:, :n], axis=1)
        rounds = np.stack([idx, np.zeros(len(idx), np.int64), leader], axis=1)
        return Batch(games, rounds)


class FakeFamily(Family):
    NAME = "fake"
    TITLE = "Fake game of up to four seats"
    DEFAULT_SCENARIO = None
    SEATS = (2, MAX_SEATS)
    HEADLINE = "seat0_win_share"     # (a seat metric: not its own first metric)
    SIMULATOR = FakeSimulator
    POLICIES = POLICIES
    NUMERIC_RULES = {"edge": (False, -5.0, 5.0), "noise": (False, 0.0, MAX_NOISE)}
    METRICS = (Metric("mean_rounds_per_game", "per_game", "rounds", "games", "rounds", 0.1,
                      unit="rounds"),
               Metric("top_score", "per_game", "top", "games", "the winner's score", 1.0,
                      unit="points"))

    def load(self, ref, every_error=False):
        path = Path(ref)
        try:
            data = yaml.safe_load(path.read_text())
        except OSError as exc:
            raise InputError(f"{ref}: cannot read ({exc.strerror})") from None
        return _scenario(data or {}, path.stem, path)

    def from_dict(self, data: dict, name: str = "inline"):
        return _scenario(dict(data), name)

    def game_quantities(self, idx, games, rounds) -> dict:
        seats = games[:, MAX_SEATS]
        scores = np.where(np.arange(MAX_SEATS)[None, :] < seats[:, None], games[:, :MAX_SEATS],
                          np.iinfo(np.int64).min // 4)
        top = scores.max(axis=1)
        winners = ((scores == top[:, None]) << np.arange(MAX_SEATS)).sum(axis=1)
        q = {"games": np.ones(len(idx), np.int64), "rounds": games[:, MAX_SEATS + 1],
             "top": top}
        q.update(seat_quantities(winners, scores, seats, MAX_SEATS))
        return q

    def replay(self, sc, seed: int, game: int):
        from simcore.family.replay import Replay
        b = self.simulator(sc).play([game], seed)
        n = self.n_seats(sc)
        r = Replay(f"fake replay: seed {seed}, game {game}")
        r.new_round("round 1").add("ledger", f"scores {b.games[0, :n].tolist()}")
        return r

    def waits_json(self, hand_text: str, sc) -> dict:
        raise InputError("waits: the fake game has no hands")

    def score_json(self, hand_text: str, sc, **opts) -> dict:
        raise InputError("score: the fake game has no hands")


FAMILY = FakeFamily()

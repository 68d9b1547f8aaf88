"""A fake game family of 2 to 4 seats, written on the family kit as a new family would be.

Each seat's final score is its policy's strength plus noise drawn from (seed, game, seat)
alone, so every seating of a game sees the same noise per seat and a stronger policy finishes
ahead more often. It has no compiled kernel: its Simulator plays in NumPy. It is the smallest
whole example of what a family writes (``simcore/family/base.py``; docs/families.md): a scenario
loader with its schema, a simulator, metrics, bots, a replay; the conformance check and every
command run on it (tests/harness/test_conformance.py, tests/harness/test_families.py).
"""

from __future__ import annotations

import numpy as np

from simcore.errors import InputError
from simcore.family.base import Family
from simcore.family.chunks import Batch, Simulator
from simcore.family.metrics import Metric, seat_quantities
from simcore.family.policy import PolicySpec, Registry
from simcore.family.scenario import ScenarioLoader, seats_leaf
from simcore.family.scenario.files import Checker, ScenarioBase
from simcore.family.scenario.schema import Field

MAX_SEATS = 4
MAX_NOISE = 1000.0   # a score is 10 x (strength + noise x a normal draw): within 32 bits
STRENGTH = {"strong": 1.5, "medium": 0.75, "weak": 0.0}
POLICIES = Registry([PolicySpec(name, f"strength {s}", ()) for name, s in STRENGTH.items()], 1)

SCHEMA = {
    "game": Field("game", "fake", "the game family", "T"),
    "name": Field("str", None, "the scenario's name", "T", nullable=True),
    "description": Field("str", "a fake game", "one line on the scenario", "T"),
    "players": Field("players", [{"policy": "medium", "params": {}}] * 2,
                     "2 to 4 seats, each {policy: strong|medium|weak}", "T"),
    "noise": Field("float", 1.0, "the spread of each seat's score", "X", min=0.0,
                   max=MAX_NOISE),
    "edge": Field("float", 0.0, "seat 0's head start (a number rule solve can find)", "X",
                  min=-5.0, max=5.0),
    "run": {
        "games": Field("int", 100, "games per run", "T", min=1, max=2 ** 63 - 1),
        "seed": Field("int", 1, "base seed", "T", min=0, max=2 ** 64 - 1),
        "workers": Field("int", 1, "worker processes (0: one per core)", "T", min=0),
    },
}


class Scenario(ScenarioBase):
    """A validated fake scenario."""


class FakeChecker(Checker):
    error = InputError

    def leaf(self, path: str, f: Field, v):
        if f.kind == "game":
            return self.game_leaf(path, v, "fake", "fake game")
        if f.kind == "players":
            return seats_leaf(self, path, v, POLICIES.by_name, (2, MAX_SEATS))
        if f.kind == "float" and isinstance(v, str):
            # a quoted number is read as the number: a value with two spellings, as a family
            # that normalises its values has (tests/harness/test_sweeps.py)
            try:
                v = float(v)
            except ValueError:
                pass
        return self.basic_leaf(path, f, v)


class FakeScenarios(ScenarioLoader):
    GAME, SCHEMA, SCENARIO, CHECKER = "fake", SCHEMA, Scenario, FakeChecker
    RUNNER_KEYS = (*ScenarioLoader.RUNNER_KEYS, "game")


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
    SCENARIOS = FakeScenarios()
    METRICS = (Metric("mean_rounds_per_game", "per_game", "rounds", "games", "rounds", 0.1,
                      unit="rounds"),
               Metric("top_score", "per_game", "top", "games", "the winner's score", 1.0,
                      unit="points"))

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
        b = self.SIMULATOR(sc).play([game], seed)
        n = len(sc["players"])
        r = Replay(f"fake replay: seed {seed}, game {game}")
        r.new_round("round 1").add("ledger", f"scores {b.games[0, :n].tolist()}")
        return r

    def engine_inputs(self, sc) -> tuple:
        sim = self.SIMULATOR(sc)
        return (sim.strength, sim.noise)

    def metrics_off(self, sc) -> list:
        return []

    def scenario_yaml(self, sc, title: str) -> str:
        import yaml
        return f"# {title}\n" + yaml.safe_dump(sc.to_dict(), sort_keys=False)

    # no waits_json / score_json / score_text: a game without hands (the hand commands say so)


FAMILY = FakeFamily()


def true_share(h: float, noise: float = 1.0) -> float:
    """Seat 0's exact win share (a tie counts 1/2) in the fake family with edge ``h``: each
    seat's score is round(10 (strength + noise e)), e standard normal."""
    from scipy.stats import norm
    a = np.arange(-120, 121)
    p0 = norm.cdf((a + 0.5) / (10 * noise) - h / noise) - norm.cdf((a - 0.5) / (10 * noise)
                                                                   - h / noise)
    p1 = norm.cdf((a + 0.5) / (10 * noise)) - norm.cdf((a - 0.5) / (10 * noise))
    cdf1 = np.cumsum(p1)
    below = np.concatenate([[0.0], cdf1[:-1]])
    return float(np.sum(p0 * (below + 0.5 * p1)))

"""The ptrump bots: the registry and its declared parameters, and strength in duplicate matches.

Duplicate format: every pairing is played in both seatings on the same match indices and seed,
so each deal is played once from each side and the luck of the deal largely cancels. Strength
checks use a pinned seed and state their tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest

from policies.ptrump.bots import GREEDY_PARAMS, MAX_PARAMS, POLICIES
from simcore.family.params import Param
from simcore.family.players import with_players
from simcore.family.summary import summarize
from simcore.ptrump import scenario
from simcore.ptrump.engine import GF_N_WINNERS, GF_WINNERS
from simcore.ptrump.simulate import Simulator

_SIMS: dict = {}


def _sim(name, seats):
    key = (name, seats)
    if key not in _SIMS:
        data = scenario.load(name).to_dict()
        data["players"] = [{"policy": p, "params": {}} for p in seats]
        _SIMS[key] = Simulator(scenario.from_dict(data, name=name))
    return _SIMS[key]


def test_registry_declares_every_parameter():
    assert POLICIES.names == ("random", "baseline", "greedy", "search")
    assert [POLICIES.id(p.name) for p in POLICIES.specs] == [0, 1, 2, 3]
    for spec in POLICIES.specs:
        assert spec.doc and all(isinstance(p, Param) for p in spec.params)
        assert len(spec.params) <= MAX_PARAMS
    assert POLICIES.by_name["greedy"].params == GREEDY_PARAMS
    assert POLICIES.param_row("greedy", {"pon": 0.5}) == [0.5, 1.0, 1.0, 0.0, 1.0, 1.0]


@pytest.mark.parametrize("params, fragment", [
    ({"call": 1}, "greedy has no parameter 'call'"),
    ({"pon": 2.0}, "pon"),
    ({"kan": 3}, "kan"),
])
def test_seat_parameters_are_validated(params, fragment):
    data = scenario.load("ptrump_2p").to_dict()
    data["players"] = [{"policy": "greedy", "params": params}, {"policy": "random"}]
    with pytest.raises(scenario.ScenarioError) as exc:
        scenario.from_dict(data, name="x")
    assert fragment in str(exc.value)


def _share(name, a, b, games, seed):
    """Seat ``a``'s share of the matches against ``b`` over both seatings (duplicate), counting
    a shared match 1/m; with 3 seats ``b`` holds the other two seats."""
    n = len(scenario.load(name)["players"])
    won = 0.0
    total = 0
    for seat_a in range(n):
        seats = tuple(a if s == seat_a else b for s in range(n))
        g = _sim(name, seats).play(np.arange(games), seed=seed).games
        won += (((g[:, GF_WINNERS] >> seat_a) & 1) / np.maximum(g[:, GF_N_WINNERS], 1)).sum()
        total += games
    return won / total


# Pinned seed 2024 (observed at commit time: greedy/random 1.000, baseline/random 1.000,
# greedy/baseline 0.833 with 2 seats; greedy/random 1.000, greedy/baseline 0.732 with 3, where
# the fair share is 1/3). Tolerance: each threshold sits at least 5 standard errors (a share over
# 2 x 300 matches has se <= 0.02) below the observed share and well above the fair share.
@pytest.mark.parametrize("name, a, b, games, at_least", [
    ("ptrump_2p", "greedy", "random", 150, 0.95),
    ("ptrump_2p", "baseline", "random", 150, 0.95),
    ("ptrump_2p", "greedy", "baseline", 300, 0.70),
    ("ptrump_3p", "greedy", "random", 60, 0.90),
    ("ptrump_3p", "greedy", "baseline", 200, 0.55),
])
def test_greedy_is_stronger_in_duplicate_matches(name, a, b, games, at_least):
    share = _share(name, a, b, games, seed=2024)
    assert share >= at_least, f"{a} vs {b} on {name}: share {share:.3f} < {at_least}"


def test_greedy_reads_the_pon_deduction_and_yaku_points_from_the_rules():
    # issue 30 item 1: a dearer Pon (-4 instead of -1) fails greedy's value test more often
    from simcore.family import registry as families
    from simcore.family.scenario.files import nested
    from simcore.studies.study import run_study
    fam, sc = families.load("ptrump_2p")
    sc = with_players(fam, sc, "greedy")
    dear = fam.SCENARIOS.with_overrides(sc, nested("scoring.deductions.pon", 4), "dear pon")
    res = run_study(fam, [sc, dear], 3, 400, 1)
    pons = [summarize(fam, s, 3, res.sums, v=v)["metrics"]["pon_per_round"]["value"]
            for v, s in enumerate((sc, dear))]
    assert pons[1] < 0.5 * pons[0], pons
    spec = fam.POLICIES.by_name["greedy"]
    assert spec.reads_rule("scoring.deductions.pon") and spec.reads_rule("scoring.yaku.tanyao.points")
    assert not spec.reads_rule("scoring.yaku.chanta.points")

"""The value bot responds to the point values a designer tunes (issue 30, items 2 and 5): a
handful of the README's response table, on pinned seeds, and riichi by value."""

import pytest

from simcore.family import registry as families
from simcore.family.players import with_players
from simcore.family.summary import summarize
from simcore.studies.responses import probe_rows, probe_table

# (probe key, figures measured with 20,000 games per variant, seed 7: before -> after)
CHECKED = {
    "scoring.yaku.dog.points": "14.84% -> 17.57% of wins",
    "scoring.yaku.tanyao.points": "1.98% -> 6.06%",
    "scoring.dora_per_card": "59.00% -> 65.40%",
    "scoring.set_count_bonus.tabi": "16.43% -> 43.82%",
}


@pytest.fixture(scope="module")
def value_seats():
    fam, sc = families.load("new_edition")
    return fam, with_players(fam, sc, "value")


@pytest.mark.second_tier
def test_raised_values_are_chased(value_seats):
    fam, sc = value_seats
    probes, skipped = fam.response_probes(sc)
    chosen = [p for p in probes if p.key in CHECKED]
    assert len(chosen) == len(CHECKED)
    rows = probe_rows(fam, sc, chosen, 4000, seed=7, workers=1)
    table = probe_table(rows, skipped)
    for r in rows:
        assert r["rose"], (r["key"], table)
    assert "kibidango" in table   # the values not probed are listed with their reasons


def test_greedy_does_not_respond(value_seats):
    fam, sc = value_seats
    greedy = with_players(fam, sc, "greedy")
    probes, _ = fam.response_probes(greedy)
    dog = [p for p in probes if p.key == "scoring.yaku.dog.points"]
    (row,) = probe_rows(fam, greedy, dog, 2000, seed=7, workers=1)
    assert not row["rose"]


def test_riichi_by_value(value_seats):
    """Where riichi adds points value declares it nearly always; where it adds nothing (riichi
    worth 0) silent tenpai pays and the riichi rate falls well below the 94.5% of rounds the
    issue measured for the old rule."""
    from simcore.family.scenario.files import nested
    from simcore.studies.study import run_study
    fam, sc = value_seats
    free = fam.SCENARIOS.with_overrides(sc, nested("scoring.yaku.riichi.points", 0), "riichi worth 0")
    res = run_study(fam, [sc, free], 5, 1500, 1)
    rates = [summarize(fam, s, 5, res.sums, v=v)["metrics"]["riichi_rate"]["value"]
             for v, s in enumerate((sc, free))]
    assert rates[0] > 0.97 and rates[1] < 0.90, rates

"""Sparrow's yaku reach (docs/families.md): the kit's checks on two scenarios; the independent
replay model (tests/sparrow/replay_model.py) checks every reach column of every round it
replays."""

import numpy as np

from simcore.family import registry as families
from tests.reach_checks import check_reach


def test_reach_in_the_default_and_a_special_hands_scenario():
    fam, sc = families.load("sparrow")
    rows, reached = check_reach(fam, sc)
    by_name = dict(zip([r["name"] for r in rows], reached.sum(axis=0)))
    assert by_name["tanyao"] > 0 and by_name["chanta"] > 0 and by_name["dora"] == 0
    data = sc.to_dict()
    data["scoring"]["specials"] = "alone"
    data["deck"]["red_bamboo"] = 4
    check_reach(fam, fam.SCENARIOS.from_dict(data, name="alone"), games=400)


def test_summary_reads_the_reach():
    fam, sc = families.load("sparrow")
    from click.testing import CliRunner
    from simcore.cli import main
    r = CliRunner().invoke(main, ["run", "sparrow", "--games", "1600", "--no-save", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "is it worth chasing?" in r.output
    assert np.any([line.strip().startswith("tanyao") for line in r.output.splitlines()])

"""compare --pairings (issue 9 item 7): verdicts per bot pairing, and the ones that change."""

import json

import pytest
from click.testing import CliRunner

from simcore.cli import main
from simcore.errors import InputError
from simcore.studies.pairings import pairing_table, parse_pairings


def test_parse_pairings():
    assert parse_pairings("greedy:greedy, value:call=0.8:greedy") == [
        ("greedy:greedy", "greedy,greedy"), ("value:call=0.8:greedy", "value:call=0.8,greedy")]
    for bad in ("greedy", "a:b:c", "call=1:greedy", "x:y,x:y"):
        with pytest.raises(InputError):
            parse_pairings(bad)


def _row(m, verdict, diff, negligible=False):
    return {"metric": m, "verdict": verdict, "diff": diff, "negligible": negligible}


def test_a_verdict_that_changes_with_the_pairing_is_flagged():
    rows = [_row("x", "different", 0.2), _row("y", "equivalent", 0.0), _row("z", "different", 1.0),
            _row("x", "different", 0.1), _row("y", "different", 0.0, negligible=True),
            _row("z", "different", -1.0)]
    _, changes = pairing_table(["p1", "p2"], rows, 3)
    assert changes == ["z"]  # x keeps its sign; y's second difference is negligible


def test_compare_pairings_cli():
    r = CliRunner().invoke(main, [
        "compare", "new_edition", "no_ron_bonus", "--pairings", "baseline:baseline,random:baseline",
        "--games", "60", "--workers", "1", "--quiet", "--json",
        "--metrics", "mean_winning_points,first_dealer_win_rate"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert set(data["pairings"]) == {"baseline:baseline", "random:baseline"}
    assert data["pairings"]["baseline:baseline"]["mean_winning_points"]["diff"] < 0
    assert isinstance(data["verdict_changes"], list)
    r = CliRunner().invoke(main, ["compare", "new_edition", "no_ron_bonus", "--pairings",
                                  "greedy", "--games", "10"])
    assert r.exit_code == 2 and "not two seats" in r.output


def test_pairing_table_text_gives_every_difference_its_interval():
    from simcore.studies.pairings import pairing_text
    row = {"metric": "x", "verdict": "different", "diff": 0.2, "ci": [0.1, 0.3], "negligible": False}
    text = pairing_text("a", "b", 10, 1, 0.05, {"p1": {"x": row}}, [])
    assert "+0.200 [+0.100, +0.300] DIFF" in text
    rate = dict(row, unit="pp", diff=0.012, ci=[0.004, 0.02])     # a rate: in pp
    assert "+1.20 [+0.40, +2.00] DIFF" in pairing_text("a", "b", 10, 1, 0.05, {"p1": {"x": rate}}, [])

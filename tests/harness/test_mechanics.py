"""Restricted play (``mechanics``): the mask and action rules of a restriction, the study on
MOMOJAN (quick tier) and on every family at a small budget (second tier), the command's output
and its bad input."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simcore.cli import main
from simcore.family import registry as families
from simcore.family.policy import Mechanic
from simcore.nb.restrict import ALWAYS, NEVER, restricted_action, restricted_mask


def _row(kind, ranges, shift=0):
    return np.array(Mechanic("x", "x", kind, ranges, shift).row())


def test_never_removes_the_range_unless_nothing_would_be_left():
    mask = np.array([1, 1, 0, 1, 1, 0], np.bool_)
    assert restricted_mask(mask, _row(NEVER, ((1, 2), (4, 6)))).tolist() == \
        [True, False, False, True, False, False]
    assert restricted_mask(mask, _row(NEVER, ((0, 6),))).tolist() == mask.tolist()
    assert restricted_mask(mask, _row(ALWAYS, ((0, 1),))).tolist() == mask.tolist()


def test_always_forces_the_counterpart_or_the_lowest_legal_action_of_the_range():
    mask = np.array([1, 1, 1, 0, 1, 1], np.bool_)   # 0-2 discards, 3-5 the same with riichi
    always = _row(ALWAYS, ((3, 6),), shift=3)
    assert restricted_action(1, mask, always) == 4        # discard 1 -> discard 1 with riichi
    assert restricted_action(0, mask, always) == 4        # 3 is not legal: the lowest legal
    assert restricted_action(5, mask, always) == 5        # already one
    assert restricted_action(1, mask, _row(NEVER, ((3, 6),))) == 1
    none = np.array([1, 1, 1, 0, 0, 0], np.bool_)
    assert restricted_action(2, none, always) == 2        # no riichi legal: the choice stands


def test_mechanics_on_momojan_orders_the_costs_and_says_what_changed_nothing():
    from simcore.studies.mechanics import mechanics_study, mechanics_table
    fam, sc = families.load("new_edition")
    res = mechanics_study(fam, sc, 40, 3)
    rows = {r["mechanic"]: r for r in res["mechanics"]}
    assert set(rows) == {m.name for m in fam.MECHANICS}
    costs = [r["cost"] for r in res["mechanics"]]
    assert costs == sorted(costs, reverse=True)
    assert rows["never_draw_three"]["ci"][0] > 0 and "carries skill" in \
        rows["never_draw_three"]["verdict"]
    assert not rows["never_kan"]["changed_play"] and "changed nothing" in \
        rows["never_kan"]["verdict"]                       # no kan in the new edition
    for r in res["mechanics"]:
        assert r["ci"][0] <= r["cost"] <= r["ci"][1]
        assert abs(r["restricted_share"] + r["cost"] - 0.5) < 1e-9
    text = mechanics_table(res)
    assert "never_draw_three" in text and "95% interval" in text


def test_the_mechanics_command_prints_json_and_a_chart(tmp_path):
    chart = tmp_path / "m.png"
    r = CliRunner().invoke(main, ["mechanics", "new_edition", "--games", "12", "--json",
                                  "--chart", str(chart)])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["games"] == 12 and out["seats"] == 2 and chart.stat().st_size > 1000
    assert {"mechanic", "cost", "ci", "verdict"} <= set(out["mechanics"][0])


def test_mechanics_gives_the_same_numbers_on_one_worker_or_two(monkeypatch):
    """The study runs on worker processes (``--workers``), in chunks of deals: the result is the
    same to the bit whatever the count and the chunking (each game depends on the seed and its
    index alone)."""
    from simcore.studies import mechanics as m
    fam, sc = families.load("new_edition")
    one = m.mechanics_study(fam, sc, 30, 5, workers=1)
    monkeypatch.setattr(m, "CHUNK_DEALS", 7)   # five chunks a seating, the last one short
    two = m.mechanics_study(fam, sc, 30, 5, workers=2)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


@pytest.mark.parametrize("args,words", [
    (["new_edition", "--workers", "-1"], "--workers"),
    (["new_edition", "--chart", "m.pdf"], "--chart"),
    (["new_edition", "--chart", "/nonexistent-dir/m.png"], "does not exist"),
    (["new_edition", "--chart", "isdir.png"], "is a directory"),     # a QA trial: a traceback
    (["new_edition", "--chart", "old.png"], "exists (nothing is overwritten"),   # after play
    (["no_such_scenario"], "no_such_scenario"),
    (["new_edition", "--games", "1"], "--games"),
])
def test_mechanics_bad_input_is_one_line_and_exit_2(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "isdir.png").mkdir()
    (tmp_path / "old.png").write_text("keep")
    r = CliRunner().invoke(main, ["mechanics", *args])
    assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["isdir.png", "old.png"]
    assert (tmp_path / "old.png").read_text() == "keep" and not any((tmp_path / "isdir.png").iterdir())


def test_a_chart_that_cannot_be_written_keeps_the_table(tmp_path, monkeypatch):
    """A QA trial: a full disk under --chart ended the whole study in a traceback, no table,
    and a 0-byte file. The table comes first; the chart's failure is one line after it."""
    import errno
    from simcore.cli import output

    def full(path, data, option="--out"):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(output, "write_file", full)
    monkeypatch.setattr("simcore.cli.mechanics.write_file", full)
    chart = tmp_path / "m.png"
    r = CliRunner().invoke(main, ["mechanics", "new_edition", "--games", "4",
                                  "--quiet", "--chart", str(chart)])
    assert r.exit_code == 2 and "95% interval" in r.stdout, r.output
    assert "--chart:" in r.stderr and "No space left on device" in r.stderr
    assert "the table above is the result" in r.stderr and not chart.exists()


@pytest.mark.second_tier
@pytest.mark.parametrize("name", ["ptrump_2p", "ptrump_3p", "emoji", "riichi2p", "sparrow"])
def test_mechanics_runs_on_every_family(name):
    from simcore.studies.mechanics import mechanics_study
    fam, sc = families.load(name)
    res = mechanics_study(fam, sc, 8, 2)
    assert len(res["mechanics"]) == len(fam.MECHANICS) >= 1
    n = len(sc.to_dict()["players"])
    for r in res["mechanics"]:
        assert abs(r["restricted_share"] + r["cost"] - 1 / n) < 1e-9 and r["verdict"]


@pytest.mark.second_tier
def test_the_cost_interval_covers_a_large_run_truth():
    """Coverage of ``mechanics``' interval, pinned seeds (the benchmark at a larger budget:
    benchmarks/bench_mechanics_coverage.py, 0.970 and 0.953 of 400 studies): MOMOJAN never
    riichi, the truth on 6,000 deals of one seed, 150 studies of 20 deals on another; the
    share of intervals that hold it is at least 0.89 (0.95 less two binomial standard
    errors and the truth's own error); pinned, it is 0.953."""
    from simcore.studies.mechanics import cost_interval, restriction_costs
    fam, sc = families.load("new_edition")
    m = [mech.name for mech in fam.MECHANICS].index("never_riichi")
    truth = restriction_costs(fam, sc, 6000, 1001, [m])[m][0].mean()
    x = restriction_costs(fam, sc, 150 * 20, 7, [m])[m][0].reshape(150, 20)
    held = np.mean([lo <= truth <= hi for lo, hi in map(cost_interval, x)])
    assert held >= 0.89, held

"""Result directories reopened: show DIR, compare DIR_A DIR_B (paired from the saved tables,
identical to a live paired compare; independent otherwise, and said), simcore.studies.results.load."""

import json
import os

import numpy as np
import pytest
from click.testing import CliRunner

from simcore.cli import main
from simcore.studies import results

GAMES = ["--games", "600", "--seed", "4", "--workers", "1", "--quiet"]


def _ok(args):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    return r


@pytest.fixture(scope="module")
def dirs(tmp_path_factory):
    base = tmp_path_factory.mktemp("saved")
    out = {}
    for name, extra in (("a", ["new_edition", "--records"]), ("b", ["no_ron_bonus", "--records"]),
                        ("b_norec", ["no_ron_bonus"])):
        out[name] = str(base / name)
        _ok(["run", *extra, *GAMES, "--out", out[name], "--no-report"])  # the tables are tested
    return out


def test_saved_runs_compare_paired_exactly_like_a_live_compare(dirs):
    saved = json.loads(_ok(["compare", dirs["a"], dirs["b"], "--json"]).stdout)
    live = json.loads(_ok(["compare", "new_edition", "no_ron_bonus", *GAMES, "--no-save",
                           "--json"]).stdout)
    assert saved["paired"] is True and saved["pairing"].startswith("paired")
    assert saved["metrics"] == live["metrics"]


def test_saved_runs_without_records_compare_independently_and_say_so(dirs):
    r = _ok(["compare", dirs["a"], dirs["b_norec"]])
    assert "independent (the per-round records were not saved" in r.stdout
    data = json.loads(_ok(["compare", dirs["a"], dirs["b_norec"], "--json"]).stdout)
    live = json.loads(_ok(["compare", "new_edition", "no_ron_bonus", *GAMES, "--no-save",
                           "--json"]).stdout)
    assert data["paired"] is False
    m, lm = data["metrics"]["mean_winning_points"], live["metrics"]["mean_winning_points"]
    assert m["diff"] == lm["diff"]                 # same games, same values
    assert m["se"] > lm["se"]                      # but no pairing: a wider interval


def test_show_and_load(dirs):
    r = _ok(["show", dirs["a"]])
    assert "run, complete, 600 games, seed 4" in r.stdout
    assert "first_dealer_win_rate" in r.stdout
    res = results.load(dirs["a"], pandas=False)
    assert res.complete and res.summary["games"] == 600
    assert res.provenance["variants"][0]["rules_sha256"]
    assert res.games["game"].tolist() == list(range(600))
    assert res.games["winner"].dtype == np.int8
    assert int(res.games["rounds"].sum()) == len(res.rounds["game"]) == res.summary["rounds"]
    assert results.load(dirs["b_norec"]).rounds is None


def test_not_a_result_directory_is_one_line(tmp_path):
    r = CliRunner().invoke(main, ["compare", str(tmp_path), "new_edition", "--games", "1"])
    assert r.exit_code == 2 and r.output.startswith("momojan-sim: error: ")
    with pytest.raises(results.InputError, match="not a result directory"):
        results.load(str(tmp_path))


def test_default_dirs_of_runs_started_in_the_same_second_differ(tmp_path):
    # parallel test workers (and two shells) once got the same <name>-<second> and collided
    from simcore.studies.results import default_dir
    paths = [default_dir("same", root=str(tmp_path / "r")) for _ in range(5)]
    assert len(set(paths)) == 5 and all(os.path.isdir(p) and not os.listdir(p) for p in paths)
    (tmp_path / "file").write_text("x")
    assert default_dir("x", root=str(tmp_path / "file")).startswith(str(tmp_path / "file"))


def test_the_steady_rate_is_each_workers_rounds_over_its_own_play_after_its_first_chunk():
    pace = results.Pace()
    assert pace.rate() is None
    pace.add(1, 30.0, 1000)           # worker 1's first chunk (it may have compiled): left out
    pace.add(2, 9.0, 900)
    pace.add(None, None, 700)         # a chunk without timing (a tournament's, a resumed one's)
    assert pace.rate() is None        # nobody has played a second chunk yet
    pace.add(1, 2.0, 1000)
    assert pace.rate() == 500.0
    pace.add(2, 1.0, 300)             # two workers side by side: their rates add up
    pace.add(1, 2.0, 1000)
    assert pace.rate() == 800.0


def test_a_run_records_the_steady_rate_of_its_chunks_play(tmp_path, monkeypatch):
    """rounds_per_s counts each chunk's own play, its worker's first chunk left out: with a clock
    that makes every chunk last 1 s, 6,000 games (3 chunks of 2,000 in this process) give the
    rounds of the last two chunks over 2 s, whatever the machine's speed. (Timed from the first
    chunk's end to the last's, a few chunks ending together looked up to four times faster.)"""
    from simcore.family import chunks
    _calls = []

    def perf_counter():   # 1.0, 2.0, 3.0, ...: each chunk reads it at its start and its end
        _calls.append(1)
        return float(len(_calls))
    clock = type("Clock", (), {"perf_counter": staticmethod(perf_counter)})
    monkeypatch.setattr(chunks, "time", clock)
    whole, first = str(tmp_path / "whole"), str(tmp_path / "first")
    args = ["new_edition", "--seed", "6", "--workers", "1", "--quiet", "--no-report"]
    _ok(["run", *args, "--games", "6000", "--out", whole])
    assert len(_calls) == 6   # two readings a chunk, one second apart
    monkeypatch.undo()
    _ok(["run", *args, "--games", "2000", "--out", first])
    rounds = [json.loads(open(os.path.join(d, "summary.json")).read())["rounds"]
              for d in (whole, first)]
    prov = json.loads(open(os.path.join(whole, "provenance.json")).read())
    assert prov["rounds_per_s"] == pytest.approx((rounds[0] - rounds[1]) / 2, abs=0.1)

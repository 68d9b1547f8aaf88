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

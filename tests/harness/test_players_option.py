"""--players on run, replay and compare (issue 9 item 5): seats without editing YAML."""

import json

from click.testing import CliRunner

from simcore.cli import main


def _json(args):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    return r


def test_run_seats_players_from_the_option():
    base = ["run", "new_edition", "--games", "40", "--seed", "3", "--workers", "1", "--no-save",
            "--json", "--quiet"]
    a = json.loads(_json(base).stdout)
    b = json.loads(_json(base + ["--players", "random,baseline"]).stdout)
    assert a["metrics"] != b["metrics"]  # other seats, other games
    c = json.loads(_json(base + ["--players", "value"]).stdout)  # one entry seats both (the default seats)
    assert a["metrics"] == c["metrics"]


def test_replay_and_compare_take_players():
    r = _json(["replay", "new_edition", "--seed", "3", "--game", "0", "--players", "random,baseline"])
    assert "P0 (random) vs P1 (baseline)" in r.stdout
    r = _json(["compare", "new_edition", "no_ron_bonus", "--games", "40", "--workers", "1",
               "--no-save", "--json", "--quiet", "--players", "greedy:call=0.5,baseline",
               "--metrics", "mean_winning_points"])
    assert json.loads(r.stdout)["metrics"]["mean_winning_points"]["verdict"]


def test_bad_players_are_one_line():
    for spec, fragment in (("nobot", "unknown policy 'nobot'"),
                           ("greedy:cal=0.5", "cal"),
                           ("greedy,greedy,greedy", "3 seats")):
        r = CliRunner().invoke(main, ["run", "new_edition", "--games", "4", "--no-save",
                                      "--players", spec])
        assert r.exit_code == 2, r.output
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("momojan-sim: error:") and fragment in lines[0]

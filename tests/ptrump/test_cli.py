"""The CLI on ptrump scenarios: run, compare with an override, sweep, tournament, replay, waits,
score, metrics (the family is found from the scenario's ``game: ptrump``)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simcore.cli import main

ARGS = ["--workers", "1", "--no-save", "--quiet"]


def _run(args):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    return r.output


def test_run_json():
    out = json.loads(_run(["run", "ptrump_3p", "--games", "60", "--seed", "5", "--json",
                           "--players", "greedy,baseline,random"] + ARGS))
    assert out["games"] == 60 and out["seed"] == 5
    m = out["metrics"]
    shares = [m[f"seat{s}_win_share"]["value"] for s in range(3)]
    assert abs(sum(shares) - 1) < 1e-6
    for k in ("draw_rate", "mean_winning_value", "mean_rounds_per_match", "pon_per_round",
              "riichi_rate", "first_dealer_win_share"):
        assert k in m


def test_compare_with_an_override(tmp_path):
    short = tmp_path / "short.yaml"
    short.write_text("extends: ptrump_2p\nname: short\nmatch:\n  target_score: 20\n")
    out = json.loads(_run(["compare", "ptrump_2p", str(short), "--games", "100", "--seed", "2",
                           "--players", "greedy,baseline", "--json"] + ARGS))
    text = json.dumps(out)
    assert "mean_rounds_per_match" in text


def test_sweep_target_score(tmp_path):
    gb = tmp_path / "gb.yaml"
    gb.write_text("extends: ptrump_2p\nname: gb\nplayers:\n  - {policy: greedy}\n"
                  "  - {policy: baseline}\n")
    out = _run(["sweep", str(gb), "--set", "match.target_score=20,30", "--games", "100",
                "--seed", "2"] + ARGS)
    assert "target_score" in out and "mean_rounds_per_match" in out


def test_tournament_three_seats():
    out = _run(["tournament", "ptrump_3p", "--policies", "greedy,baseline,random",
                "--games", "20", "--seed", "1", "--json"] + ARGS)
    data = json.loads(out)
    assert data


def test_replay_and_hand_commands():
    text = _run(["replay", "ptrump_2p", "--seed", "3", "--game", "1",
                 "--players", "greedy,baseline"])
    assert "round 1" in text and "match over" in text
    assert "tenpai" in _run(["waits", "234 67 55", "--rules", "ptrump_2p"])
    out = _run(["score", "234 67 55 +8 tsumo dora:K", "--rules", "ptrump_2p", "--json"])
    assert json.loads(out)["total"] == 3   # spec §8 example A
    assert "seat0_win_share" in _run(["metrics", "--game", "ptrump"])


@pytest.mark.parametrize("args, fragment", [
    (["run", "ptrump_2p", "--players", "greedy,nope"], "unknown policy"),
    (["run", "ptrump_3p", "--players", "greedy,random"], "3"),
])
def test_bad_input_is_one_line(args, fragment):
    r = CliRunner().invoke(main, args + ARGS)
    assert r.exit_code == 2 and fragment in r.output and "Traceback" not in r.output

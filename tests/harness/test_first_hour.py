"""Issue 31 item 5: the small things that cost a new designer minutes (who sat where, what a
missing path could have been, which game a hand belongs to)."""

import json

from click.testing import CliRunner

from simcore.cli import main


def _run(*args):
    return CliRunner().invoke(main, list(args))


def test_run_and_compare_headers_say_who_sat_where():
    r = _run("run", "new_edition", "--games", "40", "--workers", "1", "--no-save",
             "--players", "value:call=0.8,greedy")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0].endswith("; seats: P0 value:call=0.8, P1 greedy")
    r = _run("run", "new_edition", "--games", "40", "--workers", "1", "--no-save", "--json")
    assert json.loads(r.stdout)["seats"] == ["value", "value"]
    r = _run("compare", "new_edition", "no_ron_bonus", "--games", "40", "--workers", "1",
             "--no-save", "--players", "greedy")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[1] == "seats: P0 greedy, P1 greedy"


def test_show_of_a_missing_path_mentions_result_directories():
    r = _run("show", "results/nonexistent")
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert "nor a result directory" in r.output and "ptrump_2p" in r.output


def test_a_hand_of_the_other_family_gets_a_hint():
    r = _run("waits", "234 67 55")
    assert r.exit_code == 2 and "add --game ptrump" in r.output, r.output
    r = _run("waits", "--game", "momojan", "234 67 55")      # asked for: no hint
    assert r.exit_code == 2 and "--game ptrump" not in r.output
    r = _run("waits", "--game", "ptrump", "kai:111z 23o")
    assert r.exit_code == 2 and "--game" not in r.output.split("error:")[1], r.output

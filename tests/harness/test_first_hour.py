"""Issue 31 item 5: the small things that cost a new designer minutes (who sat where, what a
missing path could have been, which game a hand belongs to)."""

import json

from click.testing import CliRunner
import pytest

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


def test_show_lists_each_options_allowed_values_and_tags_run_settings_as_the_tools():
    r = _run("show", "new_edition")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.stdout.splitlines() if x.strip().startswith("tie_break:"))
    assert line.endswith("(one of: first_dealer, second_dealer, draw)")
    wild = next(x for x in r.stdout.splitlines() if x.strip().startswith("wild_fruit:"))
    assert wild.endswith("(one of: momo, lemon, mikan, ichigo, null)")
    run = r.stdout.split("\nrun:\n")[1].splitlines()[:3]
    assert all("[tool]" in x and "[R]" not in x for x in run), run
    r = _run("show", "ptrump_2p")
    run = r.stdout.split("\nrun:\n")[1].splitlines()[:3]
    assert all("[tool]" in x and "[R]" not in x for x in run), run


def test_validate_reports_every_error_of_a_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: new_edition\nhand_size: -3\nante: {base: x}\n"
                   "game: {tie_break: coin}\nscoring: {ron_bonus: 1.5, bogus: 1}\n")
    r = _run("validate", str(bad), "new_edition")
    assert r.exit_code == 2
    errors = [x for x in r.stderr.splitlines() if x.startswith("momojan-sim: error: ")]
    keys = ["hand_size", "ante.base", "game.tie_break", "scoring.bogus", "scoring.ron_bonus"]
    assert len(errors) == len(keys) and all(f": {k}: " in e for k, e in zip(keys, errors))
    assert "new_edition: OK" in r.stdout
    # a cross-key check once the keys are right; run still stops at the first error
    r = _run("validate", str(_write(tmp_path, "ante: {base: 50}\n")))
    assert r.exit_code == 2 and "ante.base: an ante of 50 is larger" in r.stderr
    r = _run("run", str(bad), "--games", "3")
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1


def _write(tmp_path, body):
    p = tmp_path / "x.yaml"
    p.write_text("extends: new_edition\n" + body)
    return p


def test_help_shows_no_raw_markup():
    from simcore.cli import main as group
    names = ["", *sorted(group.commands)]
    for name in names:
        r = _run(*([name] if name else []), "--help")
        assert r.exit_code == 0, (name, r.output)
        assert "`" not in r.output and ":func:" not in r.output and "\b" not in r.output, name


@pytest.mark.plays("ptrump")
def test_an_interrupted_runs_show_says_how_many_games_are_saved(tmp_path):
    d = tmp_path / "run"
    r = _run("run", "ptrump_2p", "--games", "4000", "--workers", "1", "--out", str(d),
             "--quiet", "--no-report")
    assert r.exit_code == 0, r.output
    # what an interrupt leaves: the first chunk, no summary, provenance not complete
    (d / "summary.json").unlink()
    for c in sorted((d / "chunks").glob("*.json"))[1:]:
        c.unlink()
    prov = json.loads((d / "provenance.json").read_text())
    prov["status"] = "incomplete"
    (d / "provenance.json").write_text(json.dumps(prov))
    r = _run("show", str(d))
    assert r.exit_code == 0, r.output
    assert "incomplete: 2,000 of 4,000 matches saved, no summary yet" in r.stdout


@pytest.mark.plays("ptrump")
def test_p_style_summaries_count_matches():
    r = _run("run", "ptrump_2p", "--games", "60", "--workers", "1", "--no-save")
    assert r.exit_code == 0, r.output
    assert " of 60 matches" in r.stdout and " games" not in r.stdout
    r = _run("compare", "ptrump_2p", "ptrump_target_20", "--games", "60", "--workers", "1",
             "--no-save")
    assert r.exit_code == 0, r.output
    text = r.stdout.replace("too few differing games", "")   # a verdict's name, as in --json
    assert "60 matches each" in text and " games" not in text, [
        x for x in text.splitlines() if " games" in x]

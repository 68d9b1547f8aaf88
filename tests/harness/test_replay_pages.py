"""Issue 31 item 3: replays a rules designer can check by hand. Every line shows the revealed
sets; each round's ante and payments form a ledger whose balances are the engine's scores;
`--round N`; `replay RESULT_DIR --game N` from any directory; an HTML page per example game,
linked from the report."""

import re

import pytest
from click.testing import CliRunner

from simcore.cli import main
from simcore.family import registry as families
from simcore.momojan.engine import GF_SCORE0, GF_SCORE1, RF_SCORE0, RF_SCORE1

ARROW = re.compile(r"→ P0 (-?\d+), P1 (-?\d+); pot (\d+)$")


@pytest.mark.parametrize("name", ["new_edition", "old_edition"])
def test_momojan_ledger_balances_are_the_engine_scores(name):
    """The ledger's running balance, built from the ante rule and the score changes, meets the
    round records' scores after every round and keeps points plus pot constant."""
    fam, sc = families.load(name)
    sim = fam.SIMULATOR(sc)
    for game in range(30):
        r = fam.replay(sc, 7, game)
        _, batch = sim.replay_events(7, game)
        total = None
        for i, rnd in enumerate(r.rounds):
            ledger = [t for k, t in rnd.lines if k == "ledger"]
            assert ledger[0].startswith("ante: ") and ledger[-1].startswith("ledger: ")
            p0, p1, pot = (int(x) for x in ARROW.search(ledger[-1]).groups())
            assert (p0, p1) == (batch.rounds[i, RF_SCORE0], batch.rounds[i, RF_SCORE1])
            a0, a1, apot = (int(x) for x in ARROW.search(ledger[0]).groups())
            total = total or a0 + a1 + apot
            assert a0 + a1 + apot == total == p0 + p1 + pot
        final = re.search(r"final P0 (-?\d+), P1 (-?\d+)", r.footer[0]).groups()
        assert tuple(map(int, final)) == (batch.games[0, GF_SCORE0], batch.games[0, GF_SCORE1])


def test_momojan_lines_show_revealed_sets_and_the_win_shows_them_all():
    fam, sc = families.load("new_edition")
    seen = 0
    for game in range(20):
        for rnd in fam.replay(sc, 1, game).rounds:
            sets = {"P0": 0, "P1": 0}
            for kind, text in rnd.lines:
                who = text.split()[0]
                if kind == "call":
                    sets[who] += 1
                if kind in ("discard", "riichi", "call") and sets.get(who):
                    assert text.count("[") == sets[who], text
                    seen += 1
                if kind == "win" and " on " in text and sets[who]:
                    assert text.count("[") == sets[who], text
    assert seen > 100


@pytest.mark.plays("ptrump")
def test_ptrump_ledger_moves_add_up_to_the_scores():
    fam, sc = families.load("ptrump_3p")
    for game in range(15):
        r = fam.replay(sc, 2, game)
        start = dict(re.findall(r"(P\d) (-?\d+)", r.header[1].split("start scores")[1]))
        bal = {k: int(v) for k, v in start.items()}
        for rnd in r.rounds:
            for kind, text in rnd.lines:
                if kind != "ledger":
                    continue
                if "deposits" in text and "→" in text and not text.startswith("ledger"):
                    who, n = re.search(r"(P\d) deposits (\d+)", text).groups()
                    bal[who] -= int(n)
                else:
                    moves, after = text[len("ledger: "):].split(" → ")
                    for who, d in re.findall(r"(P\d) ([+-]\d+)", moves):
                        bal[who] += int(d)
                    shown = dict(re.findall(r"(P\d) (-?\d+)", after.split(";")[0]))
                    assert bal == {k: int(v) for k, v in shown.items()}, text


@pytest.mark.plays("ptrump")
def test_round_option_and_its_bounds():
    r = CliRunner().invoke(main, ["replay", "new_edition", "--seed", "1", "--game", "3",
                                  "--round", "2"])
    assert r.exit_code == 0, r.output
    assert "── round 2:" in r.output and "── round 1:" not in r.output
    assert "── round 3:" not in r.output
    r = CliRunner().invoke(main, ["replay", "new_edition", "--seed", "1", "--game", "3",
                                  "--round", "99"])
    assert r.exit_code == 2 and "--round 99: this game has" in r.output
    r = CliRunner().invoke(main, ["replay", "ptrump_2p", "--round", "99"])
    assert r.exit_code == 2 and "this match has" in r.output


def test_replay_of_a_result_directory_from_anywhere(tmp_path, monkeypatch):
    d = tmp_path / "cmp"
    r = CliRunner().invoke(main, ["compare", "old_edition", "new_edition", "--games", "40",
                                  "--seed", "5", "--workers", "1", "--players", "greedy",
                                  "--out", str(d), "--quiet"])
    assert r.exit_code == 0, r.output
    monkeypatch.chdir(tmp_path.parent)   # not where the result is
    saved = CliRunner().invoke(main, ["replay", str(d), "--game", "4", "--variant", "1"])
    direct = CliRunner().invoke(main, ["replay", "new_edition", "--seed", "5", "--game", "4",
                                       "--players", "greedy"])
    assert saved.exit_code == 0 and saved.output == direct.output
    by_name = CliRunner().invoke(main, ["replay", str(d), "--game", "4", "--variant",
                                        "new_edition"])
    assert by_name.output == saved.output
    r = CliRunner().invoke(main, ["replay", str(d), "--game", "4"])
    assert r.exit_code == 2 and "holds 2 variants (old_edition, new_edition)" in r.output
    r = CliRunner().invoke(main, ["replay", str(d), "--variant", "7"])
    assert r.exit_code == 2 and "--variant 7" in r.output
    # the report's replay lines are this form, run inside the result directory (issue 46: no
    # absolute path into where it was written), and each example game links its HTML page
    html = (d / "report.html").read_text()
    cmds = set(re.findall(r"momojan-sim replay (\S+) --game \d+ --variant \d", html))
    assert cmds == {"."}
    pages = set(re.findall(r"href='(replays/[^']+)'", html))
    assert pages and all((d / p).is_file() for p in pages)
    assert "[game " in (d / "report.md").read_text()   # the Markdown links them too


def test_html_replay_has_a_section_per_round(tmp_path):
    out = tmp_path / "g.html"
    r = CliRunner().invoke(main, ["replay", "new_edition", "--seed", "1", "--game", "3",
                                  "--html", str(out)])
    assert r.exit_code == 0, r.output
    page = out.read_text()
    n_rounds = r.output.count("── round ")
    assert page.count("<section id='r") == n_rounds > 1
    assert "class='ledger'" in page and "class='win'" in page and "🍑" in page
    r = CliRunner().invoke(main, ["replay", "new_edition", "--html", str(out)])
    assert r.exit_code == 2 and "--html" in r.output and "exists" in r.output


def test_every_yaku_that_fired_has_an_example_in_the_report(tmp_path):
    d = tmp_path / "run"
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "300", "--workers", "1",
                                  "--out", str(d), "--quiet", "--json"])
    assert r.exit_code == 0, r.output
    import json
    s = json.loads((d / "summary.json").read_text())
    html = (d / "report.html").read_text()
    table = html.split("Yaku value table")[1]
    for row in s["yaku_table"]:
        if row["wins_scored"]:
            cell = table.split(f"<td>{row['name']}</td>", 1)[1].split("</tr>", 1)[0]
            assert "momojan-sim replay" in cell and "replays/" in cell, row["name"]


def test_a_saved_run_says_how_to_replay_its_games(tmp_path):
    d = tmp_path / "run"
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "20", "--workers", "1",
                                  "--out", str(d)])
    assert r.exit_code == 0, r.output
    hint = [x for x in r.stderr.splitlines() if "replay any of its games" in x]
    assert hint and f"momojan-sim replay {d} --game N" in hint[0]

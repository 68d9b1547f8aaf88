"""A first run that talks (compile line, progress with rounds/s and ETA, --quiet) and a table
that explains itself (new picture-set yaku under their names, point-value changes the bots
cannot see)."""

import json
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner

from simcore.cli import common as cli_common
from simcore.cli import main
from simcore.cli.common import COMPILE_NOTE, Progress
from simcore.stats.moments import MomentSums

NEW_YAKU = ("extends: new_edition\nname: anyset\nscoring:\n  yaku:\n"
            "    anyset: {points: 1, sets_of: [[dog, monkey, pheasant, sun, moon]]}\n")


class _Fam:
    """A family as the progress display sees it: cached kernels or not, 6 rounds a game."""

    def __init__(self, cached):
        self._cached = cached


@pytest.fixture(autouse=True)
def _fake_family_services(monkeypatch):
    monkeypatch.setattr(cli_common, "kernels_cached", lambda fam: fam._cached)
    monkeypatch.setattr(cli_common, "rounds_played", lambda fam, sums, v=0: 6 * sums.n)


def _res(n):
    return SimpleNamespace(sums=MomentSums(n, np.zeros((1, 2), np.int64),
                                           np.zeros((1, 2, 2), np.int64)))


def test_compile_line_only_when_the_kernels_are_not_cached(capsys):
    Progress(family=_Fam(False)).starting()
    err = capsys.readouterr().err
    assert err.strip() == f"momojan-sim: {COMPILE_NOTE}" and "about a minute" in err
    Progress(family=_Fam(True)).starting()
    Progress(quiet=True, family=_Fam(False)).starting()
    assert capsys.readouterr().err == ""


def test_no_game_kernel_compile_line_when_every_seat_of_every_variant_searches(capsys):
    """A study whose every variant seats a search bot plays the search kernel alone (its compile
    says so itself): the policies' kernel being cold is not news. One variant without a search
    seat plays the policies' kernel, so the line comes."""
    search = {"players": [{"policy": "search"}, {"policy": "value"}]}
    plain = {"players": [{"policy": "value"}, {"policy": "value"}]}
    Progress(family=_Fam(False)).starting(None, [search, search])
    assert capsys.readouterr().err == ""
    Progress(family=_Fam(False)).starting(None, [search, plain])
    assert capsys.readouterr().err.strip() == f"momojan-sim: {COMPILE_NOTE}"


def test_progress_lines_carry_games_rounds_per_second_and_eta(capsys, monkeypatch):
    monkeypatch.setattr(Progress, "EVERY", 0.0)
    p = Progress(family=_Fam(True))
    p(2000, 10000, _res(2000))
    p(4000, 10000, _res(2000))
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1].startswith("momojan-sim: 4000/10000 games (")
    assert "rounds/s" in lines[-1] and "ETA " in lines[-1]
    q = Progress(quiet=True, family=_Fam(True))
    q(2000, 10000, _res(2000))
    assert capsys.readouterr().err == ""


def test_rates_and_eta_count_from_the_first_chunk_never_the_compile(capsys, monkeypatch):
    """Issue 50: the first ETA of a run that compiled for 48 s said 12:14 for 48 s of play."""
    clock = [100.0]
    monkeypatch.setattr(cli_common.time, "perf_counter", lambda: clock[0])
    monkeypatch.setattr(Progress, "EVERY", 0.0)
    p = Progress(family=_Fam(True))
    clock[0] = 148.0                  # 48 s of start-up (a compile) before the first chunk
    p(1000, 10000, _res(1000))
    clock[0] = 149.0                  # the next chunk a second later: 1,000 games/s
    p(2000, 10000, _res(1000))
    first, second = capsys.readouterr().err.splitlines()
    assert "ETA from the next" in first and "/s" not in first, first
    assert "0:48 of start-up" in first, first
    assert "(1,000/s, 6,000 rounds/s), ETA 0:08" in second, second


def test_new_picture_set_yaku_show_under_their_names(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text(NEW_YAKU)
    r = CliRunner().invoke(main, ["run", str(f), "--games", "200", "--workers", "1",
                                  "--no-save", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "yaku_anyset_share (new)" in r.stdout
    assert "new_2" not in r.stdout    # unused slots are not listed
    r = CliRunner().invoke(main, ["run", str(f), "--games", "200", "--workers", "1",
                                  "--no-save", "--quiet", "--json"])
    s = json.loads(r.stdout)
    assert s["yaku"]["anyset"] > 0.3 and s["intervals"]["yaku"]["anyset"][0] > 0
    assert s["yaku_names"] == {"yaku_new_1_share": "anyset"}
    shown = CliRunner().invoke(main, ["show", str(f)]).stdout
    lines = shown.splitlines()
    at = next(i for i, x in enumerate(lines) if x.strip() == "anyset:")
    line = next(x for x in lines[at:] if x.strip().startswith("points: 1"))
    assert "# [set by v.yaml] (the spec's tag: [X]) a designer-added picture-set yaku: points" \
        in line


def test_point_value_changes_the_bots_cannot_see_are_said():
    r = CliRunner().invoke(main, ["compare", "new_edition", "no_ron_bonus", "--games", "100",
                                  "--players", "baseline", "--workers", "1", "--no-save",
                                  "--quiet", "--json"])
    note = json.loads(r.stdout)["note"]
    assert "scoring.ron_bonus" in note and "no seated policy (baseline)" in note
    # a policy that reads point values, but not this one (value does not plan for haitei, a
    # win on the last card): said per rule (issue 30 item 3); one it reads (kerai's): no note
    r = CliRunner().invoke(main, ["sweep", "new_edition", "--set", "scoring.yaku.haitei.points=3",
                                  "--set", "players=[{policy: value}, {policy: value}]",
                                  "--games", "100", "--workers", "1", "--no-save", "--quiet",
                                  "--json"])
    assert r.exit_code == 0, r.output
    assert "no seated policy (value) reads scoring.yaku.haitei.points" in json.loads(r.stdout)["note"]
    r = CliRunner().invoke(main, ["sweep", "new_edition", "--set", "scoring.yaku.kerai.points=7",
                                  "--set", "players=[{policy: value}, {policy: value}]",
                                  "--games", "100", "--workers", "1", "--no-save", "--quiet",
                                  "--json"])
    assert r.exit_code == 0, r.output
    assert "note" not in json.loads(r.stdout)


def test_a_long_start_keeps_talking_until_the_first_chunk(monkeypatch):
    # issue 31 item 2: no silent wait longer than the tick (10 s; here 0.05 s)
    said = []
    monkeypatch.setattr(cli_common, "notice", said.append)
    monkeypatch.setattr(Progress, "SLOW_START", 0.05)
    import time
    p = Progress(family=_Fam(cached=False))
    p.starting()
    time.sleep(0.4)
    p(1, 10)          # the first chunk: the ticks stop
    n = len(said)
    time.sleep(0.2)
    p.done()
    assert said[0] == COMPILE_NOTE
    assert sum(s.startswith("still compiling the game kernels (") for s in said) >= 3, said
    assert len(said) == n, said

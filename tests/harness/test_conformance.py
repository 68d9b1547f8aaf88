"""The family conformance check (simcore.testing) over every registered family and
over the fake four-seat family of tests/fake_family.py, which then goes through every command:
run, compare, tournament, report, show, replay, resume, save_result and the pickled chunk path
(tests/harness/test_ray.py plays it on a real 2-node Ray cluster)."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

import fake_family
from simcore.cli import main
from simcore.family import registry as families
from simcore.studies.tournament import seatings
from simcore.testing import check_family
import functools
from simcore.family.chunks import chunk_stats, rounds_played
from simcore.family.players import with_players
from simcore.family.summary import summarize, summary_table


@pytest.mark.parametrize("name", families.names())
def test_every_registered_family_conforms(name):
    fam = families.get(name)
    # MOMOJAN's check is in the quick tier: there it plays every bot but search, whose kernel
    # is a compile of its own (about a minute of one worker); the second tier plays it below
    bots = [p for p in fam.POLICIES.names if p != "search"] if name == families.DEFAULT else None
    done = check_family(fam, games=12, rule_keys=200, policies=bots)
    print(name, done)
    keys = next(d for d in done if d.endswith("rule keys"))
    # the check refuses a key that does not reach the engine; here: that it saw most of them
    # (MOMOJAN and P-style have over 80, emoji mahjong 50)
    from simcore.family.tables import flat
    n_keys = len(flat(fam.SCENARIOS.rules_data(fam.SCENARIOS.load(fam.DEFAULT_SCENARIO).to_dict())))
    assert int(keys.split()[0]) >= 0.8 * n_keys - len(fam.CONDITIONAL_KEYS) \
        and "1 and 2 workers" in done


@pytest.mark.second_tier
def test_the_default_family_conforms_with_its_search_bot():
    fam = families.get(families.DEFAULT)
    assert "search" in fam.POLICIES.names
    assert "debug play" in check_family(fam, games=12, rule_keys=20, policies=["search"])


def test_the_fake_four_seat_family_conforms(fake):
    fam = families.get("fake")
    sc = fam.SCENARIOS.load(fake)
    three = with_players(fam, sc, "weak,medium,strong,strong")
    done = check_family(fam, [sc, three], games=30)
    assert "1 and 2 workers" in done
    names = [m.name for m in fam.CATALOGUE]
    assert "seat3_win_share" in names and "seat2_ahead_of_seat3" in names


def test_a_family_object_pickles_as_its_module():
    import pickle
    fam = families.get("momojan")
    assert pickle.loads(pickle.dumps(fam)) is fam
    assert pickle.loads(pickle.dumps(functools.partial(chunk_stats, fam))).args == (fam,)


def _cli(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r


def test_the_fake_family_through_every_command(fake, tmp_path):
    # run, with a result directory, its report and show
    out = tmp_path / "run"
    r = _cli("run", fake, "--games", 60, "--workers", 1, "--out", out, "--json")
    summary = json.loads(r.stdout)
    seats = [k for k in summary["metrics"] if k.endswith("_win_share")]
    assert seats == [f"seat{s}_win_share" for s in range(4)]
    assert abs(sum(summary["metrics"][k]["value"] for k in seats) - 1) < 1e-9
    assert summary["metrics"]["seat0_win_share"]["reference"] == 0.25
    assert (out / "report.html").is_file()
    _cli("show", out)
    _cli("report", out)
    _cli("replay", fake, "--game", 3)
    # compare (a different seating), sweep of the noise, tournament of 4 seats
    other = tmp_path / "other.yaml"
    other.write_text(f"extends: {fake}\nname: other\nplayers: [{{policy: strong}}, "
                     "{policy: medium}, {policy: weak}, {policy: weak}]\n")
    r = _cli("compare", fake, other, "--games", 80, "--workers", 1, "--no-save")
    assert "seat0_win_share" in r.output and "seat3" in r.output
    r = _cli("sweep", fake, "--set", "noise=0.5,2.0", "--games", 60, "--workers", 1, "--out",
             tmp_path / "sw", "--metrics", "seat0_win_share,seat3_win_share")
    assert "noise=2.0" in r.output and (tmp_path / "sw" / "report.html").is_file()
    r = _cli("plan", fake, other, "--detect", "5pp", "--metric", "seat0_win_share")
    assert "games" in r.output
    t_out = tmp_path / "t"
    r = _cli("tournament", fake, "--policies", "weak,strong,medium", "--games", 20,
             "--workers", 1, "--out", t_out, "--json")
    data = json.loads(r.stdout)
    assert data["n_seats"] == 4 and data["ratings"][0]["entrant"] == "strong"
    assert len(data["seatings"]) == len(seatings(3, 4)) == 36
    assert (t_out / "report.html").is_file()


@pytest.mark.parametrize("seats", [3, 4])
def test_an_interrupted_tournament_resumes_to_the_same_result(fake, tmp_path, monkeypatch, seats):
    if seats == 3:
        fake = tmp_path / "fake3.yaml"
        fake.write_text("game: fake\nname: fake3\nplayers: [{policy: weak}, {policy: weak}, "
                        "{policy: weak}]\n")
    args = ["tournament", str(fake), "--policies", "medium,strong,weak", "--games", "400",
            "--workers", "1", "--json"]
    whole = _cli(*args, "--no-save")
    import simcore.studies.tournament as tournament
    real = tournament.chunk_stats

    def interrupted(fam, task):
        if task.start > 0:
            raise KeyboardInterrupt
        return real(fam, task)
    monkeypatch.setattr(tournament, "chunk_stats", interrupted)   # each seating's chunks
    out = tmp_path / "t"
    r = CliRunner().invoke(main, args + ["--out", str(out)])
    assert r.exit_code == 130 and f"tournament --resume {out}" in r.output
    monkeypatch.setattr(tournament, "chunk_stats", real)
    resumed = json.loads(_cli("tournament", "--resume", out, "--json", "--workers", 1).stdout)
    assert resumed.pop("result_dir") == str(out)
    assert resumed == json.loads(whole.stdout)


def test_the_fake_family_on_the_ray_chunk_path(fake):
    """What a Ray node does with a chunk: unpickle the task's function (the family comes back
    by importing its module) and run it; the sums equal the local ones."""
    import pickle
    from simcore.family.chunks import ChunkTask
    fam = families.get("fake")
    sc = fam.SCENARIOS.load(fake)
    task = ChunkTask((fam.SCENARIOS.payload(sc),), (5,), 0, 40)
    fn = pickle.loads(pickle.dumps(functools.partial(chunk_stats, fam)))
    a, b = fn(task).sums, chunk_stats(fam, task).sums
    assert np.array_equal(a.s, b.s) and a.n == 40


def test_the_python_api_runs_and_compares():
    import simcore
    fam, sc = simcore.load("new_edition")
    summary = simcore.run("new_edition", games=40, seed=2)
    assert summary["games"] == 40 and "first_dealer_win_rate" in summary["metrics"]
    rows = simcore.compare_scenarios("new_edition", "no_ron_bonus", games=40, metrics="ron_bonus_share")
    assert [r["metric"] for r in rows] == ["ron_bonus_share"]


def test_the_check_names_a_rule_key_that_never_reaches_the_engine(fake):
    """The check can fail: a family whose simulator ignores a rule key is refused, by name."""
    from simcore.testing import ConformanceError

    class Deaf(fake_family.FakeFamily):
        def engine_inputs(self, sc):
            return (self.SIMULATOR(sc).strength,)   # the noise never reaches the engine
    fam = Deaf()
    with pytest.raises(ConformanceError, match=r"rule key noise \(1\.0 -> 2\.0\) does not reach"):
        check_family(fam, [fam.SCENARIOS.load(fake)], games=6)


def test_the_check_names_tables_that_do_not_give_back_the_values(fake, monkeypatch):
    from simcore.testing import ConformanceError

    from simcore.family.tables import game_table
    import simcore.testing

    def lossy(fam, batch, first_game):
        cols = game_table(fam, batch, first_game)
        cols["score0"] = cols["score0"] // 2        # a lossy column
        return cols
    monkeypatch.setattr(simcore.testing, "game_table", lossy)
    fam = fake_family.FakeFamily()
    with pytest.raises(ConformanceError, match="saved tables do not give back"):
        check_family(fam, [fam.SCENARIOS.load(fake)], games=30)


@pytest.mark.plays("ptrump")
def test_summaries_speak_each_familys_words_and_show_a_2_seat_order_once():
    import simcore
    fam, sc = simcore.load("ptrump_2p")
    text = summary_table(fam, simcore.run("ptrump_2p", games=20, seed=1))
    assert "20 matches," in text and "matchs" not in text
    assert "seat0_ahead_of_seat1" not in text and "seat1_win_share" in text   # = seat 0's share
    assert "share of the matches won by seat 0" in fam.CATALOGUE[1].description
    mom, _ = simcore.load("new_edition")
    text = summary_table(mom, simcore.run("new_edition", games=20, seed=1))
    assert "20 games," in text and "seat0_ahead_of_seat1" not in text


@pytest.mark.plays("ptrump")
def test_the_report_draws_each_group_of_metrics_in_its_own_figure(tmp_path, monkeypatch):
    """Bug: the report took the family's groups by position, so a family with a seats group
    (P-style, then every family) drew its seat shares as "How matches end" and its end reasons
    as yaku."""
    from simcore.report import html as report_html
    drawn = {}
    real = report_html.fig_shares

    def record(rows, cat, title, *args, **kw):
        drawn[title] = [n for n, _ in rows]
        return real(rows, cat, title, *args, **kw)
    monkeypatch.setattr(report_html, "fig_shares", record)
    _cli("run", "ptrump_2p", "--games", 60, "--workers", 1, "--out", tmp_path / "r")
    ends = next(v for k, v in drawn.items() if k.startswith("How matches end"))
    yaku = next(v for k, v in drawn.items() if k.startswith("Yaku"))
    assert ends and all(n.startswith("end_") for n in ends)
    assert yaku and all(n.startswith("yaku_") for n in yaku)
    assert "figures/seats.png" in (tmp_path / "r" / "report.md").read_text()


def test_save_result_writes_a_directory_the_readers_open(fake, tmp_path):
    """simcore.report.save.save_result (a notebook's own study, one call) for any family: the
    directory it writes loads, shows and has its report."""
    from simcore.report.save import save_result
    from simcore.studies.results import load
    from simcore.studies.study import run_study
    fam = families.get("fake")
    sc = fam.SCENARIOS.load(fake)
    res = run_study(fam, [sc], 3, 50, workers=1)
    summary = summarize(fam, sc, 3, res.sums)
    path = save_result(fam, "run", [sc], 3, 50, summary, out=str(tmp_path / "saved"),
                       rounds=rounds_played(fam, res.sums))
    r = load(path)
    assert r.complete and r.summary["metrics"]["seat2_win_share"] == summary["metrics"][
        "seat2_win_share"]
    assert (tmp_path / "saved" / "report.html").is_file()
    _cli("show", path)


def test_a_study_opened_interrupted_and_resumed_from_python(fake, tmp_path, monkeypatch):
    """simcore.studies.directory: what run/compare/sweep do, from a notebook: open, play into the
    directory, resume an interrupted one to the same sums as one uninterrupted study."""
    from simcore.studies.directory import finish_study, open_study, resume_study
    from simcore.studies.study import run_study
    other = tmp_path / "other.yaml"
    other.write_text(fake.read_text().replace("name: fake4", "name: other") + "noise: 2.0\n")
    whole = open_study("compare", [fake, other], games=4000, seed=5, workers=1, save=False)
    ref = run_study(whole.family, whole.scenarios, 5, 4000, 1).sums
    st = open_study("compare", [fake, other], games=4000, seed=5, workers=1,
                    out=str(tmp_path / "ab"))
    import simcore.studies.study as study
    real = study.chunk_stats

    def interrupted(fam, task):
        if task.start > 0:
            raise KeyboardInterrupt
        return real(fam, task)
    monkeypatch.setattr(study, "chunk_stats", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_study(st.family, st.scenarios, st.seed, st.games, 1, sink=st.create())
    monkeypatch.setattr(study, "chunk_stats", real)
    again = resume_study("compare", str(tmp_path / "ab"), workers=1)
    assert [sc.name for sc in again.scenarios] == ["fake4", "other"] and again.games == 4000
    res = run_study(again.family, again.scenarios, again.seed, again.games, 1, sink=again.sink)
    assert np.array_equal(res.sums.s, ref.s) and np.array_equal(res.sums.c, ref.c)
    summary = finish_study(again, {"note": "from Python"}, res)
    assert summary["kind"] == "compare" and len(summary["per_variant"]) == 2
    assert json.loads((tmp_path / "ab" / "provenance.json").read_text())["status"] == "complete"


def test_the_python_sweep_is_the_commands():
    """simcore.sweep and ``momojan-sim sweep --json`` give the same rows (one library
    function, simcore.studies.sweeps.sweep_result, behind both)."""
    import simcore
    table = simcore.sweep("new_edition", {"scoring.ron_bonus": [0, 2]}, games=60, seed=3)
    r = _cli("sweep", "new_edition", "--set", "scoring.ron_bonus=0,2", "--games", 60, "--seed",
             3, "--workers", 1, "--json", "--no-save")
    cli = json.loads(r.stdout)
    assert table["variants"] == cli["variants"] and table["grid"] == cli["grid"]
    assert len(table["variants"]) == 3   # the base and its two variants


def test_the_kit_s_game_column_is_int64_without_being_named():
    """A newcomer's trial: a family that did not name ``game`` in ROUND_DTYPES stored it as
    int8, and ``run --records`` ended in a traceback after 127 games (the conformance check
    plays 24)."""
    from types import SimpleNamespace
    from simcore.family.tables import round_table
    fam = SimpleNamespace(ROUND_DTYPES={}, SIMULATOR=SimpleNamespace(ROUND_FIELDS=("game", "x")))
    batch = SimpleNamespace(rounds=np.array([[0, 1], [300, 2], [5_000_000_000, 3]], np.int64))
    cols = round_table(fam, batch)
    assert cols["game"].dtype == np.int64 and cols["x"].dtype == np.int8
    assert cols["game"].tolist() == [0, 300, 5_000_000_000]


def test_a_family_without_a_search_bot_says_so():
    """A newcomer's trial: --players search on a family with none said 'unknown policy'."""
    from simcore.errors import InputError
    from simcore.family.players import parse_players
    with pytest.raises(InputError, match="this game family has no search bot "
                                         r"\(its bots: random, greedy\)"):
        parse_players("search", names=["random", "greedy"])
    with pytest.raises(InputError, match="unknown policy 'greedyy'.*did you mean 'greedy'"):
        parse_players("greedyy", names=["random", "greedy"])

"""Bad input, round three (issue 26): the commands added since the first two rounds. The promise
is the same: one line ``momojan-sim: error: ...`` naming the problem and where, exit 2, no
traceback, and nothing written, lost or mixed."""

from __future__ import annotations

import glob
import json
import os

import pytest
from click.testing import CliRunner

from simcore.cli import main
from harness.test_cli_input import _one_error_line


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A scratch working directory that is also the default results root."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MOMOJAN_SIM_RESULTS", str(tmp_path / "results"))
    return tmp_path


def _tree(path):
    return sorted(os.path.relpath(p, path) for p in glob.glob(f"{path}/**", recursive=True))


# --- lost or mixed data ----------------------------------------------------------------------

@pytest.mark.parametrize("cmd", [
    ["run", "new_edition"],
    ["compare", "new_edition", "no_ron_bonus"],
    ["sweep", "new_edition", "--set", "ante.base=1,2"],
])
@pytest.mark.parametrize("out", ["keep.json", "keepdir"])
def test_no_save_with_out_is_refused_and_writes_nothing(here, cmd, out):
    (here / "keep.json").write_text("precious\n")
    before = _tree(here)
    _one_error_line(invoke(*cmd, "--games", 2, "--no-save", "--out", out), "--no-save")
    assert _tree(here) == before and (here / "keep.json").read_text() == "precious\n"


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    """A finished 2-chunk run, turned into an incomplete one for --resume tests (copies)."""
    d = tmp_path_factory.mktemp("saved") / "r"
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "1500", "--workers", "1",
                                  "--records", "--out", str(d), "--no-report", "--quiet"])
    assert r.exit_code == 0, r.output
    return d


def _incomplete_copy(src, dst):
    import shutil
    shutil.copytree(src, dst)
    p = dst / "provenance.json"
    prov = json.loads(p.read_text())
    prov["status"] = "incomplete"
    p.write_text(json.dumps(prov))
    (dst / "summary.json").unlink()
    # keep only the first chunk, so that there is something left to play
    chunks = sorted((dst / "chunks").glob("*.json"))
    for c in chunks[1:]:
        c.unlink()
    return dst


def _edit_json(path, fn):
    data = json.loads(path.read_text())
    data = fn(data) or data
    path.write_text(json.dumps(data))


def _copy_chunk_on(d):
    """Chunk 0 copied under the name of the next chunk: its games would count twice."""
    first = _first(d, "chunks/*.json")
    stop = json.loads(first.read_text())["stop"]
    (d / "chunks" / f"{stop:015d}.json").write_text(first.read_text())


def _first(d, pattern):
    return sorted(d.glob(pattern))[0]


DAMAGES = {
    "variants edited": (lambda d: _edit_json(d / "variants.json",
                                             lambda v: v[0].update(starting_points=41)),
                        "variants.json is not the one"),
    "chunk sums edited": (lambda d: _edit_json(_first(d, "chunks/*.json"),
                                               lambda c: c["sums"].update(n=5)),
                          "was changed after it was written"),
    "chunk copied to another start": (lambda d: _copy_chunk_on(d), None),
    "chunk truncated": (lambda d: _first(d, "chunks/*.json").write_text('{"start": 0, '),
                        "cannot read"),
    "chunk not an object": (lambda d: _first(d, "chunks/*.json").write_text("[]"),
                            "not a chunk"),
    "parquet damaged": (lambda d: _first(d, "games/*.parquet").write_bytes(b"PAR1garbage"),
                        "changed or damaged"),
    "parquet missing": (lambda d: _first(d, "games/*.parquet").unlink(), "is missing"),
    "provenance key missing": (lambda d: _edit_json(d / "provenance.json",
                                                    lambda p: p.pop("seed")), "no 'seed'"),
    "provenance not an object": (lambda d: (d / "provenance.json").write_text('"x"'),
                                 "not a momojan-sim result"),
    "unknown format_version": (lambda d: _edit_json(d / "provenance.json",
                                                    lambda p: p.update(format_version=99)),
                               "newer momojan-sim"),
    "format_version of another type": (
        lambda d: _edit_json(d / "provenance.json", lambda p: p.update(format_version="2")),
        "unknown format_version"),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_resume_refuses_a_damaged_or_edited_directory(here, saved_run, damage):
    d = _incomplete_copy(saved_run, here / "r")
    fn, fragment = DAMAGES[damage]
    fn(d)
    before = {p: open(p, "rb").read() for p in glob.glob(f"{d}/**", recursive=True)
              if os.path.isfile(p)}
    r = invoke("run", "--resume", d, "--quiet", "--no-report")
    if damage == "chunk copied to another start":
        line = _one_error_line(r, "holds games from 0, not")
    else:
        line = _one_error_line(r, *([fragment] if fragment else []))
    assert str(d) in line or "provenance.json" in line
    after = {p: open(p, "rb").read() for p in glob.glob(f"{d}/**", recursive=True)
             if os.path.isfile(p)}
    assert after == before, "a refused resume must leave the directory as it was"


def test_resume_of_an_undamaged_directory_still_finishes(here, saved_run):
    d = _incomplete_copy(saved_run, here / "r")
    r = invoke("run", "--resume", d, "--quiet", "--no-report", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["games"] == json.loads((saved_run / "summary.json")
                                                       .read_text())["games"]


@pytest.mark.parametrize("extra", [["--games", "10"], ["--seed", "3"]])
def test_compare_resume_refuses_games_and_seed(here, extra):
    r = invoke("compare", "new_edition", "no_ron_bonus", "--games", 40, "--out", "c",
               "--no-report", "--quiet", "--workers", 1)
    assert r.exit_code == 0, r.output
    _edit_json(here / "c" / "provenance.json", lambda p: p.update(status="incomplete"))
    _one_error_line(invoke("compare", "--resume", "c", *extra), "--resume", extra[0])


@pytest.mark.parametrize("damage", ["provenance key missing", "provenance not an object",
                                    "unknown format_version", "chunk sums edited"])
@pytest.mark.parametrize("command", ["show", "report", "compare"])
def test_readers_of_a_damaged_directory_say_one_line(here, saved_run, damage, command):
    import shutil
    d = here / "r"
    shutil.copytree(saved_run, d)
    DAMAGES[damage][0](d)
    args = [command, d] + ([saved_run] if command == "compare" else [])
    r = invoke(*args)
    if damage == "chunk sums edited" and command != "compare":
        return   # show and report read the summary, not the chunks
    _one_error_line(r, str(d))


def test_readers_of_damaged_summary_or_tables_say_one_line(here, saved_run):
    import shutil
    for name, fn in {
        "summary not an object": lambda d: (d / "summary.json").write_text("[1, 2]"),
        "summary truncated": lambda d: (d / "summary.json").write_text('{"games": '),
        "summary keys missing": lambda d: (d / "summary.json").write_text('{"kind": "run"}'),
        "parquet corrupt": lambda d: _first(d, "games/*.parquet").write_bytes(b"garbage"),
    }.items():
        d = here / name.replace(" ", "_")
        shutil.copytree(saved_run, d)
        fn(d)
        for command in ("show", "report"):
            if name == "parquet corrupt" and command == "report":
                continue   # the report is drawn from summary.json alone
            _one_error_line(invoke(command, d), str(d))


def test_compare_of_a_result_and_an_empty_directory_blames_the_empty_one(here, saved_run):
    os.mkdir("empty")
    line = _one_error_line(invoke("compare", saved_run, "empty"), "empty")
    assert "not a result directory" in line


# --- hangs and resource bombs ------------------------------------------------------------------

def test_a_yaml_alias_bomb_is_refused_quickly(here):
    lines = ["extends: new_edition", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    lines.append("description: *a9")
    (here / "bomb.yaml").write_text("\n".join(lines) + "\n")
    for cmd in (["validate", "bomb.yaml"], ["run", "bomb.yaml", "--no-save"],
                ["show", "bomb.yaml"]):
        r = invoke(*cmd)
        assert r.exit_code == 2 and "aliases are expanded" in r.output and \
            "Traceback" not in r.output


def test_a_1500_file_extends_chain_is_refused(here):
    for i in range(1500):
        (here / f"c{i}.yaml").write_text(f"extends: c{i + 1}.yaml\n" if i < 1499
                                         else "extends: new_edition\n")
    _one_error_line(invoke("run", "c0.yaml", "--no-save"), "c0.yaml", "more than 64 files")
    assert not os.path.exists("results")


# --- tracebacks before: long integers, NaN options -------------------------------------------

@pytest.mark.parametrize("value", ["9" * 5000, "9" * 30, "-" + "9" * 30])
def test_integers_of_many_digits_in_yaml(here, value):
    (here / "big.yaml").write_text(f"extends: new_edition\nstarting_points: {value}\n")
    line = _one_error_line(invoke("validate", "big.yaml"), "big.yaml")
    assert len(line) < 300


@pytest.mark.parametrize("args, option", [
    (["compare", "new_edition", "no_ron_bonus", "--alpha", "nan"], "--alpha"),
    (["compare", "new_edition", "no_ron_bonus", "--target-ci", "nan"], "--target-ci"),
    (["run", "new_edition", "--target-ci", "inf"], "--target-ci"),
    (["plan", "new_edition", "--detect", "nan"], "--detect"),
    (["plan", "new_edition", "--detect", "-inf"], "--detect"),
    (["plan", "new_edition", "--metric", "mean_final_margin", "--detect", "1e300"],
     "--detect"),    # a QA trial: it planned "0 games"
    (["sweep", "new_edition", "--set", "ante.base=1,2", "--alpha", "nan"], "--alpha"),
])
def test_nan_and_inf_options_are_one_line(here, args, option):
    _one_error_line(invoke(*args, *([] if args[0] == "plan" else ["--no-save"])), option)
    assert not os.path.exists("results")


# --- nothing half-written when a command fails before it plays --------------------------------

@pytest.mark.parametrize("args, fragment", [
    (["compare", "new_edition", "no_ron_bonus", "--metrics", "nosuch"], "--metrics"),
    (["compare", "new_edition", "no_ron_bonus", "--target-ci", "0.1", "--target-metric",
      "nosuch"], "--target-metric"),
    (["run", "new_edition", "--players", "nosuch"], "nosuch"),
    (["sweep", "new_edition", "--set", "ante.base=1,2", "--metrics", "nosuch"], "--metrics"),
    (["run", "new_edition", "--target-ci", "0.1", "--games", "50", "--max-games", "10"],
     "--max-games"),
])
@pytest.mark.parametrize("out", [None, "outdir"])
def test_a_command_failing_before_it_plays_leaves_no_directory(here, args, fragment, out):
    extra = ["--out", out] if out else []
    _one_error_line(invoke(*args, *extra, "--quiet"), fragment)
    assert not os.path.exists("outdir")
    assert not os.path.exists("results") or not os.listdir("results")


# --- options silently ignored ------------------------------------------------------------------

def test_target_metric_without_target_ci_is_refused(here):
    _one_error_line(invoke("run", "new_edition", "--target-metric", "draw_rate", "--no-save"),
                    "--target-metric", "--target-ci")


@pytest.mark.parametrize("option", [["--by", "ron"], ["--win", "5"], ["--riichi"],
                                    ["--dora-indicator", "K"]])
def test_score_options_a_ptrump_hand_cannot_use_are_refused(option):
    _one_error_line(invoke("score", "--game", "ptrump", "234 67 55 +8 tsumo", *option),
                    option[0], "would be ignored")


@pytest.mark.parametrize("key", ["run.seed", "run.games", "name", "description"])
def test_sweep_refuses_keys_that_are_not_rules(here, key):
    _one_error_line(invoke("sweep", "new_edition", "--set", f"{key}=1,2", "--no-save"),
                    f"--set {key}", "not a rule")


def test_metrics_of_a_missing_scenario_is_an_error():
    _one_error_line(invoke("metrics", "nosuch.yaml"), "nosuch.yaml")


@pytest.mark.parametrize("args", [
    ["waits", "1l" * 50_000],
    ["score", "1l" * 50_000, "--win", "2l"],
    ["waits", "--game", "ptrump", "9" * 100_000],
    ["run", "new_edition", "--players", "value:call=" + "9" * 5000, "--no-save"],
    ["sweep", "new_edition", "--set", "ante.base=" + "9" * 5000, "--no-save"],
    ["compare", "new_edition", "no_ron_bonus", "--metrics", "x" * 100_000, "--no-save"],
])
def test_huge_input_is_not_echoed_whole(here, args):
    line = _one_error_line(invoke(*args))
    assert len(line) < 1100, len(line)


# --- found by a second audit --------------------------------------------------------------------

def test_out_file_never_overwrites(here, saved_run):
    import shutil
    shutil.copytree(saved_run, here / "x")
    before = (here / "x" / "summary.json").read_bytes()
    _one_error_line(invoke("run", "new_edition", "--games", 5, "--quiet", "--out",
                           "x/summary.json"), "exists")
    assert (here / "x" / "summary.json").read_bytes() == before
    (here / "keep.json").write_text("precious")
    _one_error_line(invoke("compare", "new_edition", "no_ron_bonus", "--games", 5, "--quiet",
                           "--out", "keep.json"), "keep.json", "exists")
    assert (here / "keep.json").read_text() == "precious"


@pytest.mark.parametrize("edit", [{"seed": 5}, {"games": 9}, {"options": {"records": False}},
                                  {"batch_stop": "x"}])
def test_resume_refuses_an_edited_provenance(here, saved_run, edit):
    d = _incomplete_copy(saved_run, here / "r")
    _edit_json(d / "provenance.json", lambda p: p.update(edit))
    _one_error_line(invoke("run", "--resume", d, "--quiet", "--no-report"), "provenance.json")


def test_resume_refuses_a_chunk_of_another_run_with_the_same_rules(here, saved_run):
    other = here / "other"
    r = invoke("run", "new_edition", "--games", 1500, "--seed", 2, "--workers", 1, "--records",
               "--out", other, "--no-report", "--quiet")
    assert r.exit_code == 0, r.output
    d = _incomplete_copy(saved_run, here / "r")
    for sub in ("chunks/*.json", "games/*.parquet", "rounds/*.parquet"):
        src = _first(other, sub)
        (d / src.parent.name / src.name).write_bytes(src.read_bytes())
    _one_error_line(invoke("run", "--resume", d, "--quiet", "--no-report"), "another result")


@pytest.mark.parametrize("cmd, extra", [
    ("compare", ["--alpha", "0.3"]), ("compare", ["--metrics", "draw_rate"]),
    ("compare", ["--no-pairing"]), ("compare", ["--records"]),
    ("sweep", ["--metrics", "draw_rate"]), ("sweep", ["--target-ci", "0.5"]),
])
def test_compare_and_sweep_resume_refuse_analysis_options(here, cmd, extra):
    args = ["compare", "new_edition", "no_ron_bonus"] if cmd == "compare" else \
        ["sweep", "new_edition", "--set", "ante.base=1,2"]
    r = invoke(*args, "--games", 40, "--out", "c", "--no-report", "--quiet", "--workers", 1)
    assert r.exit_code == 0, r.output
    _edit_json(here / "c" / "provenance.json", lambda p: p.update(status="incomplete"))
    _one_error_line(invoke(cmd, "--resume", "c", *extra), "--resume", extra[0])


@pytest.mark.parametrize("extra", [["--games", "5"], ["--players", "greedy"],
                                   ["--target-ci", "0.1"], ["--records"], ["--out", "zz.json"]])
def test_compare_of_saved_results_refuses_play_options(here, saved_run, extra):
    _one_error_line(invoke("compare", saved_run, saved_run, *extra), "plays nothing", extra[0])
    assert not os.path.exists("zz.json")


def test_a_deeply_nested_mapping_is_one_line(here):
    (here / "deep.yaml").write_text("extends: new_edition\nscoring: " + "{a: " * 5000 + "1"
                                    + "}" * 5000 + "\n")
    _one_error_line(invoke("validate", "deep.yaml"), "deep.yaml")


def test_a_yaml_bomb_in_a_set_value_is_refused(here):
    levels = ["&a0 [" + ", ".join(["lol"] * 9) + "]"]
    levels += [f"&a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    value = "[" + ", ".join(levels) + "]"
    _one_error_line(invoke("sweep", "new_edition", "--set", f"deck.fruits={value}",
                           "--no-save"), "--set deck.fruits")


@pytest.mark.parametrize("args", [["run", "new_edition", "--target-ci", "1e-300", "--no-save"],
                                  ["plan", "new_edition", "--detect", "1e-300"]])
def test_tiny_widths_are_refused_before_playing(here, args):
    _one_error_line(invoke(*args), args[2])


@pytest.mark.parametrize("extra", [["--policies", "greedy,nosuch"], ["--policies", "greedy"]])
def test_a_bad_tournament_leaves_no_directory(here, extra):
    _one_error_line(invoke("tournament", "new_edition", *extra, "--games", 5, "--out", "tb"))
    assert not os.path.exists("tb")


def test_tournament_no_save_with_out_is_refused(here):
    _one_error_line(invoke("tournament", "new_edition", "--policies", "greedy,value",
                           "--no-save", "--out", "tb"), "--no-save")


def test_an_endless_hand_is_refused_quickly(here):
    _one_error_line(invoke("waits", "1" * 100_000), "100,000 characters")


@pytest.mark.parametrize("args, option", [
    (["compare", "old_edition", "new_edition", "--pairings", "nosuch:greedy"], "--pairings"),
    (["tournament", "new_edition", "--policies", "greedy,value:call=2"], "--policies"),
    (["run", "new_edition", "--players", "value:call=2", "--no-save"], "--players"),
])
def test_seat_errors_name_the_option_given(here, args, option):
    _one_error_line(invoke(*args), option)


def test_a_bad_results_root_is_named_as_such(here, monkeypatch):
    (here / "afile").write_text("")
    monkeypatch.setenv("MOMOJAN_SIM_RESULTS", str(here / "afile"))
    line = _one_error_line(invoke("run", "new_edition", "--games", 5, "--quiet"))
    assert "$MOMOJAN_SIM_RESULTS" in line and "--out" not in line


def test_a_scenario_extending_another_family_names_its_own_file(here):
    (here / "p.yaml").write_text("extends: new_edition\nname: x\ngame: ptrump\n")
    _one_error_line(invoke("validate", "p.yaml"), "p.yaml: game: ptrump", "new_edition")
    (here / "q.yaml").write_text("extends: ptrump_2p\nname: x\ngame: momojan\n")
    _one_error_line(invoke("validate", "q.yaml"), "q.yaml: game: momojan", "ptrump_2p")


def test_missing_scenario_lists_every_family(here):
    line = _one_error_line(invoke("run", "nosuch", "--no-save"))
    assert "ptrump_2p" in line and "new_edition" in line


@pytest.mark.parametrize("option", ["--resume", "--out"])
def test_empty_paths_are_refused(here, option):
    _one_error_line(invoke("run", "new_edition", "--games", 5, option, ""), option)


@pytest.mark.ray
def test_a_ray_address_where_something_else_listens_is_one_line_quickly(here):
    """Not a Ray head (a plain TCP listener): refused within seconds, not after Ray's minute of
    retries with its C++ warnings, and no result directory (spec: issue 26)."""
    pytest.importorskip("ray")
    import socket
    import threading
    import time
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    threading.Thread(target=lambda: [srv.accept() for _ in range(8)], daemon=True).start()
    port = srv.getsockname()[1]
    t = time.monotonic()
    r = invoke("run", "new_edition", "--games", 5, "--backend", "ray", "--address",
               f"127.0.0.1:{port}", "--out", "rn", "--quiet")
    _one_error_line(r, "--address", "not a Ray head")
    assert time.monotonic() - t < 30 and not os.path.exists("rn")
    srv.close()


@pytest.mark.parametrize("command", [["waits", "x"], ["score", "x"]])
def test_a_hand_command_on_a_family_without_hands_says_so_in_one_line(monkeypatch, command):
    """Found by a contributor adding a game without hands: `waits --game highcard 5` answered
    "argument 1: highcard has no hands to analyse", its own error blamed on the hand."""
    from simcore.family import registry
    monkeypatch.setitem(registry.FAMILIES, "fake", "fake_family")
    r = invoke(*command, "--game", "fake")
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        f"momojan-sim: error: {command[0]}: the fake family has no hands to analyse (its family "
        f"writes no {command[0]}_json)"]


@pytest.mark.parametrize("text", ["a/b\\nc", "a\\rb", "a\\u2028b", "a\\x00b"])
def test_a_name_of_several_lines_is_refused(tmp_path, text):
    """A QA trial: `name: "a/b\\nc"` validated, and the scenario.yaml a run saved (its header
    comment carries the name) then failed to load: `c: unknown key`."""
    f = tmp_path / "s.yaml"
    f.write_text(f'extends: new_edition\nname: "{text}"\n')
    r = invoke("validate", f)
    assert r.exit_code == 2 and "name: one line of text" in r.output, r.output


def test_a_name_with_a_tab_loads_and_its_saved_scenario_loads_back(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text('extends: new_edition\nname: "tab\\there"\n')
    d = tmp_path / "out"
    r = invoke("run", f, "--games", "20", "--workers", "1", "--quiet", "--no-report",
               "--out", d)
    assert r.exit_code == 0, r.output
    assert invoke("validate", d / "scenario.yaml").exit_code == 0


def test_a_description_over_several_lines_reads_as_one_line(tmp_path):
    """A designer's ``description: >`` (or ``|``) block carries line breaks: it is read as one
    line (its white space runs one space each), shown by ``show`` and saved by a run whose
    scenario.yaml loads back."""
    f = tmp_path / "s.yaml"
    f.write_text("extends: new_edition\ndescription: |\n  The new edition,\n  a higher ante.\n")
    r = invoke("show", f)
    assert r.exit_code == 0 and "The new edition, a higher ante." in r.output, r.output
    d = tmp_path / "out"
    r = invoke("run", f, "--games", "20", "--workers", "1", "--quiet", "--no-report",
               "--out", d)
    assert r.exit_code == 0, r.output
    assert invoke("validate", d / "scenario.yaml").exit_code == 0

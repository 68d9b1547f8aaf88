"""``--version``, ``scenarios``, ``validate`` of many files, ``show`` with tag comments, and
options that make no sense under the chosen rules (issue 7 items 10 and 13)."""

import importlib.metadata
import json

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from simcore.cli import main
from simcore.family import registry as families
from simcore.momojan import scenario
from simcore.momojan.scenario_yaml import annotated_yaml, flow
from simcore.momojan.schema import SCHEMA, iter_fields


def test_version():
    r = CliRunner().invoke(main, ["--version"])
    assert r.exit_code == 0
    assert r.output.strip() == f"momojan-sim, version {importlib.metadata.version('momojan-sim')}"


MOMOJAN_BUNDLED = scenario.bundled_names()


def test_scenarios_lists_every_bundled_one_with_its_family_and_description():
    r = CliRunner().invoke(main, ["scenarios"])
    assert r.exit_code == 0, r.output
    rows = r.output.strip().splitlines()
    assert [row.split()[0] for row in rows] == sorted(
        p.stem for p in families.bundled_dir().glob("*.yaml"))  # every file, any family
    assert set(scenario.bundled_names()) <= {row.split()[0] for row in rows}
    for row in rows:
        name, fam = row.split()[:2]
        assert fam == families.family_name_of(name)
        if fam == "momojan":
            description = scenario.load(name).get("description")
            assert description and row.endswith(description), row


def test_validate_checks_every_file_and_reports_every_bad_one(tmp_path):
    """Bug: validate stopped at the first bad file."""
    (tmp_path / "empty.yaml").write_text("")
    (tmp_path / "typo.yaml").write_text("startin_points: 30\n")
    r = CliRunner().invoke(main, ["validate", "new_edition", str(tmp_path / "empty.yaml"),
                                  "old_edition", str(tmp_path / "typo.yaml"), str(tmp_path)])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 5 and "Traceback" not in r.output
    assert lines[0] == "new_edition: OK (new_edition)"
    assert lines[2] == "old_edition: OK (old_edition)"
    assert "empty.yaml: the file is empty" in lines[1]
    assert "typo.yaml: startin_points: unknown key (did you mean 'starting_points'?)" in lines[3]
    assert "is a directory" in lines[4]
    assert all(line.startswith("momojan-sim: error: ") for line in (lines[1], lines[3], lines[4]))


def test_validate_all_good_exits_0():
    r = CliRunner().invoke(main, ["validate", *MOMOJAN_BUNDLED])
    assert r.exit_code == 0 and r.output.count(": OK (") == len(MOMOJAN_BUNDLED)


# --- show: the resolved scenario with [R]/[I]/reconstructed [X] comments ---

def _comment_of(text, key_line_start):
    line = next(l for l in text.splitlines() if l.strip().startswith(key_line_start))
    assert "  # " in line, line
    return line.split("  # ", 1)[1]


def test_show_keeps_the_tags_as_comments():
    """Bug: show printed bare YAML; the tags of new_edition.yaml were lost."""
    r = CliRunner().invoke(main, ["show", "double_at_8"])
    assert r.exit_code == 0, r.output
    text = r.output
    # a value the file itself sets says so (issue 27 item 5), the spec's tag after it
    assert _comment_of(text, "double_threshold: 8").startswith(
        "[set by double_at_8.yaml] (the spec's tag: [R]) ")
    assert _comment_of(text, "momotaro: 3").startswith("reconstructed [X] ")
    assert _comment_of(text, "tsumo_after_draw_three: true").startswith("[I] ")
    # every schema leaf (but the seats, commented on their own line) carries its tag and doc
    leaves = [(path, f) for path, f in iter_fields(SCHEMA) if f.kind != "players"]
    commented = [l for l in text.splitlines() if "  # " in l and not l.lstrip().startswith(("#", "-"))]
    assert len(commented) >= len(leaves)
    for path, f in leaves:
        key = path.rsplit(".", 1)[-1]
        label = {"R": "[R]", "I": "[I]", "X": "reconstructed [X]", "V": "[V] variant",
                 "T": "[tool]"}[f.tag]
        assert any(l.strip().startswith(f"{key}:") and (
            f"# {label} {f.doc}" in l or f"(the spec's tag: [{f.tag}]) {f.doc}" in l
            or f"] {label} {f.doc}" in l)   # [set by FILE] [tool] ...
            for l in commented), path


@pytest.mark.parametrize("name", MOMOJAN_BUNDLED)
def test_show_output_is_the_same_scenario(tmp_path, name):
    r = CliRunner().invoke(main, ["show", name])
    assert r.exit_code == 0, r.output
    (tmp_path / "shown.yaml").write_text(r.output)
    assert scenario.load(tmp_path / "shown.yaml").to_dict() == scenario.load(name).to_dict()


def test_show_documents_seat_parameters(monkeypatch):
    from policies.momojan import POLICIES
    from simcore.family.params import Param
    from simcore.family.policy import PolicySpec

    spec = PolicySpec(name="tuned", doc="a test bot", params=(
        Param(name="call", kind="float", default=0.5, min=0.0, max=1.0, doc="chance to call"),))
    monkeypatch.setitem(POLICIES.by_name, "tuned", spec)
    sc = scenario.from_dict({"players": [{"policy": "tuned", "params": {"call": 0.25}},
                                         {"policy": "random"}]})
    text = annotated_yaml(sc.to_dict())
    assert "- policy: tuned" in text and "# a test bot" in text
    assert _comment_of(text, "call: 0.25") == "a number 0..1, default 0.5: chance to call"
    assert yaml.safe_load(text)["players"] == [{"policy": "tuned", "params": {"call": 0.25}},
                                               {"policy": "random", "params": {}}]


@given(st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
                 st.lists(st.text(max_size=5), max_size=3),
                 st.dictionaries(st.text(min_size=1, max_size=5), st.integers(), max_size=3)))
def test_flow_values_load_back_on_one_line(value):
    line = f"  key: {flow(value)}  # a comment"
    assert "\n" not in line
    assert yaml.safe_load("outer:\n" + line)["outer"]["key"] == value


def test_keys_the_schema_does_not_know_are_written_without_comments():
    text = annotated_yaml({"scoring": {"mystery": {"points": 3}}}, SCHEMA)
    assert "    points: 3\n" in text and yaml.safe_load(text)["scoring"]["mystery"] == {"points": 3}
    # a yaku the scenario adds is commented from schema.NEW_YAKU (issue 10 item 6)
    text = annotated_yaml({"scoring": {"yaku": {"my_yaku": {"points": 3}}}}, SCHEMA)
    assert "      points: 3   " in text and "designer-added picture-set yaku: points" in text
    assert yaml.safe_load(text)["scoring"]["yaku"]["my_yaku"] == {"points": 3}


# --- options the rules do not have ---

def test_waits_refuses_a_kan_under_rules_without_kan():
    """Bug: `waits "kan:1111z ..."` answered under the new edition, which has no kan."""
    r = CliRunner().invoke(main, ["waits", "kan:1111z 123l 456l 7l"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert "argument 1: 'kan:1111z' is not a kan: kan is not played under these rules" in r.output
    r = CliRunner().invoke(main, ["waits", "--rules", "old_edition", "--json", "kan:1111z 123l 456l 7l"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["tenpai"] is True


def test_score_refuses_rinshan_under_rules_without_kan():
    """Bug: `score --rinshan` scored a kan-replacement win under rules without kan."""
    hand = "kai:111z kai:456o chi:789o 23o 44z"
    r = CliRunner().invoke(main, ["score", hand, "--win", "1o", "--rinshan"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1
    assert r.output.startswith("momojan-sim: error: --rinshan: kan is not played under new_edition")
    # under rules with kan the win needs the winner's own kan (issue 46: it scored without one)
    r = CliRunner().invoke(main, ["score", "kan:1111z kai:456o chi:789o 23o 44z", "--win", "1o",
                                  "--rinshan", "--rules", "old_edition", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["valid"] is True


def test_show_diff_marks_what_differs_from_the_base():
    """Issue 27 item 5: show --diff [BASE]; the marks sit in the comments (the YAML loads back)."""
    import yaml
    r = CliRunner().invoke(main, ["show", "no_ron_bonus", "--diff"])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if x.strip().startswith("ron_bonus:"))
    assert "[set by no_ron_bonus.yaml] [differs: new_edition has 1]" in line
    assert sum("[differs:" in x for x in r.output.splitlines()) == 1
    assert yaml.safe_load(r.output)["scoring"]["ron_bonus"] == 0
    r = CliRunner().invoke(main, ["show", "new_edition", "--diff", "old_edition"])
    assert r.exit_code == 0 and "[differs: old_edition has 30]" in r.output
    for args, what in [(["new_edition", "--diff"], "extends no scenario"),
                       (["new_edition", "--diff", "ptrump_3p"], "another game's"),
                       (["new_edition", "--diff", "nosuch"], "show --diff: nosuch")]:
        r = CliRunner().invoke(main, ["show", *args])
        assert r.exit_code == 2 and what in r.output and len(r.output.splitlines()) == 1


def test_a_run_of_one_game_prints_saves_shows_and_reports_its_values(tmp_path):
    """A QA trial: `run new_edition --games 1` crashed formatting an interval it cannot have
    (the delta method needs two games), after writing a directory `show` and `report` then
    called damaged. One game's values print with "no interval", and the result reads back."""
    out = tmp_path / "one"
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "1", "--workers", "1",
                                  "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "[no interval: 1 game]" in r.output and "Traceback" not in r.output
    shown = CliRunner().invoke(main, ["show", str(out)])
    assert shown.exit_code == 0 and "[no interval: 1 game]" in shown.output
    assert "no interval (one game)" in (out / "report.html").read_text()

"""Scenario loading, extends, validation, and the validate/show commands."""

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from simcore.cli import main
from simcore.momojan import scenario
from simcore.momojan.rules_array import RA_SCORING_RON_BONUS, RULES_LEN, build_rules_array
from simcore.momojan.schema import SCHEMA, defaults, iter_fields

BROKEN = Path(__file__).parents[1] / "broken_scenarios"
BROKEN_FILES = sorted(BROKEN.glob("*.yaml"))


def _expected(path):
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), path
    return first.removeprefix("# expect: ")


@pytest.mark.parametrize("name", scenario.bundled_names())
def test_every_bundled_scenario_validates(name):
    sc = scenario.load(name)
    assert sc.name == name
    assert len(build_rules_array(sc)) == RULES_LEN


def test_new_edition_file_spells_out_the_defaults():
    """The default scenario is the schema's defaults, written out with tags (nothing hidden);
    only its seats differ: the strongest bot that keeps its speed target (README "Bots")."""
    sc = scenario.load("new_edition")
    d = defaults()
    d["name"] = "new_edition"
    got = sc.to_dict()
    got["description"] = d["description"] = ""
    assert [s["policy"] for s in got.pop("players")] == ["value", "value"]
    d.pop("players")
    assert got == d
    raw = yaml.safe_load((scenario.BUNDLED_DIR / "new_edition.yaml").read_text())
    flat = {p for p, _ in iter_fields()}
    for path in flat:  # every leaf is present in the file itself
        node = raw
        for k in path.split("."):
            assert k in node, f"new_edition.yaml lacks {path}"
            node = node[k]


def test_reconstructed_values_are_marked_in_the_files():
    text = (scenario.BUNDLED_DIR / "new_edition.yaml").read_text()
    for key in ("momotaro", "ippatsu", "chinitsu", "oshimai", "tanyao", "toitoi", "sanshoku",
                "honitsu", "haitei", "houtei", "takaramono"):
        line = next(l for l in text.splitlines() if l.strip().startswith(f"{key}:"))
        assert "reconstructed" in line, line
    for key in ("tsumo_after_draw_three", "win_right_after_kai", "kai_optional", "declined_ron",
                "tenpai_requires_yaku"):
        line = next(l for l in text.splitlines() if l.strip().startswith(f"{key}:"))
        assert "[I]" in line, line


def test_extends_deep_merges_and_replaces_lists(tmp_path):
    (tmp_path / "base.yaml").write_text("extends: old_edition\nscoring: {ron_bonus: 3}\n")
    (tmp_path / "child.yaml").write_text(
        "extends: base.yaml\ndeck: {rank1_substitutes: [sun]}\nscoring: {yaku: {kerai: {points: 6}}}\n")
    sc = scenario.load(tmp_path / "child.yaml")
    assert sc.get("scoring.ron_bonus") == 3                  # from base
    assert sc.get("scoring.yaku.kerai.points") == 6          # from child
    assert sc.get("scoring.yaku.kerai.enabled") is True      # merged, not replaced
    assert sc.get("deck.rank1_substitutes") == ("sun",)      # list replaced whole
    assert sc.get("starting_points") == 30                   # from old_edition
    assert build_rules_array(sc)[RA_SCORING_RON_BONUS] == 3


def test_error_names_the_file_that_set_the_key(tmp_path):
    (tmp_path / "base.yaml").write_text("scoring: {ron_bonus: -2}\n")
    (tmp_path / "child.yaml").write_text("extends: base.yaml\n")
    with pytest.raises(scenario.ScenarioError, match=r"in \S*base\.yaml, extended by \S*child\.yaml: scoring\.ron_bonus"):
        scenario.load(tmp_path / "child.yaml")


def test_scenario_is_frozen():
    sc = scenario.load("new_edition")
    with pytest.raises(TypeError):
        sc.data["starting_points"] = 3
    with pytest.raises(Exception):
        sc.name = "x"


@pytest.mark.parametrize("path", BROKEN_FILES, ids=lambda p: p.stem)
def test_broken_files_are_rejected_with_the_expected_message(path):
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert _expected(path) in lines[0]
    assert str(path.name) in lines[0] or "cycle" in lines[0]


def test_validate_ok_and_show(tmp_path):
    runner = CliRunner()
    r = runner.invoke(main, ["validate", "new_edition", "scenarios/old_edition.yaml"])
    assert r.exit_code == 0 and r.output.count("OK") == 2
    r = runner.invoke(main, ["show", "double_at_8"])
    assert r.exit_code == 0
    shown = yaml.safe_load(r.output)
    assert shown["scoring"]["double_threshold"] == 8 and shown["starting_points"] == 40
    # what show prints is itself a valid scenario that resolves to the same thing
    (tmp_path / "shown.yaml").write_text(r.output)
    assert scenario.load(tmp_path / "shown.yaml").to_dict() == scenario.load("double_at_8").to_dict()


def test_unknown_scenario_name_suggests():
    r = CliRunner().invoke(main, ["validate", "old_editon"])
    assert r.exit_code == 2 and "did you mean 'old_edition'" in r.output


def test_schema_fields_all_have_docs_and_tags():
    for path, f in iter_fields(SCHEMA):
        assert f.doc and f.tag in "RIXVT", path


# --- issue 7 items 8, 9, 10, 12: where bundled scenarios live, unreadable and ambiguous files ---

def test_bundled_dir_is_the_installed_package_data_and_the_repository_folder():
    """Bug: a non-editable install looked for scenarios beside the package and found none. A
    checkout reads its own folder (one copy, no duplicate), whichever checkout the machine has
    installed (this test also runs in a clone on PYTHONPATH); the installed package data is a
    folder of the same scenarios (the wheel's: tests/harness/test_install.py)."""
    import importlib.resources
    assert "new_edition" in scenario.bundled_names()
    repo_scenarios = Path(__file__).resolve().parents[2] / "scenarios"
    assert scenario.BUNDLED_DIR.resolve() == repo_scenarios
    installed = Path(str(importlib.resources.files("simcore.scenarios")))
    assert "new_edition.yaml" in {p.name for p in installed.glob("*.yaml")}


def test_a_clone_on_the_path_reads_its_own_scenarios_not_the_installed_checkouts(tmp_path):
    """Bug (a contributor's trial, 7 December): a second clone run with PYTHONPATH read the
    scenarios of the checkout pip had installed, so the new family's scenario file was
    "no such scenario" in its own clone. Whichever checkout ``simcore`` comes from, its
    scenarios/ folder is the bundled one."""
    import shutil
    import subprocess
    import sys
    repo = Path(__file__).resolve().parents[2]
    clone = tmp_path / "clone"
    clone.mkdir()
    (clone / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    shutil.copytree(repo / "simcore", clone / "simcore",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pkl"))
    (clone / "scenarios").mkdir()
    out = subprocess.run(
        [sys.executable, "-c", "from simcore.family.scenario.files import bundled_dir; "
                               "print(bundled_dir())"],
        cwd=tmp_path, env={**__import__("os").environ, "PYTHONPATH": str(clone)},
        capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()) == clone / "scenarios"


def test_a_directory_is_named_as_a_directory(tmp_path):
    with pytest.raises(scenario.ScenarioError, match=r"is a directory, not a scenario file"):
        scenario.load(tmp_path)
    (tmp_path / "child.yaml").write_text("extends: sub\n")
    (tmp_path / "sub").mkdir()
    with pytest.raises(scenario.ScenarioError, match=r"extends: sub: is a directory"):
        scenario.load(tmp_path / "child.yaml")


@pytest.mark.parametrize("content, offset", [
    (b"name: caf\xe9\n", 9),                        # Latin-1
    (b"\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe", 10),  # a binary
])
def test_non_utf8_file_is_one_error_line(tmp_path, content, offset):
    path = tmp_path / "bad.yaml"
    path.write_bytes(content)
    with pytest.raises(scenario.ScenarioError, match=rf"bad\.yaml: not a UTF-8 text file "
                                                      rf"\(byte 0x[0-9a-f]{{2}} at offset {offset}\)"):
        scenario.load(path)
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_utf8_text_with_a_nul_byte_is_a_yaml_error(tmp_path):
    path = tmp_path / "nul.yaml"
    path.write_bytes(b"name: a\x00b\n")
    with pytest.raises(scenario.ScenarioError, match=r"nul\.yaml: not valid YAML"):
        scenario.load(path)


@pytest.mark.parametrize("text", ["", "\n\n", "# nothing but a comment\n", "---\n"])
def test_empty_file_is_refused_and_says_so(tmp_path, text):
    """Bug: an empty file silently ran the defaults."""
    path = tmp_path / "empty.yaml"
    path.write_text(text)
    with pytest.raises(scenario.ScenarioError, match=r"empty\.yaml: the file is empty"):
        scenario.load(path)


def test_duplicate_keys_name_both_lines(tmp_path):
    """Bug: PyYAML kept the second value silently."""
    path = tmp_path / "dup.yaml"
    path.write_text("name: a\nscoring:\n  yaku:\n    kerai: {points: 5, points: 6}\n")
    with pytest.raises(scenario.ScenarioError,
                       match=r"dup\.yaml: not valid YAML at line 4, column 24: duplicate key "
                             r"'points' \(first given at line 4\)"):
        scenario.load(path)
    path.write_text("name: a\nstarting_points: 30\nname: b\n")
    with pytest.raises(scenario.ScenarioError, match=r"line 3, column 1: duplicate key 'name' "
                                                     r"\(first given at line 1\)"):
        scenario.load(path)


def test_yaml_merge_keys_still_override(tmp_path):
    path = tmp_path / "merge.yaml"
    path.write_text("extends: new_edition\nscoring:\n  <<: {ron_bonus: 3, dora_per_card: 2}\n"
                    "  ron_bonus: 0\n")
    sc = scenario.load(path)
    assert sc.get("scoring.ron_bonus") == 0 and sc.get("scoring.dora_per_card") == 2


# --- issue 7 item 10: each policy declares its parameters; seats are checked against them ---

@pytest.fixture
def tuned_policy(monkeypatch):
    """A policy declaring one parameter of each kind (the shipped bots declare none yet)."""
    from policies.momojan import POLICIES
    from simcore.family.params import Param
    from simcore.family.policy import PolicySpec

    spec = PolicySpec(name="tuned", doc="test policy", params=(
        Param(name="call", kind="float", default=0.5, min=0.0, max=1.0, doc="chance to call"),
        Param(name="depth", kind="int", default=2, min=1, max=4, doc="search depth"),
        Param(name="defend", kind="bool", default=True, doc="folds against riichi"),
    ))
    monkeypatch.setitem(POLICIES.by_name, "tuned", spec)
    return spec


def _seats(params):
    return {"players": [{"policy": "tuned", "params": params}, {"policy": "random"}]}


def test_seat_params_are_filled_with_defaults_in_declared_order(tuned_policy):
    from policies.momojan import POLICIES
    param_row = POLICIES.param_row
    sc = scenario.from_dict(_seats({"defend": False, "call": 1}))
    params = sc.get("players")[0]["params"]
    assert list(params) == ["call", "depth", "defend"]
    assert dict(params) == {"call": 1.0, "depth": 2, "defend": False}
    assert param_row("tuned", params) == [1.0, 2.0, 0.0]
    assert dict(sc.get("players")[1]["params"]) == {}


@pytest.mark.parametrize("params, message", [
    ({"cal": 0.2}, r"players\[0\]\.params\.cal: tuned has no parameter 'cal' \(did you mean 'call'\?\)"),
    ({"speed": 1}, r"players\[0\]\.params\.speed: tuned has no parameter 'speed' "
                   r"\(it takes: call, depth, defend\)"),
    ({"call": 1.5}, r"players\[0\]\.params\.call: expected a number 0\.\.1, got 1\.5"),
    ({"call": "high"}, r"players\[0\]\.params\.call: expected a number 0\.\.1, got \"high\""),
    ({"call": True}, r"players\[0\]\.params\.call: expected a number 0\.\.1, got true"),
    ({"call": float("nan")}, r"players\[0\]\.params\.call: expected a number 0\.\.1, got nan"),
    ({"depth": 2.5}, r"players\[0\]\.params\.depth: expected an integer 1\.\.4, got 2\.5"),
    ({"depth": 0}, r"players\[0\]\.params\.depth: expected an integer 1\.\.4, got 0"),
    ({"defend": 1}, r"players\[0\]\.params\.defend: expected true or false, got 1"),
])
def test_seat_params_are_checked_against_the_declaration(tuned_policy, params, message):
    """Bug: any name and any number was accepted and passed on in file order."""
    with pytest.raises(scenario.ScenarioError, match=message):
        scenario.from_dict(_seats(params))


def test_undeclared_params_for_a_shipped_policy_are_refused(tmp_path):
    path = tmp_path / "seats.yaml"
    path.write_text("players:\n  - {policy: baseline, params: {aggression: 0.5}}\n"
                    "  - {policy: random}\n")
    with pytest.raises(scenario.ScenarioError, match=r"players\[0\]\.params\.aggression: baseline "
                                                     r"has no parameter 'aggression' \(it takes none\)"):
        scenario.load(path)


def test_every_declaration_is_usable_and_fits_the_engine_row():
    from policies.momojan import POLICIES
    from simcore.family.params import KINDS, value_error
    from simcore.momojan.simulate import MAX_PARAMS
    for i, spec in enumerate(POLICIES.specs):
        assert POLICIES.id(spec.name) == i and spec.doc
        assert len(spec.params) <= MAX_PARAMS, spec.name
        for p in spec.params:
            assert p.kind in KINDS and p.doc and value_error(p, p.default) is None


def test_simulator_passes_params_in_declared_order(tuned_policy, monkeypatch):
    """The engine's params row follows the declaration, not the order the YAML wrote them in."""
    from policies.momojan import POLICIES
    from simcore.momojan import simulate
    monkeypatch.setitem(POLICIES.ids, "tuned", 0)
    sc = scenario.from_dict(_seats({"defend": False, "depth": 3}))
    sim = simulate.Simulator(sc)
    assert sim.params[0, :4].tolist() == [0.5, 3.0, 0.0, 0.0]
    assert sim.params[1].tolist() == [0.0] * simulate.MAX_PARAMS


def test_run_seed_and_games_bounded_to_what_the_engine_holds(tmp_path):
    """A seed past uint64 (or games past int64) in YAML is one error line, not an OverflowError."""
    for key, value in (("seed", 2**64), ("games", 2**63)):
        f = tmp_path / f"{key}.yaml"
        f.write_text(f"extends: new_edition\nrun: {{{key}: {value}}}\n")
        with pytest.raises(scenario.ScenarioError, match=rf"run.{key}: expected an integer \d+\.\.2\^6[34]-1"):
            scenario.load(str(f))

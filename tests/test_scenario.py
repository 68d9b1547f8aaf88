"""Scenario loading, extends, validation, and the validate/show commands."""

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from simcore.cli import main
from simcore.momojan import scenario
from simcore.momojan.rules_array import RA_RON_BONUS, RULES_LEN, build_rules_array
from simcore.momojan.schema import SCHEMA, defaults, iter_fields

BROKEN = Path(__file__).parent / "broken_scenarios"
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
    """The default scenario is the schema's defaults, written out with tags (nothing hidden)."""
    sc = scenario.load("new_edition")
    d = defaults()
    d["name"] = "new_edition"
    got = sc.to_dict()
    got["description"] = d["description"] = ""
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
    for key in ("tsumo_after_draw_three", "win_right_after_kai", "kai_optional", "temporary",
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
    assert build_rules_array(sc)[RA_RON_BONUS] == 3


def test_error_names_the_file_that_set_the_key(tmp_path):
    (tmp_path / "base.yaml").write_text("scoring: {ron_bonus: -2}\n")
    (tmp_path / "child.yaml").write_text("extends: base.yaml\n")
    with pytest.raises(scenario.ScenarioError, match=r"base\.yaml: scoring\.ron_bonus"):
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
        assert f.doc and f.tag in "RIX", path

"""sweep's grid (simcore/studies/sweeps.py, ``parse_sets`` in simcore/cli/study.py): a value given twice,
a mapping, and two values that resolve to the same scenario are refused in one line naming the
option, exit 2, before any play and with nothing written (issue 46)."""

import pytest
from click.testing import CliRunner

from simcore.cli import main
from simcore.cli.study import parse_sets
from simcore.errors import InputError
from simcore.family import registry as families


@pytest.mark.parametrize("sets, message", [
    (["scoring.double_threshold=36,36"],
     "--set scoring.double_threshold=36,36: the value '36' is given twice"),
    (["scoring.double_threshold=6,6.0"], "the value '6.0' is given twice"),
    (["scoring.double_threshold=6,7,0x6"], "the value '0x6' is given twice"),
    (["scoring={}"], "--set scoring: value '{}' is a mapping"),
    (["scoring={ron_bonus: 1}"], "--set scoring: value '{ron_bonus: 1}' is a mapping"),
    (["compensation.komi=1", "scoring=1,{}"], "--set scoring: value '{}' is a mapping"),
])
def test_sweep_set_duplicates_and_mappings_are_one_line_exit_2(tmp_path, sets, message):
    out = tmp_path / "out"
    args = ["sweep", "new_edition", "--games", "10", "--out", str(out)]
    for s in sets:
        args += ["--set", s]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1
    assert not out.exists()


def test_parse_sets_keeps_distinct_values_and_lists():
    assert parse_sets(["a=1,2", "b=true,1", "c=[1, 2],[2, 1]"]) == [
        ("a", [1, 2]), ("b", [True, 1]), ("c", [[1, 2], [2, 1]])]
    with pytest.raises(InputError, match="given twice"):
        parse_sets(["c=[1, 2],[1, 2]"])


def test_sweep_values_that_resolve_to_the_same_scenario_are_refused(tmp_path):
    """The fake family reads its edge as a float: 1 and '1' differ as YAML, not as variants."""
    families.register("fake", "fake_family")
    try:
        path = tmp_path / "fake.yaml"
        path.write_text("game: fake\nname: fake\nplayers: [{policy: weak}, {policy: weak}]\n")
        out = tmp_path / "out"
        r = CliRunner().invoke(main, ["sweep", str(path), "--set", "edge=1,'1'", "--games",
                                      "10", "--out", str(out)])
        assert r.exit_code == 2, r.output
        assert "--set: edge=1 and edge=\"1\" give the same scenario" in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1 and not out.exists()
    finally:
        families.unregister("fake")


def test_a_value_equal_to_the_base_is_merged_into_the_base_row_and_said(tmp_path):
    """Issue 50: `sweep --set compensation.komi=0,1` on a base with komi 0 played komi 0 twice
    (as the base and as a variant); now it is the base row, and a line says so."""
    r = CliRunner().invoke(main, ["sweep", "new_edition", "--set", "compensation.komi=0,1",
                                  "--games", "40", "--workers", "1", "--no-save", "--json"])
    assert r.exit_code == 0, r.output
    assert ("momojan-sim: --set compensation.komi=0: new_edition's own value, merged into the "
            "base row (not played twice)") in r.stderr
    import json
    labels = [v["label"] for v in json.loads(r.stdout)["variants"]]
    assert labels == ["new_edition (base)", "compensation.komi=1"]


def test_a_grid_of_nothing_but_the_base_is_refused(tmp_path):
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["sweep", "new_edition", "--set", "compensation.komi=0",
                                  "--games", "40", "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == [
        "momojan-sim: error: --set: compensation.komi=0 is what new_edition already has: "
        "nothing to sweep (give values that change the rule)"]
    assert not out.exists()


def test_sweep_players_seats_every_variant_and_is_recorded(tmp_path):
    """``--players`` seats the base and every variant alike (issue 51: verdicts under other
    bots, ``search`` among them); the result records it, and a bad seat is one line, exit 2."""
    import json
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["sweep", "new_edition", "--set", "compensation.komi=1",
                                  "--players", "greedy", "--games", "6", "--out", str(out),
                                  "--no-report", "--quiet"])
    assert r.exit_code == 0, r.output
    variants = json.loads((out / "variants.json").read_text())   # the scenarios as played
    assert len(variants) == 2
    assert all([p["policy"] for p in v["players"]] == ["greedy", "greedy"] for v in variants)
    prov = json.loads((out / "provenance.json").read_text())
    assert prov["options"]["players"] == "greedy"
    bad = tmp_path / "bad"
    r = CliRunner().invoke(main, ["sweep", "new_edition", "--set", "compensation.komi=1",
                                  "--players", "grandmaster", "--out", str(bad)])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert "--players" in r.output and not bad.exists()

"""P-style trump scenarios: loading, extends, validation messages, beginner, the rules array."""

import pytest
import yaml

from simcore.ptrump import scenario
from simcore.ptrump.rules_array import (
    FIRST_DEALER_RANDOM, FURITEN_FULL, FURITEN_NONE, NEGATIVE_LITERAL, N_SLOTS, ONE_COLOUR_SUIT,
    RA_CARDS_ONE_COLOUR, RA_FURITEN, RA_ITEM_ENABLED, RA_ITEM_POINTS, RA_MATCH_FIRST_DEALER,
    RA_MATCH_TARGET_SCORE, RA_N_PLAYERS, RA_SCORING_NEGATIVE_WIN, RA_SCORING_YAKU_REQUIRED,
    RULES_LEN, SLOT, SLOTS, build_rules_array,
)
from simcore.ptrump.schema import SCHEMA, SPEC_OPTIONS, defaults, field_at, iter_fields

BUNDLED = ("ptrump_2p", "ptrump_3p", "ptrump_beginner", "ptrump_confirmed_only")


def _write(tmp_path, text, name="s.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _error(tmp_path, text, name="s.yaml"):
    with pytest.raises(scenario.ScenarioError) as exc:
        scenario.load(_write(tmp_path, text, name))
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_scenarios_validate(name):
    sc = scenario.load(name)
    assert sc.name == name and sc.get("game") == "ptrump"
    ra = build_rules_array(sc)
    assert ra.shape == (RULES_LEN,) and ra[RA_N_PLAYERS] == sc.n_players


def test_bundled_names_are_this_family_only():
    names = scenario.bundled_names()
    assert set(BUNDLED) <= set(names)
    assert "new_edition" not in names            # a MOMOJAN file says no `game: ptrump`


def test_default_file_spells_out_every_default():
    sc = scenario.load("ptrump_2p")
    d = defaults()
    d["name"], d["description"] = "ptrump_2p", sc.get("description")
    got = sc.to_dict()
    # the seats are the family's strongest bot (README: P-style), not the schema's `random`
    assert [s["policy"] for s in got.pop("players")] == ["greedy", "greedy"]
    d.pop("players")
    assert got == d
    raw = yaml.safe_load((scenario.BUNDLED_DIR / "ptrump_2p.yaml").read_text(encoding="utf-8"))
    for path, _ in iter_fields():
        node = raw
        for k in path.split("."):
            assert k in node, f"ptrump_2p.yaml lacks {path}"
            node = node[k]


def test_every_value_line_is_tagged_in_the_default_file():
    text = (scenario.BUNDLED_DIR / "ptrump_2p.yaml").read_text(encoding="utf-8")
    for path, f in iter_fields():
        leaf = path.split(".")[-1]
        if path.startswith(("run.", "name", "description", "players")) or f.tag == "R":
            continue
        # an [I]/[X] option is marked on its line (or its item's line)
        key = path.split(".")[-2] if leaf in ("enabled", "points", "stacks", "needs_terminal",
                                              "on_pairs", "per_set", "on_nukidora", "window",
                                              "when", "on_replacement", "excludes_replacement",
                                              "one_colour") and path.startswith("scoring.") else leaf
        lines = [ln for ln in text.splitlines() if ln.strip().startswith(f"{key}:")]
        assert lines and any(f"[{f.tag}]" in ln for ln in lines), path


def test_spec_options_all_map_to_schema_paths():
    for spec_name, path in SPEC_OPTIONS.items():
        if path != "players":
            field_at(path)
    for needed in ("one_colour", "negative_win", "furiten", "riichi_min_stock", "ura_joker",
                   "kakan_keeps_pon_penalty", "target_score", "next_dealer", "beginner",
                   "yakuman_exclusive", "nuki_in_content_checks", "replacement_reserve"):
        assert needed in SPEC_OPTIONS


def test_schema_fields_have_docs_and_tags():
    for path, f in iter_fields(SCHEMA):
        assert f.doc and f.tag in "RIXVT", path


def test_three_players_and_rules_array_codes():
    sc = scenario.load("ptrump_3p")
    ra = build_rules_array(sc)
    assert ra[RA_N_PLAYERS] == 3
    assert ra[RA_CARDS_ONE_COLOUR] == ONE_COLOUR_SUIT and ra[RA_FURITEN] == FURITEN_FULL
    assert ra[RA_MATCH_FIRST_DEALER] == FIRST_DEALER_RANDOM and ra[RA_MATCH_TARGET_SCORE] == 30
    assert ra[RA_ITEM_POINTS + SLOT["tenhou"]] == 8
    assert ra[RA_ITEM_POINTS + SLOT["kokushi_double"]] == 26
    assert ra[RA_ITEM_ENABLED + SLOT["open_riichi"]] == 0       # riichi.open_riichi: off
    assert len(SLOTS) == N_SLOTS and SLOTS[-1] == "floor"


def test_beginner_sets_its_values_over_the_base():
    sc = scenario.load("ptrump_beginner")
    assert sc.get("furiten") == "none" and sc.get("scoring.yaku_required") is False
    assert sc.get("scoring.deductions.chombo") == 2
    ra = build_rules_array(sc)
    assert ra[RA_FURITEN] == FURITEN_NONE and ra[RA_SCORING_YAKU_REQUIRED] == 0
    over = scenario.with_overrides(scenario.load("ptrump_2p"), {"beginner": True}, "b")
    assert over.get("furiten") == "none"


def test_beginner_refuses_a_contradiction_beside_it(tmp_path):
    msg = _error(tmp_path, "extends: ptrump_2p\nbeginner: true\nfuriten: full\n", "b.yaml")
    assert msg.startswith("b.yaml: furiten: beginner: true sets furiten")
    with pytest.raises(scenario.ScenarioError, match="--set furiten"):
        scenario.with_overrides(scenario.load("ptrump_2p"), {"beginner": True, "furiten": "full"},
                                "x")
    # a child of a beginner file that changes furiten contradicts it too
    _write(tmp_path, "extends: ptrump_beginner\nname: c\n", "c.yaml")
    msg = _error(tmp_path, "extends: c.yaml\nfuriten: discard_only\n", "d.yaml")
    assert "d.yaml: furiten" in msg


@pytest.mark.parametrize("text, expected", [
    ("extends: ptrump_2p\nriichi: {min_stock: x}\n",
     's.yaml: riichi.min_stock: expected one of players, one, got "x"'),
    ("extends: ptrump_2p\nriichi: {min_stok: one}\n",
     "s.yaml: riichi.min_stok: unknown key (did you mean 'min_stock'?)"),
    ("extends: ptrump_2p\nmatch: {target_score: 0}\n",
     "s.yaml: match.target_score: expected an integer 1..10000, got 0"),
    ("extends: ptrump_2p\nscoring: {yaku: {tanyao: {points: yes}}}\n",
     "s.yaml: scoring.yaku.tanyao.points: expected an integer 0..1000, got true"),
    ("extends: ptrump_2p\nkan: {added_kan: 1}\n",
     "s.yaml: kan.added_kan: expected true or false, got 1"),
    ("name: x\n", "s.yaml: game: missing"),
    ("game: momojan\n", 's.yaml: game: expected ptrump'),
    ("extends: ptrump_2p\nplayers: [{policy: random}]\n",
     "s.yaml: players: expected a list of 2 or 3 seats"),
    ("extends: ptrump_2p\nplayers: [{policy: random}, {policy: randon}]\n",
     "s.yaml: players[1].policy: unknown policy \"randon\" (did you mean 'random'?)"),
    ("extends: ptrump_2p\nplayers: [{policy: random}, {policy: random, parms: {}}]\n",
     "s.yaml: players[1].parms: unknown key (did you mean 'params'?)"),
    ("extends: ptrump_2p\nfuriten: full\nfuriten: none\n", "duplicate key 'furiten'"),
    ("extends: ptrump_2p\nmatch: {first_dealer: 2}\n",
     "s.yaml: match.first_dealer: seat 2 does not exist with 2 players"),
    ("extends: ptrump_2p\nmatch: {start_score: 30}\n",
     "s.yaml: match.start_score: 30 already reaches match.target_score"),
    ("extends: ptrump_2p\nnukidora: {mode: instead_of_discard}\n"
     "scoring: {yaku: {rinshan: {on_nukidora: true}}}\n",
     "s.yaml: scoring.yaku.rinshan.on_nukidora: nukidora.mode: instead_of_discard draws no"),
    ("extends: ptrump_2p\nscoring: {yakuman: {kokushi: {enabled: false}}}\n",
     "s.yaml: scoring.yakuman.kokushi.enabled: false, but scoring.yakuman.kokushi_double"),
    ("extends: ptrump_2p\ntenpai: {needs_yaku: true}\nscoring: {yaku_required: false}\n",
     "s.yaml: tenpai.needs_yaku: a win needs no yaku"),
    ("extends: ptrump_2p\nstock: {replacement_reserve: 9}\n",
     "s.yaml: stock.replacement_reserve: expected an integer 0..8, got 9"),
    # (the folder it read, then the hint: "... bundled scenario in DIR (did you mean ...?)")
    ("extends: ptrump_2q\n", "s.yaml: extends: ptrump_2q: no such scenario file or bundled "
     "scenario in "),
    ("extends: ptrump_2q\n", "scenarios (did you mean 'ptrump_2p'?)"),
])
def test_bad_files_give_one_line_naming_file_and_key(tmp_path, text, expected):
    assert expected in _error(tmp_path, text)


def test_non_utf8_and_empty_and_cycle(tmp_path):
    p = tmp_path / "bin.yaml"
    p.write_bytes(b"game: ptrump\nname: \xff\n")
    with pytest.raises(scenario.ScenarioError, match="not a UTF-8 text file"):
        scenario.load(p)
    assert "the file is empty" in _error(tmp_path, "", "e.yaml")
    _write(tmp_path, "extends: b2.yaml\n", "a2.yaml")
    _write(tmp_path, "extends: a2.yaml\n", "b2.yaml")
    assert "cycle" in _error(tmp_path, "extends: a2.yaml\n", "c2.yaml")


def test_extends_deep_merges_and_names_the_file_that_set_a_bad_key(tmp_path):
    _write(tmp_path, "extends: ptrump_3p\nscoring: {additive: {dora: {points: 2}}}\n", "base.yaml")
    sc = scenario.load(_write(tmp_path, "extends: base.yaml\nscoring: {additive: {dora: "
                              "{enabled: false}}}\n", "child.yaml"))
    assert sc.get("scoring.additive.dora.points") == 2            # from base
    assert sc.get("scoring.additive.dora.enabled") is False       # from child, merged
    assert sc.n_players == 3                                      # from ptrump_3p
    _write(tmp_path, "extends: ptrump_2p\nmatch: {max_rounds: -1}\n", "bad.yaml")
    # the line names the file the user gave and the base where the fault is (issue 46)
    assert _error(tmp_path, "extends: bad.yaml\n", "kid.yaml").startswith(
        "in bad.yaml, extended by kid.yaml: match.max_rounds")


def test_yaml_off_reads_as_the_enum_value(tmp_path):
    sc = scenario.load(_write(tmp_path, "extends: ptrump_2p\nriichi: {open_riichi: on}\n"
                              "cards: {one_colour: off}\nscoring: {additive: {nagashi: "
                              "{when: off}}}\n"))
    assert sc.get("riichi.open_riichi") == "on" and sc.get("cards.one_colour") == "off"
    assert sc.get("scoring.additive.nagashi.when") == "off"


def test_from_dict_get_frozen_and_rules_array():
    sc = scenario.from_dict({"scoring": {"negative_win": "literal"}, "match":
                             {"first_dealer": 1}}, name="nb")
    assert sc.name == "nb" and sc.get("scoring.negative_win") == "literal"
    ra = build_rules_array(sc)
    assert ra[RA_SCORING_NEGATIVE_WIN] == NEGATIVE_LITERAL and ra[RA_MATCH_FIRST_DEALER] == 1
    with pytest.raises(TypeError):
        sc.data["furiten"] = "none"


def test_annotated_yaml_loads_back_to_the_same_scenario(tmp_path):
    for name in ("ptrump_3p", "ptrump_beginner"):
        sc = scenario.load(name)
        text = sc.annotated_yaml()
        assert "# [I]" in text and "# [X] reconstructed" in text
        again = scenario.load(_write(tmp_path, text, f"{name}_shown.yaml"))
        assert again.to_dict() == sc.to_dict()


@pytest.mark.parametrize("name", BUNDLED)
def test_payload_round_trip(name):
    """A worker rebuilds a scenario from its plain data (family.payload -> from_dict)."""
    sc = scenario.load(name)
    assert scenario.from_dict(sc.to_dict(), name=name).to_dict() == sc.to_dict()


def test_seat_check_is_one_function():
    name, params = scenario.check_seat("random", {}, lambda key, msg: pytest.fail(msg))
    assert name == "random" and isinstance(params, dict)
    assert "random" in scenario.policy_names()

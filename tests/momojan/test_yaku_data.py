"""Picture-set yaku as data (spec §8): sets_of/kans_of conditions, new yaku, their validation."""

import json
from itertools import permutations

import numpy as np
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from simcore.cli import main
from simcore.momojan import scenario
from simcore.momojan.analysis import parse_hand_for
from simcore.momojan.cards import parse_card
from simcore.momojan.engine import OUT_DRAW, RF_OUTCOME, RF_YAKU_BITS
from simcore.momojan.rules_array import (
    MAX_NEW_YAKU, MAX_REQUIREMENTS, N_SCORE_SLOTS, RA_DATA_YAKU_N_REQ, RA_DATA_YAKU_REQ,
    RA_DATA_YAKU_SLOT, RA_YAKU_ENABLED, RA_YAKU_POINTS, REQ_KAN, RULES_LEN, SLOT_NEW_YAKU, Y,
    build_rules_array,
)
from simcore.momojan.schema import PICTURES, SET_BONUS_NAMES, YAKU
from simcore.momojan.scoring import Scorer, _requirements_met
from simcore.momojan.simulate import Simulator
from simcore.momojan.yaku_conditions import score_slot_names

DOG, MONKEY, PHEASANT, SUN, MOON = (1 << PICTURES.index(p) for p in PICTURES)


def score_under(overrides, hand, win, ron=False, base=None, **kw):
    """Score a hand (card notation) under the defaults (or ``base``) plus ``overrides``."""
    raw = overrides if base is None else _merged(scenario.load(base).to_dict(), overrides)
    s = Scorer(scenario.from_dict(raw))
    return s.score(parse_hand_for(hand, s.scenario.hand_rules), parse_card(win), ron, **kw)


def _merged(base, over):
    out = dict(base)
    for k, v in over.items():
        out[k] = _merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def yaku_table(**yaku):
    return {"scoring": {"yaku": yaku}}


def ron_cli(tmp_path, text, hand, win, *extra):
    path = tmp_path / "variant.yaml"
    path.write_text(text)
    return CliRunner().invoke(main, ["score", hand, "--win", win, "--rules", str(path), *extra])


# --- the bundled conditions, as data -------------------------------------------------------------

def _rows(ra):
    """{score slot: [requirement masks]} of the data-yaku table in a rules array."""
    rows = {}
    for row in range(len(ra)):
        slot = ra[RA_DATA_YAKU_SLOT + row]
        if slot < 0:
            break
        n = ra[RA_DATA_YAKU_N_REQ + row]
        rows[int(slot)] = [int(x) for x in ra[RA_DATA_YAKU_REQ + row * MAX_REQUIREMENTS:][:n]]
    return rows


def test_new_edition_picture_yaku_are_encoded_from_the_file():
    rows = _rows(build_rules_array(scenario.load("new_edition")))
    assert rows == {
        Y["dog"]: [DOG], Y["monkey"]: [MONKEY], Y["pheasant"]: [PHEASANT], Y["sun"]: [SUN],
        Y["moon"]: [MOON], Y["kerai"]: [DOG, MONKEY, PHEASANT],
        Y["takaramono"]: [SUN, MOON, DOG | MONKEY | PHEASANT],
        Y["oshimai"]: [DOG, MONKEY, PHEASANT, SUN, MOON],
    }


def test_old_edition_takaramono_is_a_picture_kan_plus_sun_and_moon_sets():
    sc = scenario.load("old_edition")
    assert sc.get("scoring.yaku.takaramono.sets_of") == ("sun", "moon")
    assert sc.get("scoring.yaku.takaramono.kans_of") == (("dog", "monkey", "pheasant", "sun", "moon"),)
    rows = _rows(build_rules_array(sc))
    assert rows[Y["takaramono"]] == [SUN, MOON, REQ_KAN | DOG | MONKEY | PHEASANT | SUN | MOON]


def test_the_takaramono_enum_is_gone():
    assert "condition" not in YAKU["takaramono"]
    with pytest.raises(scenario.ScenarioError, match=r"takaramono\.condition: unknown key"):
        scenario.from_dict(yaku_table(takaramono={"condition": "sun_moon_animal"}))


# --- editing a fixed yaku's condition changes what scores ----------------------------------------

def test_kerai_condition_is_editable():
    hand, win = "pon:111z pon:222z chi:789l 45o 44z", "6o"  # dog and monkey, no pheasant
    assert "kerai" not in score_under({}, hand, win).yaku
    r = score_under(yaku_table(kerai={"sets_of": ["dog", "monkey"]}), hand, win)
    assert r.yaku["kerai"] == 5


def test_oshimai_condition_is_editable():
    hand, win = "pon:111z pon:222z pon:333z chi:789l 45o 55z", "6o"  # three animals, no sun
    assert "oshimai" not in score_under({}, hand, win).yaku
    r = score_under(yaku_table(oshimai={"sets_of": ["dog", "monkey", "pheasant"]}), hand, win)
    assert r.yaku["oshimai"] == 10


def test_single_picture_yaku_condition_is_editable():
    hand, win = "kai:222z kai:456o chi:789l 23o 44z", "1o"  # a monkey set
    assert "dog" not in score_under({}, hand, win).yaku
    r = score_under(yaku_table(dog={"sets_of": [["dog", "monkey"]]}), hand, win)
    assert r.yaku["dog"] == 1 and r.yaku["monkey"] == 1


# --- distinct sets: a bipartite matching, not a greedy pass --------------------------------------

@pytest.mark.parametrize("sets_of, hand, expected", [
    # two requirements over dog/monkey need two distinct sets
    ([["dog", "monkey"], ["dog", "monkey"]], "kai:111z kai:456o chi:789l 23o 44z", False),
    ([["dog", "monkey"], ["dog", "monkey"]], "kai:111z kai:222z chi:789l 23o 44z", True),
    # a greedy pass would give the dog set to the choice first and then miss 'dog'
    ([["dog", "monkey"], "dog"], "kai:111z kai:222z chi:789l 23o 44z", True),
    ([["dog", "monkey"], "dog"], "kai:222z kai:333z chi:789l 23o 44z", False),
    # a concealed picture set counts like a revealed one
    (["sun", "dog"], "kai:111z kai:456o chi:789l 44z 55z", True),
])
def test_each_requirement_is_met_by_a_distinct_set(sets_of, hand, expected):
    win = "4z" if hand.endswith("44z 55z") else "1o"
    r = score_under(yaku_table(pair={"points": 3, "sets_of": sets_of}), hand, win)
    assert ("pair" in r.yaku) is expected, r


def test_takaramono_new_condition_needs_sun_moon_and_an_animal():
    hit = score_under({}, "kai:444z kai:555z kai:111z 23o 22z", "1o")
    miss = score_under({}, "kai:444z kai:555z kai:456l 23o 22z", "1o")
    assert hit.yaku["takaramono"] == 7 and "takaramono" not in miss.yaku


# --- kans_of (old edition) -----------------------------------------------------------------------

def test_kans_of_needs_a_kan_and_a_kan_also_meets_sets_of():
    over = yaku_table(dog_kan={"points": 2, "kans_of": ["dog"]})
    kan = score_under(over, "kan:1111z kai:456o chi:789l 23o 55z", "1o", base="old_edition")
    pon = score_under(over, "pon:111z kai:456o chi:789l 23o 55z", "1o", base="old_edition")
    assert kan.yaku["dog_kan"] == 2 and kan.yaku["dog"] == 1   # the kan is also a dog set
    assert "dog_kan" not in pon.yaku and pon.yaku["dog"] == 1


def test_old_takaramono_wants_the_kan_as_a_third_set():
    # a dog kan plus sun and moon sets: takaramono; the sun set alone as the "kan" is not enough
    r = score_under({}, "kan:1111z kai:444z kai:555z 23o 22z", "1o", base="old_edition")
    assert r.yaku["takaramono"] == 7
    r = score_under({}, "kan:1111z kai:444z kai:456l 23o 55z", "1o", base="old_edition")
    assert "takaramono" not in r.yaku


# --- a designer's new yaku -----------------------------------------------------------------------

ANIMALS2 = yaku_table(animals2={"points": 3, "sets_of": ["dog", "monkey"]})


def test_new_yaku_is_scored_and_named():
    r = score_under(ANIMALS2, "kai:111z kai:222z chi:789l 23o 44z", "1o")
    assert r.yaku["animals2"] == 3 and r.yaku["dog"] == 1
    assert "animals2" not in score_under(ANIMALS2, "kai:111z kai:333z chi:789l 23o 44z", "1o").yaku
    sc = scenario.from_dict(ANIMALS2)
    assert score_slot_names(sc) == (*YAKU, *SET_BONUS_NAMES, "animals2")
    ra = build_rules_array(sc)
    assert ra[RA_YAKU_POINTS + SLOT_NEW_YAKU] == 3 and ra[RA_YAKU_ENABLED + SLOT_NEW_YAKU] == 1


def test_new_yaku_can_be_switched_off():
    over = yaku_table(animals2={"enabled": False, "points": 3, "sets_of": ["dog", "monkey"]})
    assert "animals2" not in score_under(over, "kai:111z kai:222z chi:789l 23o 44z", "1o").yaku


def test_new_yaku_alone_makes_a_win_valid():
    # nothing else: dog/monkey yaku off, so the new yaku is the only yaku
    over = yaku_table(dog={"enabled": False}, monkey={"enabled": False},
                      animals2={"points": 3, "sets_of": ["dog", "monkey"]})
    r = score_under(over, "kai:111z kai:222z chi:789l 23o 44z", "1o")
    assert r.valid and r.yaku == {"animals2": 3}


def test_score_command_shows_the_new_yaku(tmp_path):
    text = "extends: new_edition\nscoring:\n  yaku:\n    animals2: {points: 3, sets_of: [dog, monkey]}\n"
    r = ron_cli(tmp_path, text, "kai:111z kai:222z chi:789l 23o 44z", "1o", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["yaku"]["animals2"] == 3
    r = ron_cli(tmp_path, text, "kai:111z kai:222z chi:789l 23o 44z", "1o")
    assert r.exit_code == 0 and "animals2" in r.output


def test_show_round_trips_a_new_yaku(tmp_path):
    (tmp_path / "v.yaml").write_text(
        "extends: old_edition\nscoring:\n  yaku:\n"
        "    pair: {points: 2, sets_of: [[dog, monkey], sun]}\n    dogkan: {points: 1, kans_of: [dog]}\n")
    r = CliRunner().invoke(main, ["show", str(tmp_path / "v.yaml")])
    assert r.exit_code == 0, r.output
    shown = yaml.safe_load(r.output)
    assert shown["scoring"]["yaku"]["pair"]["sets_of"] == [["dog", "monkey"], "sun"]
    (tmp_path / "shown.yaml").write_text(r.output)
    assert scenario.load(tmp_path / "shown.yaml").to_dict() == scenario.load(tmp_path / "v.yaml").to_dict()


def test_new_yaku_order_follows_the_file_and_extends_chain(tmp_path):
    (tmp_path / "a.yaml").write_text("extends: new_edition\nscoring: {yaku: {zz: {points: 1, sets_of: [dog]}}}\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\nscoring: {yaku: {aa: {points: 1, sets_of: [sun]}}}\n")
    assert score_slot_names(scenario.load(tmp_path / "b.yaml"))[-2:] == ("zz", "aa")


def test_as_many_new_yaku_as_there_are_slots():
    many = {f"y{i}": {"points": 1, "sets_of": ["dog"]} for i in range(MAX_NEW_YAKU)}
    sc = scenario.from_dict(yaku_table(**many))
    assert len(score_slot_names(sc)) == SLOT_NEW_YAKU + MAX_NEW_YAKU == N_SCORE_SLOTS
    s = Scorer(sc)
    r = s.score(parse_hand_for("kai:111z kai:456o chi:789l 23o 44z", sc.hand_rules), parse_card("1o"), False)
    assert all(r.yaku[f"y{i}"] == 1 for i in range(MAX_NEW_YAKU))


# --- validation: one line naming the file and the key path ---------------------------------------

BAD = [
    ("    kerai: {sets_of: [dog, monky, pheasant]}\n",
     "scoring.yaku.kerai.sets_of[1]: unknown picture \"monky\" (did you mean 'monkey'?)"),
    ("    kerai: {sets_of: [dog, lemon]}\n", "scoring.yaku.kerai.sets_of[1]: unknown picture \"lemon\""),
    ("    kerai: {sets_of: []}\n", "scoring.yaku.kerai.sets_of: an empty list"),
    ("    takaramono: {sets_of: [sun, moon, []]}\n", "scoring.yaku.takaramono.sets_of[2]: an empty choice"),
    ("    kerai: {sets_of: [dog, 3]}\n", "scoring.yaku.kerai.sets_of[1]: unknown picture 3"),
    ("    kerai: {sets_of: dog}\n", "scoring.yaku.kerai.sets_of: expected a list of pictures"),
    ("    kerai: {sets_of: {dog: 1}}\n", "scoring.yaku.kerai.sets_of: expected a list of pictures"),
    ("    kerai: {sets_of: [[dog, [monkey]]]}\n",
     "scoring.yaku.kerai.sets_of[0][1]: a choice is a flat list of pictures"),
    ("    kerai: {sets_of: [[dog, dog]]}\n", "scoring.yaku.kerai.sets_of[0]: lists dog twice"),
    ("    kerai: {sets_of: null}\n", "scoring.yaku.kerai.sets_of: a picture-set yaku needs a condition"),
    ("    kerai: {kans_of: [dog]}\n", "scoring.yaku.kerai.kans_of: kan is not played"),
    ("    pinfu: {enabled: true, points: 1}\n",
     "scoring.yaku.pinfu: unknown key (none of the 22 keys known here is close"),
    ("    pinfu: {points: 1}\n", "a new yaku needs a picture-set condition (sets_of: or kans_of:)"),
    ("    kera: {points: 5}\n", "scoring.yaku.kera: unknown key (did you mean 'kerai'?)"),
    ("    animals2: {sets_of: [dog, monkey]}\n",
     "scoring.yaku.animals2.points: expected an integer >= 0, got null"),
    ("    animals2: {points: 3, sets_of: [dog], ends_game: true}\n",
     "scoring.yaku.animals2.ends_game: unknown key"),
    ("    tabi: {points: 3, sets_of: [dog]}\n", "scoring.yaku.tabi: tabi names a set-count bonus"),
    ("    riichi: {sets_of: [dog]}\n", "scoring.yaku.riichi.sets_of: unknown key"),
    ("    oshimai: {sets_of: [dog, monkey, pheasant, sun, moon, dog, sun]}\n",
     "scoring.yaku.oshimai: 7 requirements in sets_of and kans_of; at most 6"),
    ("    kibidango: {kai_counts_as_call: true}\n",
     "scoring.yaku.kibidango: kai_counts_as_call and ron_may_complete_set cannot both be true"),
    ("    kibidango: {kai_counts_as_call: 1}\n",
     "scoring.yaku.kibidango.kai_counts_as_call: expected true or false, got 1"),
    ("".join(f"    y{i}: {{points: 1, sets_of: [dog]}}\n" for i in range(MAX_NEW_YAKU + 1)),
     f"scoring.yaku.y{MAX_NEW_YAKU}: at most {MAX_NEW_YAKU} new picture-set yaku"),
]


@pytest.mark.parametrize("yaku_lines, expected", BAD, ids=[e[:40] for _, e in BAD])
def test_bad_yaku_conditions_are_refused_in_one_line(tmp_path, yaku_lines, expected):
    path = tmp_path / "variant.yaml"
    path.write_text("extends: new_edition\nscoring:\n  yaku:\n" + yaku_lines)
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.output, r.output
    assert "variant.yaml" in lines[0] and expected in lines[0], lines[0]


def test_kibidango_refusal_says_why():
    with pytest.raises(scenario.ScenarioError, match="score 18, not the rulebook's 14"):
        scenario.from_dict(yaku_table(kibidango={"kai_counts_as_call": True}))


def test_kans_of_is_refused_when_a_variant_turns_kan_off(tmp_path):
    (tmp_path / "v.yaml").write_text("extends: old_edition\nkan: {enabled: false}\n")
    with pytest.raises(scenario.ScenarioError, match=r"old_edition\.yaml, extended by \S*v\.yaml: scoring\.yaku\.takaramono\.kans_of: kan is not played"):
        scenario.load(tmp_path / "v.yaml")


def test_error_names_the_file_that_set_the_condition(tmp_path):
    (tmp_path / "base.yaml").write_text("extends: new_edition\nscoring: {yaku: {kerai: {sets_of: [dgo]}}}\n")
    (tmp_path / "child.yaml").write_text("extends: base.yaml\n")
    with pytest.raises(scenario.ScenarioError, match=r"in \S*base\.yaml, extended by \S*child\.yaml: scoring\.yaku\.kerai\.sets_of\[0\]"):
        scenario.load(tmp_path / "child.yaml")


# --- the engine records a new yaku in its own bit ------------------------------------------------

def test_engine_records_a_new_yaku_in_its_slot_bit():
    # any picture set: common enough that some wins in 200 baseline games score it
    base = scenario.load("new_edition").to_dict()
    base["scoring"]["yaku"]["anypic"] = {"points": 1,
                                         "sets_of": [["dog", "monkey", "pheasant", "sun", "moon"]]}
    sc = scenario.from_dict(base, name="anypic")
    rounds = Simulator(sc).play(np.arange(200), seed=3).rounds
    wins = rounds[rounds[:, RF_OUTCOME] != OUT_DRAW]
    bits = wins[:, RF_YAKU_BITS]
    slot = score_slot_names(sc).index("anypic")
    assert slot == SLOT_NEW_YAKU
    has_new = (bits >> slot) & 1
    has_any_picture = np.zeros(len(bits), bool)
    for p in PICTURES:
        has_any_picture |= ((bits >> Y[p]) & 1).astype(bool)
    assert has_new.sum() > 0
    assert np.array_equal(has_new.astype(bool), has_any_picture)  # exactly when a picture yaku is


# --- the matching kernel against a brute-force reference -----------------------------------------

_REQ = st.tuples(st.integers(1, (1 << len(PICTURES)) - 1), st.booleans())   # (mask, kan only)
_SET = st.tuples(st.integers(0, len(PICTURES) - 1), st.booleans())          # (picture, is a kan)


def _brute_force(reqs, sets):
    """Some assignment of distinct sets to the requirements meets each one."""
    def meets(req, s):
        (mask, kan_only), (pic, is_kan) = req, s
        return (mask >> pic) & 1 and (is_kan or not kan_only)
    return any(all(meets(r, sets[i]) for r, i in zip(reqs, chosen))
               for chosen in permutations(range(len(sets)), len(reqs)))


@settings(max_examples=400, deadline=None)
@given(st.lists(_REQ, min_size=1, max_size=MAX_REQUIREMENTS), st.lists(_SET, max_size=7))
def test_requirements_met_agrees_with_brute_force(reqs, sets):
    ra = np.zeros(RULES_LEN, np.int64)
    ra[RA_DATA_YAKU_N_REQ] = len(reqs)
    for j, (mask, kan_only) in enumerate(reqs):
        ra[RA_DATA_YAKU_REQ + j] = mask | (REQ_KAN if kan_only else 0)
    pics = np.array([p for p, _ in sets] + [0] * 12, np.int64)
    kans = np.array([k for _, k in sets] + [False] * 12, np.bool_)
    held = sum({1 << p for p, _ in sets})
    kan_held = sum({1 << p for p, k in sets if k})
    got = _requirements_met(ra, 0, pics, kans, len(sets), held, kan_held)
    assert bool(got) == _brute_force(reqs, sets)

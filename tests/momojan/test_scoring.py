"""Scoring: every yaku with a hand that has it and a near miss, bonuses, doubling, examples."""

import json

import pytest
from click.testing import CliRunner

from simcore.cli import main
from simcore.momojan import scenario
from simcore.momojan.analysis import parse_hand_for
from simcore.momojan.cards import parse_card
from simcore.momojan.scoring import Scorer, score_text

_SCORERS = {}


def scorer(name="new_edition"):
    if name not in _SCORERS:
        _SCORERS[name] = Scorer(scenario.load(name))
    return _SCORERS[name]


def score(hand, win, ron=False, rules="new_edition", dora=None, **kw):
    s = scorer(rules)
    h = parse_hand_for(hand, s.scenario.hand_rules)
    return s.score(h, parse_card(win), ron, dora_indicator=None if dora is None else parse_card(dora), **kw)


# --- the rulebook's worked examples (spec §8), under the confirmed-only table -----------------

def test_rulebook_example_1_scores_14():
    r = score("kai:111z kai:456o chi:789o 23o 44z", "1o", ron=True, riichi=True, dora="3l",
              rules="new_edition_confirmed_only")
    assert r.to_json() == {"valid": True, "reason": None,
                           "yaku": {"riichi": 1, "dog": 1, "ittsu": 2},
                           "bonuses": {"dora": 1, "ron": 1, "set_count": 1}, "sets": 4,
                           "subtotal": 7, "doubled": True, "points": 14}


def test_rulebook_example_2_scores_6():
    r = score("pon:333z chi:345l chi:678o kai:789i 2l 2i 55z", "5z", dora="1l",
              rules="new_edition_confirmed_only")
    assert r.yaku == {"pheasant": 1, "moon": 1}
    assert r.bonuses == {"dora": 2, "ron": 0, "set_count": 2}
    assert (r.subtotal, r.doubled, r.points) == (6, False, 6)


def test_rulebook_example_3_scores_38():
    r = score("pon:111z pon:222z pon:333z chi:6l7l8m chi:123o chi:345i pon:9l9o9i 8i", "8o",
              ron=True, riichi=True, dora="5z", rules="new_edition_confirmed_only")
    assert r.yaku == {"riichi": 1, "dog": 1, "monkey": 1, "pheasant": 1, "kibidango": 2, "kerai": 5}
    assert r.bonuses["set_count"] == 7 and r.sets == 7
    assert (r.subtotal, r.points) == (19, 38)


# --- each yaku: a hand with it, and a near miss without it ----------------------------------------
# (hand, win, ron, extra flags) -> the yaku is present; the near miss differs minimally.
YAKU_CASES = {
    "riichi": (("kai:111z kai:456o chi:789o 23o 44z", "1o", True, {"riichi": True}),
               ("kai:111z kai:456o chi:789o 23o 44z", "1o", True, {})),
    "ippatsu": (("kai:111z kai:456o chi:789o 23o 44z", "1o", True, {"riichi": True, "ippatsu": True}),
                ("kai:111z kai:456o chi:789o 23o 44z", "1o", True, {"riichi": True})),
    "dog": (("kai:111z kai:456o chi:789l 23o 44z", "1o", False, {}),
            ("kai:222z kai:456o chi:789l 23o 44z", "1o", False, {})),
    "monkey": (("kai:222z kai:456o chi:789l 23o 44z", "1o", False, {}),
               ("kai:333z kai:456o chi:789l 23o 44z", "1o", False, {})),
    "pheasant": (("kai:333z kai:456o chi:789l 23o 44z", "1o", False, {}),
                 ("kai:222z kai:456o chi:789l 23o 44z", "1o", False, {})),
    "sun": (("kai:444z kai:456o chi:789l 23o 55z", "1o", False, {}),
            ("kai:111z kai:456o chi:789l 23o 55z", "1o", False, {})),
    "moon": (("kai:555z kai:456o chi:789l 23o 44z", "1o", False, {}),
             ("kai:111z kai:456o chi:789l 23o 44z", "1o", False, {})),
    "ittsu": (("kai:111z kai:456o chi:789o 23o 44z", "1o", False, {}),
              ("kai:111z kai:456l chi:789o 23o 44z", "1o", False, {})),
    "kibidango": (("pon:111z chi:456o chi:789l 23o 44z", "1o", True, {}),
                  ("pon:111z kai:456o chi:789l 23o 44z", "1o", True, {})),
    "kerai": (("pon:111z pon:222z pon:333z 45o 44z", "6o", False, {}),
              ("pon:111z pon:222z chi:789l 45o 44z", "6o", False, {})),
    "takaramono": (("kai:444z kai:555z kai:111z 23o 22z", "1o", False, {}),
                   ("kai:444z kai:555z kai:456l 23o 22z", "1o", False, {})),
    "chinitsu": (("kai:2l3l4m kai:456l 789l 1l", "1m", False, {}),
                 ("kai:2l3l4m kai:456o 789l 1l", "1m", False, {})),
    "oshimai": (("pon:111z pon:222z pon:333z pon:444z 55z 6o6l", "5z", True, {}),
                ("pon:111z pon:222z pon:333z pon:444z 55z 6o6l", "6i", True, {})),
    "tanyao": (("kai:234l kai:456o chi:678i 34i 2o2i", "5i", False, {}),
               ("kai:234l kai:456o chi:678i 34i 55z", "5i", False, {})),
    "toitoi": (("pon:111z pon:2l2o2i kai:333z 5l5o 55z", "5z", False, {}),
               ("pon:111z chi:234l kai:333z 5l5o 55z", "5z", False, {})),
    "sanshoku": (("kai:111z kai:123l chi:123o 23i 55z", "1i", False, {}),
                 ("kai:111z kai:123l chi:123o 34i 55z", "2i", False, {})),
    "haitei": (("kai:111z kai:456o chi:789l 23o 44z", "1o", False, {"last_card": True}),
               ("kai:111z kai:456o chi:789l 23o 44z", "1o", True, {"last_card": True})),
    "houtei": (("kai:111z kai:456o chi:789l 23o 44z", "1o", True, {"last_card": True}),
               ("kai:111z kai:456o chi:789l 23o 44z", "1o", False, {"last_card": True})),
}


@pytest.mark.parametrize("key", sorted(YAKU_CASES))
def test_each_yaku_and_its_near_miss(key):
    (h, w, ron, kw), (h2, w2, ron2, kw2) = YAKU_CASES[key]
    hit = score(h, w, ron, **kw)
    miss = score(h2, w2, ron2, **kw2)
    assert key in hit.yaku, hit
    assert key not in miss.yaku, miss


def test_tanyao_near_miss_is_a_picture_head():
    assert "tanyao" not in score("kai:234l kai:456o chi:678i 34i 55z", "5i").yaku


def test_honitsu_only_where_enabled():
    hand, win = "kai:123l kai:456l kai:111z 78l 55z", "9l"
    assert "honitsu" not in score(hand, win).yaku  # off in the default scenario
    s = Scorer(scenario.from_dict({"scoring": {"yaku": {"honitsu": {"enabled": True}}}}))
    h = parse_hand_for(hand, s.scenario.hand_rules)
    assert s.score(h, parse_card(win), False).yaku["honitsu"] == 2
    assert "honitsu" not in s.score(parse_hand_for("kai:123l kai:456o kai:111z 78l 55z",
                                                   s.scenario.hand_rules), parse_card(win), False).yaku


def test_old_edition_yaku_kan_rinshan_yonshoku_takaramono():
    r = score("kan:1111z kai:444z kai:555z 23o 22z", "1o", rules="old_edition", rinshan=True)
    assert {"kan", "rinshan", "takaramono", "dog", "sun", "moon"} <= set(r.yaku)
    assert r.yaku["sun"] == 2 and r.yaku["moon"] == 2          # old values
    r = score("kai:123m kai:123l kai:123o 12i 55z", "3i", rules="old_edition")
    assert "yonshoku" in r.yaku
    r = score("kai:123m kai:123l kai:456o 12i 55z", "3i", rules="old_edition")
    assert "yonshoku" not in r.yaku


def test_old_edition_rank1_stand_in_reads_as_sun():
    # 1l 1o 1i could be a same-number set or a sun set; the sun reading scores more.
    r = score("kai:1l1o1i kai:456o chi:789l 23o 55z", "1m", rules="old_edition")
    assert r.yaku.get("sun") == 2


def test_old_edition_set_counts_are_yaku():
    # Four sets and nothing else: tabi is a yaku in the old edition, a bonus in the new.
    hand, win = "kai:456l kai:456o chi:789l 23o 5i5m", "1o"
    assert score(hand, win).reason == "no yaku"
    r = score(hand, win, rules="old_edition")
    assert r.valid and r.yaku == {"tabi": 1} and r.bonuses["set_count"] == 0


def test_set_count_bonus_only_the_highest():
    r = score("pon:111z pon:222z pon:333z chi:6l7l8m chi:123o chi:345i pon:9l9o9i 8i", "8o", True)
    assert r.bonuses["set_count"] == 7  # nihonichi only, not 1 + 2 + 3 + 7
    r = score("pon:333z chi:345l chi:678o kai:789i 2l 2i 55z", "5z")
    assert r.bonuses["set_count"] == 2


@pytest.mark.parametrize("indicator, dora_card_in_hand, expected", [
    ("9l", "1m", 1),   # 9 -> 1, any fruit
    ("3z", "1z", 3),   # pheasant -> dog (three dogs)
    ("5z", "4z", 0),   # moon -> sun (no sun held)
    ("4z", "5z", 2),   # sun -> moon (two moons)
])
def test_dora_cycles(indicator, dora_card_in_hand, expected):
    r = score("kai:111z kai:456o chi:789l 23o 55z", "1m", dora=indicator)
    assert r.bonuses["dora"] == expected


def test_doubling_at_the_threshold():
    six = score("pon:333z chi:345l chi:678o kai:789i 2l 2i 55z", "5z", dora="1l",
                rules="new_edition_confirmed_only")
    assert (six.subtotal, six.points) == (6, 6)
    seven = score("pon:333z chi:345l chi:678o kai:789i 2l 2i 55z", "5z", dora="1l", riichi=True,
                  rules="new_edition_confirmed_only")
    assert (seven.subtotal, seven.points, seven.doubled) == (7, 14, True)
    s = scorer("double_at_8")
    h = parse_hand_for("pon:333z chi:345l chi:678o kai:789i 2l 2i 55z", s.scenario.hand_rules)
    r = s.score(h, parse_card("5z"), False, riichi=True, dora_indicator=parse_card("1l"))
    assert r.points == r.subtotal


@pytest.mark.parametrize("hand, win, reason", [
    ("kai:111z kai:456o chi:789l 23o 44z", "5o", "incomplete"),
    ("kai:111z 23o 44z", "1o", "too few sets"),
    ("kai:456l kai:456o chi:789l 23o 5i5m", "1o", "no yaku"),
])
def test_invalid_wins_have_a_reason(hand, win, reason):
    r = score(hand, win)
    assert not r.valid and r.reason == reason and r.points == 0


def test_score_cli_json_and_errors():
    runner = CliRunner()
    r = runner.invoke(main, ["score", "kai:111z kai:456o chi:789o 23o 44z", "--win", "1o", "--by", "ron",
                             "--riichi", "--dora-indicator", "3l", "--rules",
                             "new_edition_confirmed_only", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["points"] == 14
    r = runner.invoke(main, ["score", "kai:111z kai:456o chi:789o 23o 44z", "--win", "1o"])
    assert r.exit_code == 0 and "points" in r.output
    for args, fragment in [
        (["kai:111z 23o 44z 1x", "--win", "1o"], "unknown suit letter 'x'"),
        (["kai:111z kai:456o chi:789o 23o 44z", "--win", "2o"], "--win: 2o is already in the hand"),
        (["kai:111z kai:456o chi:789o 23o 44z", "--win", "0o"], "--win: rank 0"),
        (["kai:111z kai:456o chi:789o 23o 44z 1l", "--win", "1o"], "without the winning card"),
        (["kai:111z kai:456o chi:789o 23o 44z", "--win", "1o", "--ippatsu"], "--ippatsu needs --riichi"),
        (["kan:1111z 23o 44z 1l", "--win", "1o"], "kan is not played"),
    ]:
        r = runner.invoke(main, ["score", *args])
        assert r.exit_code == 2 and fragment in r.output, (args, r.output)
        assert len(r.output.strip().splitlines()) == 1


def test_score_text_matches_scorer():
    r = score_text("kai:111z kai:456o chi:789o 23o 44z", "1o", "ron", True, False, "3l",
                   rules="new_edition_confirmed_only")
    assert r.points == 14


def test_momo_run_counts_as_wild_only_when_momo_is_wild():
    hand, win = "kai:123m kai:456l chi:789l 23o 44z", "1o"
    assert "ittsu" in score(hand, win).yaku
    s = Scorer(scenario.from_dict({"deck": {"wild_fruit": None}}))
    r = s.score(parse_hand_for(hand, s.scenario.hand_rules), parse_card(win), False)
    assert "ittsu" not in r.yaku


# --- kibidango's two [I] options (spec §8) ----------------------------------------------------------
KIBIDANGO_HANDS = {  # all won by ron
    "calls, ron completes a set": ("pon:111z chi:456o chi:789l 23o 44z", "1o"),
    "calls, ron completes the head": ("pon:111z chi:456o chi:789l 7o", "7i"),
    "a Kai, ron completes a set": ("kai:111z chi:456o chi:789l 23o 44z", "1o"),
    "a Kai, ron completes the head": ("kai:111z chi:456o chi:789l 7o", "7i"),
}
# (kai_counts_as_call, ron_may_complete_set) -> the hands that have kibidango
KIBIDANGO_EXPECTED = {
    (False, True): {"calls, ron completes a set", "calls, ron completes the head"},
    (True, False): {"calls, ron completes the head", "a Kai, ron completes the head"},
    (False, False): {"calls, ron completes the head"},
}


def _merged(base, over):
    out = dict(base)
    for k, v in over.items():
        out[k] = _merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def kibidango_scorer(kai_counts_as_call, ron_may_complete_set, base="new_edition"):
    over = {"scoring": {"yaku": {"kibidango": {"kai_counts_as_call": kai_counts_as_call,
                                               "ron_may_complete_set": ron_may_complete_set}}}}
    return Scorer(scenario.from_dict(_merged(scenario.load(base).to_dict(), over)))


@pytest.mark.parametrize("options", sorted(KIBIDANGO_EXPECTED))
def test_kibidango_options_each_combination(options):
    s = kibidango_scorer(*options)
    got = {name for name, (hand, win) in KIBIDANGO_HANDS.items()
           if "kibidango" in s.score(parse_hand_for(hand, s.scenario.hand_rules), parse_card(win),
                                     True).yaku}
    assert got == KIBIDANGO_EXPECTED[options]
    # never by tsumo
    hand, win = KIBIDANGO_HANDS["calls, ron completes the head"]
    assert "kibidango" not in s.score(parse_hand_for(hand, s.scenario.hand_rules),
                                      parse_card(win), False).yaku


def test_kibidango_closed_kan_counts_as_called_only_with_kai_counts_as_call():
    hand, win = "kan:1111z chi:456o chi:789l 7o", "7i"
    for options, expected in (((True, False), True), ((False, True), False)):
        s = kibidango_scorer(*options, base="old_edition")
        r = s.score(parse_hand_for(hand, s.scenario.hand_rules, kan_allowed=True), parse_card(win), True)
        assert ("kibidango" in r.yaku) is expected, (options, r)


def test_kibidango_default_is_the_rulebook_reading():
    assert scenario.load("new_edition").get("scoring.yaku.kibidango.kai_counts_as_call") is False
    assert scenario.load("new_edition").get("scoring.yaku.kibidango.ron_may_complete_set") is True


def test_kibidango_options_through_the_score_command(tmp_path):
    path = tmp_path / "kai_is_call.yaml"
    path.write_text("extends: new_edition_confirmed_only\nscoring:\n  yaku:\n    kibidango:\n"
                    "      kai_counts_as_call: true\n      ron_may_complete_set: false\n")
    runner = CliRunner()
    hand, win = KIBIDANGO_HANDS["a Kai, ron completes the head"]
    args = ["score", hand, "--win", win, "--by", "ron", "--json"]
    assert "kibidango" not in json.loads(runner.invoke(main, args).output)["yaku"]
    r = runner.invoke(main, [*args, "--rules", str(path)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["yaku"]["kibidango"] == 2
    # both true is refused, with the reason, in one line
    path.write_text("extends: new_edition\nscoring: {yaku: {kibidango: {kai_counts_as_call: true}}}\n")
    r = runner.invoke(main, [*args, "--rules", str(path)])
    assert r.exit_code == 2 and "score 18, not the rulebook's 14" in r.output
    assert len(r.output.strip().splitlines()) == 1


# --- old_edition's base (spec §10: it extends new_edition) ------------------------------------------

def test_old_edition_keeps_the_reconstructed_yaku_and_confirmed_only_drops_them():
    hand, win = "kai:234l kai:456o chi:678i 34i 2o2i", "5i"  # tanyao and nothing else
    assert score(hand, win, rules="old_edition").yaku.get("tanyao") == 1
    assert "tanyao" not in score(hand, win, rules="old_edition_confirmed_only").yaku


def _flat(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def test_old_minus_new_is_the_same_with_and_without_reconstructed_yaku():
    """old_edition vs new_edition and the two confirmed_only scenarios differ in exactly the same
    keys, by the same values: comparing editions measures only the edition."""
    def diff(a, b):
        fa, fb = _flat(scenario.load(a).to_dict()), _flat(scenario.load(b).to_dict())
        return {k: (fa[k], fb[k]) for k in fa if fa[k] != fb[k] and k not in ("name", "description")}
    full = diff("old_edition", "new_edition")
    assert "deck.rank1_substitutes" in full and "kan.enabled" in full
    assert diff("old_edition_confirmed_only", "new_edition_confirmed_only") == full

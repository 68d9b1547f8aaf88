"""The scenario schema: every rule option and point value, with its type, range, default and tag.

Tags follow the spec: ``R`` rulebook, ``I`` our interpretation (an option), ``X`` reconstructed value
(editable, and marked ``# reconstructed`` in the scenario files). The defaults are the new edition
with the reconstructed yaku the spec turns on (``scenarios/new_edition.yaml`` spells them all out).
"""

from __future__ import annotations

from simcore.family.scenario import schema as schema_common
from simcore.family.scenario.schema import Field
from .cards import FRUIT_NAMES as FRUITS, PICTURE_NAMES as PICTURES  # one spelling of the names

SET_BONUS_NAMES = ("tabi", "onigashima", "momotaro", "nihonichi")  # 4, 5, 6, 7+ sets
DRAW_ROUNDING = ("ceil", "floor")
DECLINED_RON = ("none", "riichi_rest_of_round")
TIE_BREAK = ("first_dealer", "second_dealer", "draw")
LEFTOVER_POT = ("winner", "nobody")
KOMI_AT = ("start", "end")


# Field: one leaf of the schema; its kinds here: "int", "bool", "str", "enum", "enum_list",
# "requirements", "players".
_int = schema_common.int_field
_bool = schema_common.bool_field


def _enum(default, choices, doc, tag="R", nullable=False):
    return Field("enum", default, doc, tag, choices=tuple(choices), nullable=nullable)


def _yaku(points, doc, tag="R", enabled=True, **extra):
    d = {"enabled": _bool(enabled, f"{doc}: counted at all", tag),
         "points": _int(points, f"{doc}: points", tag, min=0)}
    d.update(extra)
    return d


def _requirements(default, doc, tag):
    """A picture-set condition (spec §8): a list of requirements, each a picture or a list of
    pictures (a choice); each requirement is met by a distinct set of the winning hand."""
    return Field("requirements", default, doc, tag, choices=PICTURES, nullable=True)


_SETS_OF_DOC = ("sets the winning hand must hold; each entry a picture or a list to choose from, "
                "each met by a distinct set (null: none)")
_KANS_OF_DOC = "picture kans the winning hand must hold, like sets_of (old edition; null: none)"


def _picture_yaku(points, sets_of, doc, tag="R", cond_tag="R", **extra):
    """A yaku whose condition is data: ``sets_of`` (and, old edition, ``kans_of``)."""
    d = _yaku(points, doc, tag)
    d["sets_of"] = _requirements(sets_of, f"{doc}: {_SETS_OF_DOC}", cond_tag)
    d["kans_of"] = _requirements(None, f"{doc}: {_KANS_OF_DOC}", cond_tag)
    d.update(extra)
    return d


_ANIMALS = ["dog", "monkey", "pheasant"]

# Yaku keys, in the order of the breakdown arrays (simcore.momojan.rules_array.YAKU_KEYS mirrors
# it). A scenario may add further picture-set yaku under new names (NEW_YAKU below).
YAKU = {
    "riichi": _yaku(1, "riichi (declared riichi)"),
    "ippatsu": _yaku(1, "ippatsu (win before one's next discard after riichi)", "X"),
    "dog": _picture_yaku(1, ["dog"], "dog (a set of dogs)"),
    "monkey": _picture_yaku(1, ["monkey"], "monkey (a set of monkeys)"),
    "pheasant": _picture_yaku(1, ["pheasant"], "pheasant (a set of pheasants)"),
    "sun": _picture_yaku(1, ["sun"], "sun (a set of suns)"),
    "moon": _picture_yaku(1, ["moon"], "moon (a set of moons)"),
    "ittsu": _yaku(2, "ittsu (runs 123, 456, 789 of one fruit)"),
    "kibidango": _yaku(
        2, "kibidango (a ron, and every set a called set)",
        kai_counts_as_call=_bool(False, "Kai sets (and closed kans) count as called sets "
                                 "(the glossary calls Kai a kind of call; the draw settlement does "
                                 "not); not together with ron_may_complete_set", "I"),
        ron_may_complete_set=_bool(True, "the ron card may complete the one concealed set (else "
                                   "it must complete the head: no concealed set at all)", "I")),
    "kerai": _picture_yaku(5, _ANIMALS, "kerai (sets of dog, monkey and pheasant)"),
    "takaramono": _picture_yaku(7, ["sun", "moon", _ANIMALS], "takaramono", cond_tag="X"),
    "chinitsu": _yaku(5, "chinitsu (all number cards of one fruit, momo filling in)", "X"),
    "oshimai": _picture_yaku(10, _ANIMALS + ["sun", "moon"], "oshimai", "X", cond_tag="X",
                             ends_game=_bool(True, "oshimai ends the game after this round")),
    "tanyao": _yaku(1, "tanyao (only number cards of ranks 2-8)", "X"),
    "toitoi": _yaku(2, "toitoi (no runs)", "X"),
    "sanshoku": _yaku(2, "sanshoku (the same run in three fruits)", "X"),
    "honitsu": _yaku(2, "honitsu (one fruit plus pictures)", "X", enabled=False),
    "haitei": _yaku(1, "haitei (tsumo on the last stock card)", "X"),
    "houtei": _yaku(1, "houtei (ron on the round's last discard)", "X"),
    "kan": _yaku(1, "kan (a kan; old edition)", "X", enabled=False),
    "rinshan": _yaku(1, "rinshan (win on a kan replacement card; old edition)", "X", enabled=False),
    "yonshoku": _yaku(4, "yonshoku (the same run in all four fruits; old edition)", "X", enabled=False),
}

# The fields of a picture-set yaku a scenario adds under a new name in scoring.yaku (spec §8: a
# designer who owns the real yaku card adds its picture-set yaku without touching code). It must
# give points and a condition (sets_of and/or kans_of).
NEW_YAKU = {
    "enabled": _bool(True, "a designer-added picture-set yaku: counted at all", "X"),
    "points": _int(None, "a designer-added picture-set yaku: points (required)", "X", min=0),
    "sets_of": _requirements(None, _SETS_OF_DOC, "X"),
    "kans_of": _requirements(None, _KANS_OF_DOC, "X"),
}

SCHEMA = {
    "name": Field("str", None, "scenario name (defaults to the file name)", "T"),
    "description": Field("str", "", "what this variant is for", "T"),
    "deck": {
        "fruits": Field("enum_list", list(FRUITS), "fruits in the deck", choices=FRUITS),
        "wild_fruit": _enum("momo", FRUITS, "the wild fruit (null: no wild fruit)", nullable=True),
        "ranks": _int(9, "ranks per fruit (1..ranks)", min=3, max=9),
        "picture_copies": {p: _int(4, f"copies of {p}", min=0, max=4) for p in PICTURES},
        "rank1_substitutes": Field("enum_list", [], "pictures any rank-1 card may stand for "
                                   "in a set or head (old edition: [sun, moon])", "I",
                                   choices=("sun", "moon")),
    },
    "hand_size": Field("enum", 7, "cards dealt to each player", choices=(1, 4, 7)),
    "dead_wall": _int(4, "cards set aside; the top one is the dora indicator", min=1, max=8),
    "starting_points": _int(40, "points each player starts with", min=1),
    "compensation": {   # [V] variants for balancing, not in the rulebook (issue 29)
        "start_bonus": {
            "first_dealer": _int(0, "extra points the first dealer starts with (negative: fewer)",
                                 "V", min=-1000, max=1000),
            "second_dealer": _int(0, "extra points the second dealer starts with (negative: "
                                  "fewer)", "V", min=-1000, max=1000),
        },
        "komi": _int(0, "points owed to the second dealer (negative: to the first dealer)", "V",
                     min=-1000, max=1000),
        "komi_at": _enum("end", KOMI_AT,
                         "start: the first dealer pays the komi to the second dealer before the "
                         "first round; end: it is added to the second dealer's final points only "
                         "when the winner is decided on points (a tie after it goes by "
                         "game.tie_break)", "V"),
    },
    "ante": {
        "base": _int(1, "the non-dealer's ante each round", min=0),
        "per_repeat": _int(1, "extra ante per consecutive dealer repeat", min=0),
    },
    "draw_three": {
        "enabled": _bool(True, "after Kai/Pon/Chi a player may draw three instead of discarding"),
        "min_stock": _int(3, "cards the stock must hold for a three-card draw", min=1),
    },
    "tsumo_after_draw_three": _bool(True, "a hand completed by the three-card draw may tsumo", "I"),
    "win_right_after_kai": _bool(False, "a hand complete right after a Kai may win at once", "I"),
    "kai_optional": _bool(True, "a complete set may stay concealed", "I"),
    "riichi": {
        "enabled": _bool(True, "riichi may be declared"),
        "min_stock": _int(1, "cards the stock must hold to declare riichi", "I", min=0),
        "ippatsu_lost_on_call": _bool(True, "ippatsu is lost when the riichi discard is called"),
    },
    "furiten": {
        "enabled": _bool(True, "a player whose winning card is in their discards may not ron"),
        "momo_exempt": _bool(True, "momo never causes furiten and may always be ronned"),
        "declined_ron": _enum("none", DECLINED_RON,
                              "none: passing a winning discard has no effect; riichi_rest_of_round: "
                              "a riichi player who passes a winning discard may not ron again this "
                              "round (tsumo stays allowed; momo_exempt still lets momo be ronned)",
                              "I"),
    },
    "exhaustive_draw": {
        "kai_set_points": _int(2, "draw settlement points per Kai set (closed kan too)", min=0),
        "call_set_points": _int(1, "draw settlement points per Pon/Chi set (open kan too)", min=0),
        "rounding": _enum("ceil", DRAW_ROUNDING, "how half an odd difference is rounded"),
        "tenpai_requires_yaku": _bool(False, "tenpai at a draw needs a possible yaku (by tsumo "
                                      "or by ron)", "I"),
    },
    "game": {
        "dealerships_each": _int(2, "dealerships each player holds before the game ends", min=1),
        "dealer_streak_win": _int(5, "dealer wins in a row that win the game (0: off)", min=0),
        "bust_below": _int(0, "a player whose points fall below this loses at once", min=-1000),
        "tie_break": _enum("first_dealer", TIE_BREAK,
                           "who wins a game that ends level"),
        "leftover_pot": _enum("winner", LEFTOVER_POT, "who takes a pot left at the end"),
    },
    "pot": {
        "carry_over": _bool(True, "an unclaimed pot stays for the next round"),
    },
    "scoring": {
        "double_threshold": _int(7, "a total of this many points or more is multiplied", min=1),
        "double_factor": _int(2, "the multiplier", min=1),
        "dora_per_card": _int(1, "bonus per dora card", min=0),
        "ron_bonus": _int(1, "bonus for winning by ron", min=0),
        "set_count_bonus": {
            "tabi": _int(1, "4 sets", min=0),
            "onigashima": _int(2, "5 sets", min=0),
            "momotaro": Field("int", 3, "6 sets", "X", min=0),
            "nihonichi": _int(7, "7 or more sets", min=0),
        },
        "set_count_is_yaku": _bool(False, "set-count bonuses count as yaku (old edition: true)"),
        "yaku": YAKU,
    },
    "kan": {
        "enabled": _bool(False, "kan is played (old edition)", "I"),
        "closed": _bool(True, "four cards from hand", "I"),
        "open": _bool(True, "three from hand plus the opponent's discard", "I"),
        "added": _bool(True, "the fourth card onto one's own revealed set of that kind", "I"),
        "rank1_stand_ins": _bool(True, "a sun or moon kan may hold rank-1 cards standing in for "
                                 "that picture (with deck.rank1_substitutes)", "I"),
    },
    "players": Field("players", [{"policy": "baseline", "params": {}},
                                 {"policy": "baseline", "params": {}}],
                     "two seats, each {policy: NAME, params: {NAME: number}}; seat 0 deals first"),
    "run": {
        "games": _int(10000, "games per run", "T", min=1, max=2**63 - 1),  # game indices are int64
        "seed": _int(0, "base seed: round r of game i draws from (seed, i, r) only", "T", min=0,
                     max=2**64 - 1),  # the engine takes the seed as a uint64
        "workers": _int(0, "worker processes (0: one per core)", "T", min=0),
    },
}


def defaults(schema=SCHEMA) -> dict:
    """The fully populated default scenario as plain data."""
    return schema_common.defaults(schema, Field)


def iter_fields(schema=SCHEMA, prefix=""):
    """(dotted key path, Field) for every leaf."""
    return schema_common.iter_fields(schema, Field, prefix)



# bounds of the engine (simcore.momojan.engine): the rounds a game lasts at most
# (engine.MAX_ROUNDS), the cards a winning hand may count as dora (hand, win card, kans' fourth
# cards, with room to spare), the sets a hand may hold (a draw settlement's points)
MAX_ROUNDS = 200
MAX_DORA_CARDS = 20
MAX_SETS = 8


def worst_cases(d: dict) -> list:
    """What the engine forms from MOMOJAN's numbers and what stores it (simcore.family.scenario.bounds):
    a win's bonuses (the records' 16-bit dora, ron_bonus and set_bonus columns), its points
    (every yaku of the table at once plus the bonuses, doubled: the 32-bit points columns), and
    a score or the pot (the two players' points together, the compensation, a round's loss past
    bust_below, and the antes a pot can gather over a game: the 32-bit score and pot
    columns)."""
    from simcore.family.scenario.bounds import INT16_MAX, INT32_MAX, Worst
    sc = d["scoring"]
    yaku_keys = tuple(f"scoring.yaku.{k}.points" for k in sc["yaku"])
    set_keys = tuple(f"scoring.set_count_bonus.{k}" for k in sc["set_count_bonus"])

    def dora(d):
        return MAX_DORA_CARDS * d["scoring"]["dora_per_card"]

    def set_bonus(d):
        return max(d["scoring"]["set_count_bonus"].values())

    def points(d):
        s = d["scoring"]
        table = sum(y["points"] or 0 for y in s["yaku"].values() if y["enabled"])
        return (table + dora(d) + s["ron_bonus"] + set_bonus(d)) * s["double_factor"]

    def ante(d):
        return d["ante"]["base"] + d["ante"]["per_repeat"] * MAX_ROUNDS

    def score(d):
        draw = MAX_SETS * max(d["exhaustive_draw"]["kai_set_points"],
                              d["exhaustive_draw"]["call_set_points"])
        return (2 * d["starting_points"] + 3000 + 1000 + points(d) + ante(d) + draw
                + MAX_ROUNDS * ante(d))

    points_keys = (*yaku_keys, "scoring.dora_per_card", "scoring.ron_bonus", *set_keys,
                   "scoring.double_factor")
    return [Worst("a win's dora bonus", dora, ("scoring.dora_per_card",), INT16_MAX,
                  "the records' dora column", "points"),
            Worst("a win's ron bonus", lambda d: d["scoring"]["ron_bonus"],
                  ("scoring.ron_bonus",), INT16_MAX, "the records' ron_bonus column", "points"),
            Worst("a win's set-count bonus", set_bonus, set_keys, INT16_MAX,
                  "the records' set_bonus column", "points"),
            Worst("a win's points", points, points_keys, INT32_MAX,
                  "the records' points columns", "points"),
            Worst("a score (or the pot)", score,
                  ("starting_points", "ante.base", "ante.per_repeat",
                   "exhaustive_draw.kai_set_points", "exhaustive_draw.call_set_points",
                   *points_keys), INT32_MAX, "the records' score and pot columns", "points")]

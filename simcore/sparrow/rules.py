"""Every rule option of Sparrow mahjong (spec sparrow.md), declared once: its kind, default,
meaning, tag and range or choices. The kit (:mod:`simcore.family.standard`) makes from it the
schema, the checker, the engine's rules array and the annotated YAML of ``show``."""

from __future__ import annotations

from simcore.family.scenario.schema import Field, enum_field as _enum, int_field as _int
from simcore.family.standard import RuleSlots, rotation_rules, schema

POINT_VALUES = {   # (default, what earns it)
    "run": (1, "each run"), "triplet": (2, "each triplet"),
    "tanyao": (1, "tanyao: no 1, 9 or dragon"),
    "chanta": (2, "chanta: every set holds a 1, 9 or dragon"),
    "chinyao": (15, "chinyao: only 1s, 9s and dragons (then no chanta)"),
    "all_green": (10, "all green: only 2 3 4 6 8 bamboo and green dragons"),
    "super_red": (20, "super red: all six tiles red"), "red": (1, "each red tile"),
    "dora": (1, "each dora tile"), "dealer_bonus": (0, "a dealer's win")}
POINTS = tuple(POINT_VALUES)


MATCH = rotation_rules(start_points=40, laps=4)   # the kit's match: simcore.nb.games
RULES = {
    "start_points": MATCH["start_points"],
    "deck": {"red_bamboo": _int(1, "red copies of each bamboo rank (0: none)", "X", 0, 4)},
    "wall": {"dora": _enum(("same", "next"), "same: the indicator's own kind is dora; next: "
                           "the next kind (9s -> 1s, G -> R -> G)", "X")},
    "wins": {
        "min_points": _int(5, "the fewest points a win needs", "R", 0, 1000),
        "furiten": _enum(("waits", "tile", "none"), "no ron while any winning kind is among "
                         "one's discards (waits), only on a discarded kind (tile), or never"),
        "multiple_ron": _enum(("head_bump", "all"), "several rons on one discard: the first "
                              "after the discarder wins, or all do"),
        "may_decline": Field("bool", False, "a seat may decline a legal win (bots decide)",
                             "I"),
    },
    "draw": {"noten_payment": _int(0, "at an exhaustive draw, each seat not tenpai pays each "
                                   "tenpai seat this", "I", 0, 1000)},
    "scoring": {
        **{name: _int(v, f"points: {doc}", "X", 0, 1000)
           for name, (v, doc) in POINT_VALUES.items()},
        "specials": _enum(("add", "alone"), "chinyao, all green and super red add to the rest, "
                          "or score alone"),
    },
    "settlement": {"tsumo": _enum(("split_ceil", "split_floor", "each_full"), "a tsumo's "
                                  "points: split among the others (rounded up or down), or "
                                  "paid in full by each")},
    "match": MATCH["match"],
}
SEATS = (2, 6)
MAX_ROUNDS = 256   # the engine cuts a game here (only dealer repeats can reach it)
SCHEMA = schema("sparrow", "Sparrow mahjong, four seats", [{"policy": "greedy", "params": {}}] * 4,
                RULES)
SLOTS = RuleSlots(SCHEMA)


def max_win(d: dict) -> int:
    """An upper bound of a win's points (every source at once)."""
    p = d["scoring"]
    return (2 * max(p["run"], p["triplet"]) + sum(p[k] for k in POINTS[2:7])
            + 6 * (p["red"] + p["dora"]) + p["dealer_bonus"])


def worst_cases(d: dict) -> list:
    """A win's points (the records' 32-bit value columns) and a seat's points: at most the
    start of every seat plus, per round, five winners' points or five noten payments, over the
    engine's round limit (the records' 32-bit points columns)."""
    from simcore.family.scenario.bounds import INT32_MAX, Worst
    keys = tuple(f"scoring.{k}" for k in POINTS)
    def seat(d):
        return 6 * d["start_points"] + MAX_ROUNDS * 5 * max(max_win(d), d["draw"]["noten_payment"])
    return [Worst("a win's points", max_win, keys, INT32_MAX, "the value columns", "points"),
            Worst("a seat's points", seat, (*keys, "start_points", "draw.noten_payment"),
                  INT32_MAX, "the points columns", "points")]

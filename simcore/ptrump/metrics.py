"""The ptrump metric catalogue, and the per-match numerators and denominators behind it.

Every P-style metric appears once in :data:`OWN_METRICS` (:class:`simcore.family.metrics.Metric`: name,
kind, per-match numerator and denominator, a one-line description, the default equivalence
margin); the family's catalogue (``FAMILY.CATALOGUE``) adds the harness's seat metrics.
:func:`game_quantities` turns one chunk's match and round records (``engine.GAME_FIELDS``,
``engine.ROUND_FIELDS``) into the integer per-match quantities the catalogue names.

The match is the unit of independence: round- and win-level metrics are ratios of per-match sums.
A *win* is one winner of a round (with ``multiple_ron: all`` a round can have two).

What this implementation simplifies: the seat metrics exist for seats 0..2 whatever the seat
count (a seat a scenario lacks stays 0, and summaries leave it out); a shared match counts 1/m to
each of its m winners (``seat{s}_win_share``) and as won by the first dealer when they share it.
"""

from __future__ import annotations

import numpy as np

from simcore.family.metrics import Metric, per_game_sums, round_quantity_sums, seat_quantities
from .engine import (
    COUNT_BITS, COUNTED_NAMES, END_REASON_NAMES, GF_END_REASON, GF_FIRST_DEALER, GF_N_SEATS,
    GF_N_WINNERS, GF_POOL_LEFT, GF_ROUNDS, GF_SCORE0, GF_WINNERS, OUT_DRAW, OUT_RON, OUT_TSUMO,
    RF_COUNTED0, RF_DEALER, RF_DISCARDER, RF_GAME, RF_HAS_YAKU0, RF_KANS0, RF_N_SEATS,
    RF_NOTEN_PENALTY, RF_NUKI0, RF_OUTCOME, RF_PONS0, RF_REACH0, RF_RIICHI0, RF_ROBBED, RF_VALUE,
    RF_VALUE0, RF_WINNERS, RF_YAKU_BITS0, ROB_DISCARD,
)
from .layout import MAX_SEATS
from .rules_array import SLOT, SLOTS

RATE_MARGIN = 0.01
USE_MARGIN = 0.02
RELATIVE_MARGIN = 0.2   # rare events and yaku shares: within 20% of a's value
SHARE = 6


def _catalogue() -> tuple:
    m = [
        Metric("first_dealer_win_share", "game_rate", "first_dealer_share6", "games6",
               "share of the matches won by the seat that dealt first (a shared match counts "
               "1/m to each of its m winners)", RATE_MARGIN, fair_per_seat=True),
    ]
    m.append(Metric("shared_win_rate", "game_rate", "shared", "games",
                    "matches won by several seats with equal top scores", RATE_MARGIN / 2))
    for reason in END_REASON_NAMES:
        m.append(Metric(f"end_{reason}_rate", "game_rate", f"end_{reason}", "games",
                        f"matches that end by {reason.replace('_', ' ')}", RATE_MARGIN))
    m += [
        Metric("mean_rounds_per_match", "per_game", "rounds", "games",
               "rounds played per match", 0.25, unit="rounds"),
        Metric("mean_final_margin", "per_game", "final_margin", "games",
               "points between the top two seats at the end of a match", 0.5, unit="points"),
        Metric("mean_deposits_lost", "per_game", "pool_left", "games",
               "riichi deposits left on the table at match end (lost)", 0.1,
               unit="deposits"),
        Metric("dealer_round_win_rate", "round_rate", "dealer_wins", "rounds",
               "rounds the dealer won (alone or among several ron winners)", RATE_MARGIN),
        Metric("draw_rate", "round_rate", "draws", "rounds",
               "rounds ending in an exhaustive draw", RATE_MARGIN),
        Metric("tsumo_rate", "round_rate", "tsumo", "rounds", "rounds won by tsumo",
               RATE_MARGIN),
        Metric("ron_rate", "round_rate", "ron", "rounds",
               "rounds won by ron (robbed cards included)", RATE_MARGIN),
        Metric("multiple_ron_rate", "round_rate", "multi_ron", "rounds",
               "rounds with more than one winner (multiple_ron: all)", RELATIVE_MARGIN,
               margin_relative=True),
        Metric("rob_rate", "round_rate", "robbed", "rounds",
               "rounds won by robbing a kakan, an ankan or a nukidora", RELATIVE_MARGIN,
               margin_relative=True),
        Metric("pon_per_round", "per_round", "pons", "rounds", "Pon calls per round (all seats)",
               USE_MARGIN, unit="calls"),
        Metric("kan_per_round", "per_round", "kans", "rounds", "kans per round (all kinds, all "
               "seats)", USE_MARGIN, unit="kans"),
        Metric("nukidora_per_round", "per_round", "nuki", "rounds",
               "jokers set aside per round (all seats)", USE_MARGIN, unit="jokers"),
        Metric("riichi_rate", "round_rate", "riichi_rounds", "rounds",
               "rounds in which someone declared riichi (not voided)", RATE_MARGIN),
        Metric("riichi_per_round", "per_round", "riichis", "rounds",
               "riichi declarations per round (all seats)", USE_MARGIN, unit="riichi"),
        Metric("double_riichi_per_round", "per_round", "double_riichis", "rounds",
               "double riichi declarations per round (all seats)", USE_MARGIN / 2,
               unit="riichi"),
        Metric("noten_penalty_per_round", "per_round", "noten_points", "rounds",
               "noten penalty points per round (all seats)", USE_MARGIN, unit="points"),
        Metric("mean_winning_value", "per_win", "win_value", "wins",
               "points per win (one round may have several winners)", 0.25, unit="points"),
        Metric("zero_value_win_share", "win_rate", "zero_wins", "wins",
               "wins worth 0 points (legal with a yaku: 「役有り０点アガり」)", RELATIVE_MARGIN,
               margin_relative=True),
        Metric("yakuless_win_share", "win_rate", "yakuless_wins", "wins",
               "wins without a yaku (only where scoring.yaku_required is false)",
               RELATIVE_MARGIN, margin_relative=True),
    ]
    for name in SLOTS:
        m.append(Metric(f"yaku_{name}_share", "win_rate", f"slot_{name}", "wins",
                        f"wins whose breakdown has {name}", RELATIVE_MARGIN,
                        margin_relative=True))
    return tuple(m)


OWN_METRICS = _catalogue()


def _seat_cols(r, first, n=MAX_SEATS):
    return r[:, first:first + n]


def _round_quantities(r: np.ndarray) -> dict:
    """Per-round integer quantities (summed per match by :func:`game_quantities`)."""
    winners = r[:, RF_WINNERS]
    n_win = np.zeros(len(r), np.int64)
    for s in range(MAX_SEATS):
        n_win += (winners >> s) & 1
    riichi = _seat_cols(r, RF_RIICHI0)
    q = {
        "rounds": np.ones(len(r), np.int64),
        "dealer_wins": ((winners >> r[:, RF_DEALER]) & 1) * (r[:, RF_OUTCOME] != OUT_DRAW),
        "draws": r[:, RF_OUTCOME] == OUT_DRAW,
        "tsumo": r[:, RF_OUTCOME] == OUT_TSUMO,
        "ron": r[:, RF_OUTCOME] == OUT_RON,
        "multi_ron": n_win > 1,
        "robbed": (r[:, RF_OUTCOME] == OUT_RON) & (r[:, RF_ROBBED] != ROB_DISCARD)
                  & (r[:, RF_DISCARDER] >= 0),
        "pons": _seat_cols(r, RF_PONS0).sum(axis=1),
        "kans": _seat_cols(r, RF_KANS0).sum(axis=1),
        "nuki": _seat_cols(r, RF_NUKI0).sum(axis=1),
        "riichi_rounds": (riichi > 0).any(axis=1),
        "riichis": (riichi > 0).sum(axis=1),
        "double_riichis": (riichi == 2).sum(axis=1),
        "noten_points": r[:, RF_NOTEN_PENALTY],
        "wins": n_win,
        "win_value": r[:, RF_VALUE],
    }
    won = np.stack([(winners >> s) & 1 for s in range(MAX_SEATS)], axis=1).astype(bool)
    values = _seat_cols(r, RF_VALUE0)
    q["zero_wins"] = (won & (values == 0)).sum(axis=1)
    q["yakuless_wins"] = (won & (_seat_cols(r, RF_HAS_YAKU0) == 0)).sum(axis=1)
    bits = _seat_cols(r, RF_YAKU_BITS0)
    for i, name in enumerate(SLOTS):
        q[f"slot_{name}"] = (won & (((bits >> i) & 1) != 0)).sum(axis=1)
    return q


def _game_quantities(g: np.ndarray) -> dict:
    n = len(g)
    winners = g[:, GF_WINNERS]
    n_win = np.maximum(g[:, GF_N_WINNERS], 1)
    share = SHARE // n_win   # 6, 3, 2: exact for 1, 2 or 3 winners
    q = {
        "games": np.ones(n, np.int64),
        "rounds": g[:, GF_ROUNDS],
        "shared": g[:, GF_N_WINNERS] > 1,
        "pool_left": g[:, GF_POOL_LEFT],
        "first_dealer_share6": ((winners >> g[:, GF_FIRST_DEALER]) & 1) * share,
    }
    scores = g[:, GF_SCORE0:GF_SCORE0 + MAX_SEATS]
    seats = g[:, GF_N_SEATS]
    q.update(seat_quantities(winners, scores, seats, MAX_SEATS))
    srt = np.sort(np.where(np.arange(MAX_SEATS)[None, :] < seats[:, None], scores,
                           np.iinfo(np.int64).min // 4), axis=1)
    q["final_margin"] = srt[:, -1] - srt[:, -2]
    for code, reason in enumerate(END_REASON_NAMES):
        q[f"end_{reason}"] = g[:, GF_END_REASON] == code
    return q


def game_quantities(game_indices: np.ndarray, games: np.ndarray, rounds: np.ndarray) -> dict:
    """Per-match quantities (name -> int64[n]) the catalogue names.

    Parameters
    ----------
    game_indices : int64[n], the chunk's match indices, ascending.
    games : int64[n, N_GF]; rounds : int64[n_rounds, N_RF] (``RF_GAME`` = the match index).
    """
    q = round_quantity_sums(game_indices, rounds[:, RF_GAME], _round_quantities(rounds))
    q.update(_game_quantities(games))
    return q


# Where an imbalance comes from (issue 29): the breakdowns of the run summary
ROUND_EDGES = (1, 3, 5, 9, 17, 33)       # rounds a match lasted
GAP_EDGES = (0, 1, 5, 10, 20, 40)        # the winner's lead over the next seat at the end
BREAKDOWN_METRICS = ("first_dealer_win_share", "seat0_win_share", "dealer_round_win_rate",
                     "draw_rate")


def breakdowns() -> dict:
    from simcore.stats.domains import game_end_breakdowns
    return game_end_breakdowns("match", END_REASON_NAMES, ROUND_EDGES, GAP_EDGES,
                               "the lead of the top score at the end")


def breakdown_codes(idx, games, rounds) -> dict:
    from simcore.stats.domains import game_end_codes
    return game_end_codes(games[:, GF_END_REASON], games[:, GF_ROUNDS],
                          _game_quantities(games)["final_margin"], ROUND_EDGES, GAP_EDGES)


# ---------------------------------------------------------------------------------------------
# What each yaku is worth, and whether it is worth chasing (issue 50)
# ---------------------------------------------------------------------------------------------

UNTABLED = ("pon", "floor")   # breakdown slots that are no source of points (see point_sources)
SOURCES = tuple(s for s in SLOTS if s not in UNTABLED)
# Counted items: the points per what, and the records' count (engine.COUNTED_NAMES)
PER_WHAT = {"dora": "card", "ura": "card", "nukidora": "joker", "yakuhai": "set"}
# Items of the moment (the last card, a replacement draw, ippatsu's window, the first turn), and
# bonuses counted by cards or an indicator: no hand is within reach of them
MOMENT = ("ippatsu", "rinshan", "haitei", "houtei", "tenhou", "chiihou", "renhou")
BY_CARDS = ("dora", "ura", "ura_joker", "nukidora")


def _get(data: dict, path: str):
    for k in path.split("."):
        data = data[k]
    return data


def _source_rules(data: dict) -> list:
    """(name, kind, enabled, points, per_set) of each source as ``data`` (the resolved
    scenario) sets it, as :func:`simcore.ptrump.rules_array.build_rules_array` reads it."""
    from .rules_array import NOT_YAKU_ADDITIVE, YAKU_KEYS, YAKUMAN_KEYS, _item_path
    sc = data["scoring"]
    out = []
    for name in SOURCES:
        en, pts = _item_path(name)
        enabled = bool(_get(data, en)) if en else True
        if name == "nagashi" and sc["additive"]["nagashi"]["when"] != "at_win":
            enabled = False            # a draw bonus (at_draw) or off: nothing at a win
        if name == "open_riichi" and data["riichi"]["open_riichi"] != "on":
            enabled = False
        points = int(_get(data, pts)) if pts else 0
        is_yaku = (name in YAKU_KEYS or name in YAKUMAN_KEYS
                   or (sc["additive_are_yaku"] and name not in NOT_YAKU_ADDITIVE))
        per_set = name == "yakuhai" and bool(sc["yaku"]["yakuhai"]["per_set"])
        out.append((name, "yaku" if is_yaku else "bonus", enabled, points, per_set))
    return out


def _won(r: np.ndarray) -> np.ndarray:
    """bool[n_rounds, MAX_SEATS]: the seat won the round."""
    win = r[:, RF_OUTCOME] != OUT_DRAW
    return np.stack([win & (((r[:, RF_WINNERS] >> s) & 1) != 0) for s in range(MAX_SEATS)],
                    axis=1)


def win_counts(r: np.ndarray, name: str) -> np.ndarray:
    """int64[n_rounds, MAX_SEATS]: the count of counted item ``name`` (engine.COUNTED_NAMES)
    in each seat's win (0 where it did not win)."""
    j = COUNTED_NAMES.index(name)
    return (r[:, RF_COUNTED0:RF_COUNTED0 + MAX_SEATS] >> (COUNT_BITS * j)) & ((1 << COUNT_BITS) - 1)


def point_sources(idx, rounds, data: dict):
    """Every yaku, additive item (bonus) and yakuman of the scoring (``Family.point_sources``):
    their points in each match's wins, the wins they scored in, the match's wins and points.

    The unit is the points the yaku and bonuses bring in: ``total`` is each match's wins'
    points before the pon deduction and ``negative_win``'s floor (a win's value is that less
    ``scoring.deductions.pon`` per pon charged, then floored at 0 under ``floor_zero``). The pon
    deduction is no source of points and has no row. A counted item (dora, ura, nukidora, and
    yakuhai under ``per_set``) adds its points per card, joker or set, as the round record's
    ``counted`` word gives them; a yakuman under ``yakuman.exclusive`` is the win's only item.
    The rows sum to ``total`` match by match."""
    r = rounds
    won = _won(r)
    bits = r[:, RF_YAKU_BITS0:RF_YAKU_BITS0 + MAX_SEATS]
    rows, cols, hits = [], [], []
    for name, kind, enabled, points, per_set in _source_rules(data):
        hit = won & (((bits >> SLOT[name]) & 1) != 0)
        if name in PER_WHAT:
            shown = f"{points}/{PER_WHAT[name]}" if name != "yakuhai" or per_set else points
            n = win_counts(r, name) if name != "yakuhai" or per_set else hit
            x = np.where(hit, n * points, 0)
        else:
            shown, x = points, hit * points
        rows.append({"name": name, "kind": kind, "points": shown,
                     "on": bool(enabled and points)})
        cols.append(x.sum(axis=1))
        hits.append(hit.sum(axis=1))
    k = len(rows)
    cols = np.stack(cols, axis=1).astype(np.int64)
    per_round = np.concatenate([cols, np.stack(hits, axis=1), won.sum(axis=1)[:, None],
                                cols.sum(axis=1)[:, None]], axis=1).astype(np.int64)
    _, sums = per_game_sums(idx, r[:, RF_GAME], per_round)
    return rows, sums[:, :k], sums[:, k:2 * k], sums[:, 2 * k], sums[:, 2 * k + 1]


def yaku_reach(idx, rounds, data: dict):
    """Per row of :func:`point_sources`, per match the hands (a seat's round) within reach of
    it and of those the hands that won with it, and the hands played, in the matches that
    measure reach (simcore.nb.reach; 0 in the others) (``Family.yaku_reach``).

    A hand is within reach of an item when, between turns, some live wait of it would score
    the item as a legal win (engine ``_note_reach``: scored as a tsumo in the riichi it had, so
    menzen tsumo's reach is the menzen hands in tenpai with a legal wait). Items of the moment
    (ippatsu, rinshan, haitei, houtei, tenhou, chiihou, renhou) and bonuses counted by cards or
    an indicator (dora, ura, ura_joker, nukidora) have no reach."""
    from simcore.family.metrics import reach_sums
    r = rounds
    won_bits = np.where(_won(r), r[:, RF_YAKU_BITS0:RF_YAKU_BITS0 + MAX_SEATS], 0)
    return reach_sums(idx, r[:, RF_GAME], r[:, RF_REACH0:RF_REACH0 + MAX_SEATS], won_bits,
                      r[:, RF_N_SEATS], [None if name in MOMENT or name in BY_CARDS
                                         else SLOT[name] for name in SOURCES])

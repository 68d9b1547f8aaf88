"""The emoji metric catalogue, and the per-game numerators and denominators behind it.

The game is the unit of independence; round- and win-level metrics are ratios of per-game sums.
A *win* is one winner of a round (several seats may win one round: simultaneous tsumo, a
discard completing two hands, cross rons). The harness adds the seat metrics for four seats
(``seat{s}_win_share``, fair 1/4; ``seat{s}_ahead_of_seat{t}``, fair 1/2).
"""

from __future__ import annotations

import numpy as np

from simcore.family.metrics import (Metric, per_game_sums, reach_sums, seat_bits, share_unit,
                                    standard_metrics, standard_quantities)
from .engine import (
    END_REASON_NAMES, GAME_FIELDS, GF_CHIPS0, GF_POT_LEFT, N_SEATS, OUT_DRAW, OUTCOMES, RF_DEALER,
    RF_GAME, RF_OUTCOME, RF_REACH0, RF_RIICHI, RF_TENPAI, RF_TURNS, RF_VALUE0, RF_WINNERS,
    RF_YAKU0, ROUND_FIELDS,
)
from .scoring import ROUNDINGS, Y_HONOR_TRIPLET, YAKU

RATE_MARGIN = 0.01
RELATIVE_MARGIN = 0.2
UNIT = share_unit(N_SEATS)


def _catalogue() -> tuple:
    k = standard_metrics(UNIT, (), YAKU, margin=RATE_MARGIN, relative=RELATIVE_MARGIN, value=(
        "mean_winning_value", "chips per win (its value: a tsumo's total, a ron's payment)",
        25.0, "chips"))
    m = [
        k["first_dealer_win_share"],
        Metric("shared_win_rate", "game_rate", "shared", "games",
               "games won by several seats with equal top chips", RATE_MARGIN / 2),
    ]
    ends = {"regular": "games that end after S4 (no West rounds)",
            "west": "games that end after the West rounds",
            "bust": "games that end because a seat went below 0 chips",
            "round_limit": "games cut at the round limit"}
    for reason in END_REASON_NAMES:
        m.append(Metric(f"end_{reason}_rate", "game_rate", f"end_{reason}", "games",
                        ends[reason], RATE_MARGIN))
    m += [
        k["mean_rounds_per_game"],
        Metric("mean_final_margin", "per_game", "final_margin", "games",
               "chips between the top two seats at the end of a game", 100.0, unit="chips"),
        Metric("mean_pot_left", "per_game", "pot_left", "games",
               "chips left in the pot at the end of a game (discarded)", 5.0, unit="chips"),
        k["dealer_round_win_rate"], k["draw_rate"], k["tsumo_rate"], k["ron_rate"],
        Metric("multi_win_rate", "round_rate", "multi_win", "rounds",
               "rounds with more than one winner", RELATIVE_MARGIN, margin_relative=True),
        Metric("riichi_rate", "round_rate", "riichi_rounds", "rounds",
               "rounds in which someone declared riichi", RATE_MARGIN),
        Metric("riichi_per_round", "per_round", "riichis", "rounds",
               "riichi declarations per round (all seats)", 0.02, unit="riichi"),
        Metric("tenpai_at_draw_per_round", "per_round", "tenpai_seats", "rounds",
               "seats tenpai at an exhaustive draw, per round", 0.02, unit="seats"),
        Metric("mean_turns_per_round", "per_round", "turns", "rounds",
               "turns played per round (15 at most)", 0.1, unit="turns"),
        k["mean_winning_value"],
        *(k[f"yaku_{name}_share"] for name in YAKU),
    ]
    return tuple(m)


OWN_METRICS = _catalogue()


def game_quantities(game_indices: np.ndarray, games: np.ndarray, rounds: np.ndarray) -> dict:
    """Per-game quantities (name -> int64[n]) the catalogue names: the kit's, and emoji's own."""
    r, g = rounds, games
    won, riichi = seat_bits(r[:, RF_WINNERS], N_SEATS), r[:, RF_RIICHI]
    q = standard_quantities(game_indices, g, r, GAME_FIELDS, ROUND_FIELDS, N_SEATS, YAKU,
                            END_REASON_NAMES, score="chips", outcomes=OUTCOMES, per_round={
                                "multi_win": won.sum(axis=1) > 1, "riichi_rounds": riichi != 0,
                                "riichis": seat_bits(riichi, N_SEATS).sum(axis=1),
                                "tenpai_seats": seat_bits(r[:, RF_TENPAI], N_SEATS).sum(axis=1),
                                "turns": r[:, RF_TURNS]})
    chips = np.sort(g[:, GF_CHIPS0:GF_CHIPS0 + N_SEATS], axis=1)
    q.update(pot_left=g[:, GF_POT_LEFT], final_margin=chips[:, -1] - chips[:, -2])
    return q


# ---------------------------------------------------------------------------------------------
# What each yaku is worth, and whether it is worth chasing (Family.point_sources, yaku_reach)
# ---------------------------------------------------------------------------------------------

DOUBLING = 1000   # the value table's unit: a thousandth of a doubling (log2) of a win's value
BONUSES = ("dealer", "dora")
# yaku of the moment (how and when the winning tile comes), not of the hand: no reach
SITUATIONAL = ("tsumo", "last_tile", "tenhou")


def _units(factor: float) -> int:
    """A factor of a win's value in the table's unit (thousandths of a doubling)."""
    return int(round(DOUBLING * np.log2(factor))) if factor > 0 else 0


def _before_dora(bits, dealer, honour_triplets, p: dict) -> np.ndarray:
    """A win's value before its dora, as the engine computes it (scoring.value_of: the same
    float operations in the same order, so the same chips)."""
    mult = {k: 1.0 if v == "off" else float(v) for k, v in p["yaku"].items()}
    product = np.ones(len(bits))
    for i, name in enumerate(YAKU):
        m = mult[name]
        if i == Y_HONOR_TRIPLET and p["honor_triplet_per_set"]:
            m = np.power(m, honour_triplets)
        product = product * np.where((bits >> i) & 1 != 0, m, 1.0)
    x = p["base"] * product * np.where(dealer, float(p["dealer_factor"]), 1.0)
    how = ROUNDINGS.index(p["rounding"])
    if how == 1:
        return np.floor(x + 1e-9)
    if how == 2:
        return np.ceil(x - 1e-9)
    return np.floor(x + 0.5 + 1e-9)


def _wins(rounds, p: dict):
    """Per round and seat: won (bool), its yaku bits, whether it dealt, the honour triplets its
    honour_triplet yaku counts, and its dora (the value's chips past the multiplied part)."""
    won = ((rounds[:, RF_WINNERS, None] >> np.arange(N_SEATS)) & 1).astype(bool)
    won &= (rounds[:, RF_OUTCOME] != OUT_DRAW)[:, None]
    bits = np.where(won, rounds[:, RF_YAKU0:RF_YAKU0 + N_SEATS], 0)
    value = np.where(won, rounds[:, RF_VALUE0:RF_VALUE0 + N_SEATS], 0).astype(np.float64)
    dealer = np.arange(N_SEATS)[None, :] == rounds[:, RF_DEALER, None]
    dp = float(p["dora_points"])
    # the value without dora; under honor_triplet_per_set a win's honour triplets (1 or 2) are
    # not recorded: the count whose value leaves whole dora (0..3) is the one
    honours = np.ones(bits.shape, np.int64)
    before = _before_dora(bits.ravel(), dealer.ravel(), honours.ravel(), p).reshape(bits.shape)
    if p["honor_triplet_per_set"]:
        two = _before_dora(bits.ravel(), dealer.ravel(), 2 * honours.ravel(),
                           p).reshape(bits.shape)
        honours = np.where(_whole_dora(value - before, dp) | ~_whole_dora(value - two, dp), 1, 2)
        before = np.where(honours == 2, two, before)
    n_dora = np.rint((value - before) / dp).astype(np.int64) if dp else np.zeros_like(bits)
    return won, bits, dealer, honours, np.where(won, n_dora, 0), value, before


def _whole_dora(rest, dp: float) -> np.ndarray:
    """Is ``rest`` (value - value before dora) 0 to 3 dora of ``dp`` chips (to the chip the
    value was truncated to)?"""
    if not dp:
        return np.abs(rest) < 1
    n = np.rint(rest / dp)
    return (n >= 0) & (n <= 3) & (np.abs(rest - n * dp) < 1)


def point_sources(idx, rounds, data: dict):
    """Each yaku, the dealer's factor and dora: what each added to each game's wins, the wins
    it scored in, the game's wins and their total (``Family.point_sources``).

    Emoji's yaku multiply (spec §8.1: value = R(base x every multiplier x the dealer factor) +
    dora), so chips are not a sum of parts. The unit here is the doubling, in thousandths
    (:data:`DOUBLING`): log2 of what a source multiplied the win's value by, which adds up as
    han do. A yaku adds log2 of its multiplier (the honour triplet once per honour triplet under
    ``honor_triplet_per_set``), the dealer's win log2 of the dealer factor, dora log2(value /
    value without its dora); each rounded to a thousandth once, so a win's total is the sum of
    its rows exactly, and 2 ** (total / 1000) x base is its value to within the rounding to
    whole chips. ``points`` is the rule's value as the scenario sets it: "x1.5", "off" and
    "100/tile". A yaku at x1 is on and fires, adding 0."""
    p = data["scoring"]
    won, bits, dealer, honours, n_dora, value, before = _wins(rounds, p)
    rows, cols, hits = [], [], []
    for i, name in enumerate(YAKU):
        m = p["yaku"][name]
        hit = won & ((bits >> i) & 1 != 0)
        rows.append({"name": name, "kind": "yaku", "points": "off" if m == "off" else f"x{m:g}",
                     "on": m != "off"})
        units = 0 if m == "off" else _units(float(m))
        if i == Y_HONOR_TRIPLET:
            units = units * honours
        cols.append(np.where(hit, units, 0).sum(axis=1))
        hits.append(hit.sum(axis=1))
    df = float(p["dealer_factor"])
    rows.append({"name": "dealer", "kind": "bonus", "points": f"x{df:g}", "on": df != 1})
    hit = won & dealer
    cols.append(np.where(hit, _units(df), 0).sum(axis=1))
    hits.append(hit.sum(axis=1))
    dp = p["dora_points"]
    rows.append({"name": "dora", "kind": "bonus", "points": f"{dp:g}/tile", "on": bool(dp)})
    hit = won & (n_dora > 0)
    ok = hit & (before > 0)
    ratio = np.where(ok, value, 1.0) / np.where(ok, before, 1.0)
    cols.append(np.where(ok, np.rint(DOUBLING * np.log2(ratio)), 0).astype(np.int64).sum(axis=1))
    hits.append(hit.sum(axis=1))
    for row in rows:   # shown in doublings (sums in thousandths)
        row["unit"], row["scale"] = "doublings", DOUBLING
    x = np.stack(cols, axis=1).astype(np.int64)
    per_round = np.concatenate([x, np.stack(hits, axis=1), won.sum(axis=1)[:, None],
                                x.sum(axis=1)[:, None]], axis=1).astype(np.int64)
    _, sums = per_game_sums(idx, rounds[:, RF_GAME], per_round)
    k = len(rows)
    return rows, sums[:, :k], sums[:, k:2 * k], sums[:, 2 * k], sums[:, 2 * k + 1]


def yaku_reach(idx, rounds, data: dict):
    """Per row of :func:`point_sources`, per game the hands (a seat's round) within reach of it
    (tenpai with a wait that would score it as a ron: engine ``reach0..3``), of those the hands
    that won with it, and the hands played (four a round), in the games that measure reach
    (``Family.yaku_reach``). tsumo, last_tile and tenhou are of the moment, the dealer's factor
    is the seat's and dora a count: none has a reach."""
    won = ((rounds[:, RF_WINNERS, None] >> np.arange(N_SEATS)) & 1).astype(bool)
    won &= (rounds[:, RF_OUTCOME] != OUT_DRAW)[:, None]
    won_bits = np.where(won, rounds[:, RF_YAKU0:RF_YAKU0 + N_SEATS], 0)
    return reach_sums(idx, rounds[:, RF_GAME], rounds[:, RF_REACH0:RF_REACH0 + N_SEATS],
                      won_bits, N_SEATS, [i if name not in SITUATIONAL else None
                                          for i, name in enumerate(YAKU)] + [None] * len(BONUSES))

"""The Sparrow metric catalogue (spec sparrow.md §7) and the per-game quantities behind it. The
game is the unit; round and win metrics are ratios of per-game sums (a win: one winner of a
round, so a double ron is two). The kit adds the seat metrics for 2-6 seats (fair 1/n)."""

from __future__ import annotations

import numpy as np

from simcore.family.metrics import (Metric, per_game_sums, reach_sums, round_quantity_sums,
                                    share_unit, standard_game_quantities)
from .engine import (END_REASON_NAMES, GF_END_REASON, GF_FIRST_DEALER, GF_POINTS0,
                     GF_SEATS, GF_WINNERS, MAX_SEATS, OUT_DRAW, OUT_RON, OUT_TSUMO, RF_DEALER,
                     RF_GAME, RF_OUTCOME, RF_REACH0, RF_TURNS, RF_VALUE0, RF_WINNERS, RF_YAKU0)
from .hand import YAKU
from .rules import POINTS

UNIT, M = share_unit(MAX_SEATS), 0.01
OWN_METRICS = (
    Metric("first_dealer_win_share", "game_rate", "first_dealer_share", f"games{UNIT}",
           "share of the games won by the seat that dealt first (a shared win counts 1/m)", M,
           fair_per_seat=True),
    *(Metric(f"end_{r}_rate", "game_rate", f"end_{r}", "games", f"games that end by {r}", M)
      for r in END_REASON_NAMES),
    Metric("mean_rounds_per_game", "per_game", "rounds", "games", "rounds per game", 0.25,
           unit="rounds"),
    Metric("win_rate", "round_rate", "won", "rounds", "rounds someone won", M),
    Metric("tsumo_rate", "round_rate", "tsumo", "rounds", "rounds won by tsumo", M),
    Metric("ron_rate", "round_rate", "ron", "rounds", "rounds won by ron", M),
    Metric("draw_rate", "round_rate", "draws", "rounds", "rounds ending in an exhaustive draw", M),
    Metric("dealer_round_win_rate", "round_rate", "dealer_wins", "rounds", "rounds the dealer "
           "won", M),
    Metric("mean_turns_per_round", "per_round", "turns", "rounds", "draws per round", 0.2,
           unit="draws"),
    Metric("mean_winning_points", "per_win", "win_points", "wins", "points per win", 0.5,
           unit="points"),
    *(Metric(f"yaku_{y}_share", "win_rate", f"yaku_{y}", "wins", f"wins with {y}", 0.2,
             margin_relative=True) for y in YAKU[:5]),
)


def winners_mask(r):
    """bool[rounds, MAX_SEATS]: seat s won the round."""
    return np.stack([(r[:, RF_WINNERS] >> s) & 1 for s in range(MAX_SEATS)], axis=1).astype(bool)


def game_quantities(idx, games, rounds) -> dict:
    r, g = rounds, games
    won = winners_mask(r)
    q = round_quantity_sums(idx, r[:, RF_GAME], {
        "rounds": np.ones(len(r), np.int64), "won": r[:, RF_OUTCOME] != OUT_DRAW,
        "tsumo": r[:, RF_OUTCOME] == OUT_TSUMO, "ron": r[:, RF_OUTCOME] == OUT_RON,
        "draws": r[:, RF_OUTCOME] == OUT_DRAW, "turns": r[:, RF_TURNS],
        "dealer_wins": (r[:, RF_WINNERS] >> r[:, RF_DEALER]) & 1, "wins": won.sum(axis=1),
        "win_points": (r[:, RF_VALUE0:RF_VALUE0 + MAX_SEATS] * won).sum(axis=1),
        **{f"yaku_{y}": (won & ((r[:, RF_YAKU0:RF_YAKU0 + MAX_SEATS] >> i) & 1 != 0)).sum(axis=1)
           for i, y in enumerate(YAKU[:5])}})
    q.update(standard_game_quantities(
        g[:, GF_WINNERS], g[:, GF_POINTS0:GF_POINTS0 + MAX_SEATS], g[:, GF_SEATS], MAX_SEATS,
        g[:, GF_FIRST_DEALER], q["rounds"], g[:, GF_END_REASON], END_REASON_NAMES))
    return q


def point_sources(idx, batch, data: dict):
    """Each source of points (spec §4) in each game's wins: the points it added and the wins it
    scored in (``Family.point_sources``)."""
    r, p = batch.rounds, data["scoring"]
    won = winners_mask(r)
    word = r[:, RF_YAKU0:RF_YAKU0 + MAX_SEATS]
    alone = (p["specials"] == "alone") & ((word & 0b11100) != 0)
    runs, reds, doras = (word >> 16) & 3, (word >> 8) & 15, (word >> 12) & 15
    counts = {"run": runs, "triplet": 2 - runs, "red": reds, "dora": doras,
              **{y.replace("dealer", "dealer_bonus"): (word >> i) & 1 for i, y in enumerate(YAKU)}}
    rows, cols, hits = [], [], []
    for name in POINTS:
        special = name in ("chinyao", "all_green", "super_red")
        n = np.where(won & (special | ~alone), counts[name], 0)
        rows.append({"name": name, "kind": "yaku" if name in YAKU else "bonus",
                     "points": p[name], "on": bool(p[name])})
        cols.append((n * p[name]).sum(axis=1))
        hits.append((n > 0).sum(axis=1))
    per_round = np.stack(cols + hits + [won.sum(axis=1),
                                        (r[:, RF_VALUE0:RF_VALUE0 + MAX_SEATS] * won).sum(axis=1)],
                         axis=1).astype(np.int64)
    _, sums = per_game_sums(idx, r[:, RF_GAME], per_round)
    k = len(rows)
    return rows, sums[:, :k], sums[:, k:2 * k], sums[:, 2 * k], sums[:, 2 * k + 1]


def yaku_reach(idx, batch, data: dict):
    """Per row of :func:`point_sources`, per game the hands within reach of it, of those the
    hands that won with it, and the hands played, in the games that measure reach
    (``Family.yaku_reach``): the five hand yaku; sets, reds, dora and the dealer's bonus are
    counts or the seat's, not reached."""
    r = batch.rounds
    won_bits = np.where(winners_mask(r), r[:, RF_YAKU0:RF_YAKU0 + MAX_SEATS], 0)
    return reach_sums(idx, r[:, RF_GAME], r[:, RF_REACH0:RF_REACH0 + MAX_SEATS], won_bits,
                      len(data["players"]), [YAKU.index(n) if n in YAKU[:5] else None
                                             for n in POINTS])

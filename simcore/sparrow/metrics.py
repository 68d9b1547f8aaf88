"""The Sparrow metric catalogue (spec sparrow.md §7) and the per-game quantities behind it. The
game is the unit; round and win metrics are ratios of per-game sums (a win: one winner of a
round, so a double ron is two). The kit adds the seat metrics for 2-6 seats (fair 1/n)."""

from __future__ import annotations

import numpy as np

from simcore.family.metrics import (Metric, per_game_sums, reach_sums, seat_bits, share_unit,
                                    standard_metrics, standard_quantities)
from .engine import END_REASON_NAMES, GAME_FIELDS, MAX_SEATS, OUTCOMES, RF_GAME, RF_REACH0, \
    RF_TURNS, RF_VALUE0, RF_WINNERS, RF_YAKU0, ROUND_FIELDS
from .hand import YAKU
from .rules import POINTS

_K = standard_metrics(share_unit(MAX_SEATS), END_REASON_NAMES, YAKU[:5])   # the kit's
OWN_METRICS = (
    *(_K[k] for k in ("first_dealer_win_share", *(f"end_{r}_rate" for r in END_REASON_NAMES),
                      "mean_rounds_per_game", "win_rate", "tsumo_rate", "ron_rate", "draw_rate",
                      "dealer_round_win_rate")),
    Metric("mean_turns_per_round", "per_round", "turns", "rounds", "draws per round", 0.2,
           unit="draws"),
    *(_K[k] for k in ("mean_winning_points", *(f"yaku_{y}_share" for y in YAKU[:5]))))


def game_quantities(idx, games, rounds) -> dict:
    return standard_quantities(idx, games, rounds, GAME_FIELDS, ROUND_FIELDS, MAX_SEATS,
                               YAKU[:5], END_REASON_NAMES, per_round={"turns": rounds[:, RF_TURNS]},
                               outcomes=OUTCOMES)


def point_sources(idx, batch, data: dict):
    """Each source of points (spec §4) in each game's wins: the points it added and the wins it
    scored in (``Family.point_sources``)."""
    r, p = batch.rounds, data["scoring"]
    won = seat_bits(r[:, RF_WINNERS], MAX_SEATS)
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
    won = seat_bits(r[:, RF_WINNERS], MAX_SEATS)
    won_bits = np.where(won, r[:, RF_YAKU0:RF_YAKU0 + MAX_SEATS], 0)
    return reach_sums(idx, r[:, RF_GAME], r[:, RF_REACH0:RF_REACH0 + MAX_SEATS], won_bits,
                      len(data["players"]), [YAKU.index(n) if n in YAKU[:5] else None
                                             for n in POINTS])

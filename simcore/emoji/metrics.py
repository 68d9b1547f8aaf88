"""The emoji metric catalogue, and the per-game numerators and denominators behind it.

The game is the unit of independence; round- and win-level metrics are ratios of per-game sums.
A *win* is one winner of a round (several seats may win one round: simultaneous tsumo, a
discard completing two hands, cross rons). The harness adds the seat metrics for four seats
(``seat{s}_win_share``, fair 1/4; ``seat{s}_ahead_of_seat{t}``, fair 1/2).
"""

from __future__ import annotations

import numpy as np

from simcore.family.metrics import (Metric, round_quantity_sums, share_unit,
                                    standard_game_quantities)
from .engine import (
    END_REASON_NAMES, GF_CHIPS0, GF_END_REASON, GF_FIRST_DEALER, GF_POT_LEFT, GF_ROUNDS,
    GF_WINNERS, N_SEATS, OUT_DRAW, OUT_RON, OUT_TSUMO, RF_DEALER, RF_GAME, RF_OUTCOME,
    RF_RIICHI, RF_TENPAI, RF_TURNS, RF_VALUE0, RF_WINNERS, RF_YAKU0,
)
from .scoring import YAKU

RATE_MARGIN = 0.01
RELATIVE_MARGIN = 0.2
UNIT = share_unit(N_SEATS)


def _catalogue() -> tuple:
    m = [
        Metric("first_dealer_win_share", "game_rate", "first_dealer_share", f"games{UNIT}",
               "share of the games won by the seat that dealt first (a shared win counts 1/m "
               "to each of its m winners)", RATE_MARGIN, fair_per_seat=True),
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
        Metric("mean_rounds_per_game", "per_game", "rounds", "games", "rounds played per game",
               0.25, unit="rounds"),
        Metric("mean_final_margin", "per_game", "final_margin", "games",
               "chips between the top two seats at the end of a game", 100.0, unit="chips"),
        Metric("mean_pot_left", "per_game", "pot_left", "games",
               "chips left in the pot at the end of a game (discarded)", 5.0, unit="chips"),
        Metric("dealer_round_win_rate", "round_rate", "dealer_wins", "rounds",
               "rounds the dealer won (alone or among several winners)", RATE_MARGIN),
        Metric("draw_rate", "round_rate", "draws", "rounds",
               "rounds ending in an exhaustive draw", RATE_MARGIN),
        Metric("tsumo_rate", "round_rate", "tsumo", "rounds", "rounds won by tsumo",
               RATE_MARGIN),
        Metric("ron_rate", "round_rate", "ron", "rounds", "rounds won by ron", RATE_MARGIN),
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
        Metric("mean_winning_value", "per_win", "win_value", "wins",
               "chips per win (its value: a tsumo's total, a ron's payment)", 25.0,
               unit="chips"),
    ]
    for name in YAKU:
        m.append(Metric(f"yaku_{name}_share", "win_rate", f"yaku_{name}", "wins",
                        f"wins with {name}", RELATIVE_MARGIN, margin_relative=True))
    return tuple(m)


OWN_METRICS = _catalogue()


def _round_quantities(r: np.ndarray) -> dict:
    winners = r[:, RF_WINNERS]
    won = np.stack([(winners >> s) & 1 for s in range(N_SEATS)], axis=1).astype(bool)
    n_win = won.sum(axis=1)
    riichi = r[:, RF_RIICHI]
    q = {
        "rounds": np.ones(len(r), np.int64),
        "dealer_wins": ((winners >> r[:, RF_DEALER]) & 1) * (r[:, RF_OUTCOME] != OUT_DRAW),
        "draws": r[:, RF_OUTCOME] == OUT_DRAW,
        "tsumo": r[:, RF_OUTCOME] == OUT_TSUMO,
        "ron": r[:, RF_OUTCOME] == OUT_RON,
        "multi_win": n_win > 1,
        "riichi_rounds": riichi != 0,
        "riichis": sum((riichi >> s) & 1 for s in range(N_SEATS)),
        "tenpai_seats": sum((r[:, RF_TENPAI] >> s) & 1 for s in range(N_SEATS)),
        "turns": r[:, RF_TURNS],
        "wins": n_win,
        "win_value": (r[:, RF_VALUE0:RF_VALUE0 + N_SEATS] * won).sum(axis=1),
    }
    bits = r[:, RF_YAKU0:RF_YAKU0 + N_SEATS]
    for i, name in enumerate(YAKU):
        q[f"yaku_{name}"] = (won & (((bits >> i) & 1) != 0)).sum(axis=1)
    return q


def _game_quantities(g: np.ndarray) -> dict:
    chips = g[:, GF_CHIPS0:GF_CHIPS0 + N_SEATS]
    q = standard_game_quantities(g[:, GF_WINNERS], chips, N_SEATS, N_SEATS,
                                 g[:, GF_FIRST_DEALER], g[:, GF_ROUNDS], g[:, GF_END_REASON],
                                 END_REASON_NAMES)
    srt = np.sort(chips, axis=1)
    q.update(pot_left=g[:, GF_POT_LEFT], final_margin=srt[:, -1] - srt[:, -2])
    return q


def game_quantities(game_indices: np.ndarray, games: np.ndarray, rounds: np.ndarray) -> dict:
    """Per-game quantities (name -> int64[n]) the catalogue names."""
    q = round_quantity_sums(game_indices, rounds[:, RF_GAME], _round_quantities(rounds))
    q.update(_game_quantities(games))
    return q

"""The riichi2p metric catalogue, and the per-game numerators and denominators behind it.

The game (hands until a player busts) is the unit of independence; hand- and win-level metrics
are ratios of per-game sums. The harness adds the seat metrics for two seats (``seat0_win_share``
and ``seat0_ahead_of_seat1``, fair 1/2). A drawn game (both bust level, or ``both_bust: draw``)
counts half to each seat.
"""

from __future__ import annotations

import numpy as np

from simcore.family.metrics import (Metric, round_quantity_sums, share_unit,
                                    standard_game_quantities)
from .engine import (
    END_REASON_NAMES, GF_END_REASON, GF_FIRST_DEALER, GF_POOL_LEFT, GF_ROUNDS, GF_SCORE0,
    GF_WINNERS, N_SEATS, OUT_DRAW, OUT_FOUR_KANS, OUT_KYUUSHU, OUT_RON, OUT_TSUMO, RF_CALLS,
    RF_DEALER, RF_GAME, RF_HAN, RF_LIMIT, RF_NAGASHI, RF_OUTCOME, RF_PAY, RF_RIICHI, RF_TENPAI,
    RF_WINNER, RF_YAKU, RF_YAKUMAN,
)
from .scoring import YAKU

RATE_MARGIN = 0.01
RELATIVE_MARGIN = 0.2
UNIT = share_unit(N_SEATS)
ENDS = {"bust": "games that end because one player's points ran out",
        "both_bust": "games that end with both players out in one settlement",
        "hand_limit": "games cut at max_hands (the leader wins)"}


def _catalogue() -> tuple:
    m = [
        Metric("first_dealer_win_share", "game_rate", "first_dealer_share", f"games{UNIT}",
               "share of the games won by the player who dealt E1 (a drawn game counts half)",
               RATE_MARGIN, fair_per_seat=True),
        Metric("drawn_game_rate", "game_rate", "drawn", "games",
               "games ending level (both out with equal scores, or both_bust: draw)",
               RELATIVE_MARGIN, margin_relative=True),
    ]
    for reason in END_REASON_NAMES:
        m.append(Metric(f"end_{reason}_rate", "game_rate", f"end_{reason}", "games",
                        ENDS[reason], RATE_MARGIN))
    m += [
        Metric("mean_hands_per_game", "per_game", "rounds", "games", "hands played per game",
               0.5, unit="hands"),
        Metric("mean_final_margin", "per_game", "final_margin", "games",
               "points between the two players at the end of a game", 1000.0,
               unit="points"),
        Metric("mean_pool_left", "per_game", "pool_left", "games",
               "riichi deposits left on the table when the game ends (dropped)", 100.0,
               unit="points"),
        Metric("dealer_hand_win_rate", "round_rate", "dealer_wins", "rounds",
               "hands the dealer won", RATE_MARGIN),
        Metric("non_dealer_hand_win_rate", "round_rate", "non_dealer_wins", "rounds",
               "hands the non-dealer won", RATE_MARGIN),
        Metric("draw_rate", "round_rate", "draws", "rounds",
               "hands ending in an exhaustive draw", RATE_MARGIN),
        Metric("abortive_draw_rate", "round_rate", "aborts", "rounds",
               "hands aborted (kyuushu kyuuhai, four kans)", RELATIVE_MARGIN,
               margin_relative=True),
        Metric("tsumo_rate", "round_rate", "tsumo", "rounds", "hands won by tsumo",
               RATE_MARGIN),
        Metric("ron_rate", "round_rate", "ron", "rounds", "hands won by ron", RATE_MARGIN),
        Metric("riichi_rate", "round_rate", "riichi_rounds", "rounds",
               "hands in which someone's riichi was established", RATE_MARGIN),
        Metric("calls_per_hand", "per_round", "calls", "rounds",
               "chi, pon and kans per hand (both players)", 0.05, unit="calls"),
        Metric("tenpai_at_draw_per_hand", "per_round", "tenpai_seats", "rounds",
               "players tenpai at an exhaustive draw, per hand", 0.02, unit="players"),
        Metric("nagashi_per_hand", "per_round", "nagashi", "rounds",
               "nagashi mangan payments per hand", 0.01, unit="payments"),
        Metric("mean_winning_pay", "per_win", "win_pay", "wins",
               "points the loser loses per win (honba included)", 250.0, unit="points"),
        Metric("mean_han", "per_win", "win_han", "wins",
               "han per win (0 for a yakuman)", 0.1, unit="han"),
        Metric("mangan_or_more_rate", "win_rate", "mangan_plus", "wins",
               "wins at mangan or above (kazoe, yakuman, renhou included)", RATE_MARGIN),
        Metric("yakuman_rate", "win_rate", "yakuman", "wins", "wins that are a yakuman",
               RELATIVE_MARGIN, margin_relative=True),
    ]
    for name in YAKU:
        m.append(Metric(f"yaku_{name}_share", "win_rate", f"yaku_{name}", "wins",
                        f"wins with {name}", RELATIVE_MARGIN, margin_relative=True))
    return tuple(m)


OWN_METRICS = _catalogue()


def _round_quantities(r: np.ndarray) -> dict:
    out = r[:, RF_OUTCOME]
    won = (out == OUT_TSUMO) | (out == OUT_RON)
    riichi = r[:, RF_RIICHI]
    q = {
        "rounds": np.ones(len(r), np.int64),
        "dealer_wins": won & (r[:, RF_WINNER] == r[:, RF_DEALER]),
        "non_dealer_wins": won & (r[:, RF_WINNER] != r[:, RF_DEALER]),
        "draws": out == OUT_DRAW,
        "aborts": (out == OUT_KYUUSHU) | (out == OUT_FOUR_KANS),
        "tsumo": out == OUT_TSUMO,
        "ron": out == OUT_RON,
        "riichi_rounds": riichi != 0,
        "calls": r[:, RF_CALLS],
        "tenpai_seats": sum((r[:, RF_TENPAI] >> s) & 1 for s in range(N_SEATS)),
        "nagashi": sum((r[:, RF_NAGASHI] >> s) & 1 for s in range(N_SEATS)),
        "wins": won,
        "win_pay": r[:, RF_PAY] * won,
        "win_han": r[:, RF_HAN] * won,
        "mangan_plus": won & (r[:, RF_LIMIT] > 0),
        "yakuman": won & (r[:, RF_YAKUMAN] > 0),
    }
    bits = r[:, RF_YAKU]
    for i, name in enumerate(YAKU):
        q[f"yaku_{name}"] = won & (((bits >> i) & 1) != 0)
    return q


def _game_quantities(g: np.ndarray) -> dict:
    scores = g[:, GF_SCORE0:GF_SCORE0 + N_SEATS]
    q = standard_game_quantities(g[:, GF_WINNERS], scores, N_SEATS, N_SEATS,
                                 g[:, GF_FIRST_DEALER], g[:, GF_ROUNDS], g[:, GF_END_REASON],
                                 END_REASON_NAMES)
    q.update(drawn=q["shared"], pool_left=g[:, GF_POOL_LEFT],
             final_margin=np.abs(scores[:, 0] - scores[:, 1]))
    return q


def game_quantities(game_indices: np.ndarray, games: np.ndarray, rounds: np.ndarray) -> dict:
    """Per-game quantities (name -> int64[n]) the catalogue names."""
    q = round_quantity_sums(game_indices, rounds[:, RF_GAME], _round_quantities(rounds))
    q.update(_game_quantities(games))
    return q




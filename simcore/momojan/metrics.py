"""The MOMOJAN metric catalogue, and the per-game numerators and denominators behind it.

Every MOMOJAN metric appears once in :data:`OWN_METRICS` (name, kind, per-game numerator and
denominator, a one-line description, the default equivalence margin); the family's catalogue
(``FAMILY.CATALOGUE``) adds the harness's seat metrics. :func:`game_quantities` turns one chunk's
game and round records into the integer per-game quantities the catalogue names; nothing else in
the harness reads MOMOJAN records.

Round- and win-level metrics are ratios of per-game sums (rounds where something happened over
rounds played, points over wins): the game, not the round, is the unit of independence, and the
intervals in :mod:`simcore.stats.moments` treat it so.

What this implementation simplifies: the yaku list is the schema's fixed one (a yaku the
scenario disables simply never fires); a tied game (no winner) counts as a loss for both seats in
the win rates.
"""

from __future__ import annotations

import numpy as np

from simcore.family.metrics import Metric, per_game_sums, seat_quantities
from .engine import (
    END_REASON_NAMES, GF_END_REASON, GF_FIRST_DEALER, GF_ROUNDS, GF_SCORE0, GF_SCORE1, GF_WINNER,
    OUT_DRAW, OUT_RON, OUT_TSUMO, RF_CHI0, RF_CHI1, RF_DEALER, RF_DORA, RF_DOUBLED, RF_DRAW3_0,
    RF_DRAW3_1, RF_GAME, RF_KAI0, RF_KAI1, RF_KAN0, RF_KAN1, RF_OUTCOME, RF_PON0, RF_PON1,
    RF_POINTS, RF_RIICHI0, RF_RIICHI1, RF_ROUND, RF_RON_BONUS, RF_SCORE0, RF_SCORE1, RF_SET_BONUS,
    RF_REACH0, RF_REACH1, RF_SUBTOTAL, RF_WINNER, RF_YAKU_BITS,
)
from .rules_array import MAX_NEW_YAKU, N_SCORE_SLOTS, YAKU_KEYS
from .schema import SET_BONUS_NAMES

# Bit i of a round's yaku bits: YAKU_KEYS, then the set-count slots (bonuses in the new edition,
# yaku in the old), then the MAX_NEW_YAKU slots of the picture-set yaku a scenario adds, named
# new_1 .. here (the catalogue is the same for every scenario, so variants compare slot by slot)
# and by the scenario's own names in summaries (:func:`slot_display_names`).
FIXED_SLOT_NAMES = tuple(YAKU_KEYS) + tuple(SET_BONUS_NAMES)
NEW_SLOT_NAMES = tuple(f"new_{j + 1}" for j in range(MAX_NEW_YAKU))
SLOT_NAMES = FIXED_SLOT_NAMES + NEW_SLOT_NAMES
assert len(SLOT_NAMES) == N_SCORE_SLOTS


def slot_display_names(scenario) -> dict:
    """``{catalogue slot name: the scenario's name}`` for the new-yaku slots it uses (see
    :func:`simcore.momojan.yaku_conditions.score_slot_names`)."""
    from .yaku_conditions import score_slot_names
    names = score_slot_names(scenario)[len(FIXED_SLOT_NAMES):]
    return dict(zip(NEW_SLOT_NAMES, names))

# The round after which "behind" is judged for the comeback rate (0-based round index 1).
COMEBACK_AFTER_ROUND = 2

SEATS = 2               # every MOMOJAN game has two players
RATE_MARGIN = 0.01      # one percentage point
USE_MARGIN = 0.02       # calls / Kai / draws per round
RELATIVE_MARGIN = 0.2   # yaku and bonus shares: within 20% of a's share (rare ones included)


def _catalogue() -> tuple:
    m = [
        Metric("first_dealer_win_rate", "game_rate", "first_dealer_share6", "games6",
               "games won by the player who dealt first (a tied game counts 1/2)", RATE_MARGIN,
               fair_per_seat=True),
        Metric("tied_game_rate", "game_rate", "tied", "games",
               "games ending with no winner (tie break: draw)", RATE_MARGIN / 2),
    ]
    for reason in END_REASON_NAMES:
        m.append(Metric(f"end_{reason}_rate", "game_rate", f"end_{reason}", "games",
                        f"games that end by {reason.replace('_', ' ')}", RATE_MARGIN))
    m += [
        Metric("comeback_rate", "game_rate", "comeback", "decided_after_round_2",
               f"games of more than {COMEBACK_AFTER_ROUND} rounds won by the player behind after "
               f"round {COMEBACK_AFTER_ROUND}", 2 * RATE_MARGIN),
        Metric("mean_rounds_per_game", "per_game", "rounds", "games",
               "rounds played per game", 0.1, unit="rounds"),
        Metric("mean_final_margin", "per_game", "final_margin", "games",
               "points between the two players at the end of a game", 0.5, unit="points"),
        Metric("dealer_round_win_rate", "round_rate", "dealer_wins", "rounds",
               "rounds won by the dealer (tsumo or ron)", RATE_MARGIN),
        Metric("tsumo_rate", "round_rate", "tsumo", "rounds", "rounds won by tsumo", RATE_MARGIN),
        Metric("ron_rate", "round_rate", "ron", "rounds", "rounds won by ron", RATE_MARGIN),
        Metric("draw_rate", "round_rate", "draws", "rounds",
               "rounds ending in an exhaustive draw", RATE_MARGIN),
        Metric("riichi_rate", "round_rate", "riichi_rounds", "rounds",
               "rounds in which someone declared riichi", RATE_MARGIN),
        Metric("kai_per_round", "per_round", "kai", "rounds", "Kai sets made per round (both players)",
               USE_MARGIN, unit="Kai sets"),
        Metric("pon_per_round", "per_round", "pon", "rounds", "Pon calls per round (both players)",
               USE_MARGIN, unit="calls"),
        Metric("chi_per_round", "per_round", "chi", "rounds", "Chi calls per round (both players)",
               USE_MARGIN, unit="calls"),
        Metric("kan_per_round", "per_round", "kan", "rounds", "kans per round (both players)",
               USE_MARGIN, unit="kans"),
        Metric("draw_three_per_round", "per_round", "draw_three", "rounds",
               "three-card draws per round (both players)", USE_MARGIN, unit="draws"),
        Metric("doubled_win_rate", "win_rate", "doubled", "wins", "wins whose points were doubled",
               RELATIVE_MARGIN, margin_relative=True),
        Metric("mean_winning_points", "per_win", "winning_points", "wins",
               "points paid per win (tsumo or ron)", 0.25, unit="points"),
        Metric("dora_bonus_share", "win_rate", "dora_wins", "wins", "wins with a dora bonus",
               RELATIVE_MARGIN, margin_relative=True),
        Metric("ron_bonus_share", "win_rate", "ron_bonus_wins", "wins", "wins with the ron bonus",
               RELATIVE_MARGIN, margin_relative=True),
        Metric("set_count_bonus_share", "win_rate", "set_bonus_wins", "wins",
               "wins with a set-count bonus", RELATIVE_MARGIN, margin_relative=True),
    ]
    for name in FIXED_SLOT_NAMES:
        what = (f"wins scoring {name} (a set-count yaku in the old edition, bonus in the new)"
                if name in SET_BONUS_NAMES else f"wins scoring {name}")
        m.append(Metric(f"yaku_{name}_share", "win_rate", f"slot_{name}", "wins", what,
                        RELATIVE_MARGIN, margin_relative=True))
    for j, name in enumerate(NEW_SLOT_NAMES):
        m.append(Metric(f"yaku_{name}_share", "win_rate", f"slot_{name}", "wins",
                        f"wins scoring the scenario's new picture-set yaku number {j + 1} "
                        f"(scoring.yaku, in scenario order)", RELATIVE_MARGIN,
                        margin_relative=True))
    return tuple(m)


OWN_METRICS = _catalogue()

# Per-round quantities summed per game (each a function of the round records).
_ROUND_QUANTITIES = {
    "dealer_wins": lambda r, win: win & (r[:, RF_WINNER] == r[:, RF_DEALER]),
    "tsumo": lambda r, win: r[:, RF_OUTCOME] == OUT_TSUMO,
    "ron": lambda r, win: r[:, RF_OUTCOME] == OUT_RON,
    "draws": lambda r, win: r[:, RF_OUTCOME] == OUT_DRAW,
    "riichi_rounds": lambda r, win: (r[:, RF_RIICHI0] + r[:, RF_RIICHI1]) > 0,
    "kai": lambda r, win: r[:, RF_KAI0] + r[:, RF_KAI1],
    "pon": lambda r, win: r[:, RF_PON0] + r[:, RF_PON1],
    "chi": lambda r, win: r[:, RF_CHI0] + r[:, RF_CHI1],
    "kan": lambda r, win: r[:, RF_KAN0] + r[:, RF_KAN1],
    "draw_three": lambda r, win: r[:, RF_DRAW3_0] + r[:, RF_DRAW3_1],
    "wins": lambda r, win: win,
    "doubled": lambda r, win: win & (r[:, RF_DOUBLED] != 0),
    "winning_points": lambda r, win: np.where(win, r[:, RF_POINTS], 0),
    "dora_wins": lambda r, win: win & (r[:, RF_DORA] > 0),
    "ron_bonus_wins": lambda r, win: win & (r[:, RF_RON_BONUS] > 0),
    "set_bonus_wins": lambda r, win: win & (r[:, RF_SET_BONUS] > 0),
}


def _slot(i):
    return lambda r, win: win & (((r[:, RF_YAKU_BITS] >> i) & 1) != 0)


for _i, _name in enumerate(SLOT_NAMES):
    _ROUND_QUANTITIES[f"slot_{_name}"] = _slot(_i)


def _game_quantities(g: np.ndarray, rounds_sum: dict, behind_after: np.ndarray) -> dict:
    w = g[:, GF_WINNER]
    q = {
        "games": np.ones(len(g), np.int64),
        "rounds": g[:, GF_ROUNDS],
        "first_dealer_won": w == g[:, GF_FIRST_DEALER],
        "first_dealer_share6": np.where(w == g[:, GF_FIRST_DEALER], 6, np.where(w < 0, 3, 0)),
        "seat0_won": w == 0,
        "tied": w < 0,
        "final_margin": np.abs(g[:, GF_SCORE0] - g[:, GF_SCORE1]),
    }
    for code, reason in enumerate(END_REASON_NAMES):
        q[f"end_{reason}"] = g[:, GF_END_REASON] == code
    decided = (g[:, GF_ROUNDS] > COMEBACK_AFTER_ROUND) & (w >= 0)
    q["decided_after_round_2"] = decided
    q["comeback"] = decided & (behind_after == np.where(w >= 0, w, -2))
    q.update(rounds_sum)
    # the harness's seat metrics: the winner finishes ahead; a tied game leaves both level
    winners = np.where(w >= 0, np.left_shift(1, np.maximum(w, 0)), 3)
    standing = np.stack([(w == s) | (w < 0) for s in range(SEATS)], axis=1).astype(np.int64)
    q.update(seat_quantities(winners, standing, SEATS, SEATS))
    return q


def game_quantities(game_indices: np.ndarray, games: np.ndarray, rounds: np.ndarray) -> dict:
    """Per-game quantities (name -> int64[n]) the catalogue's numerators and denominators name.

    Parameters
    ----------
    game_indices : int64[n]
        The chunk's game indices, ascending (games and rounds are in this order).
    games : int64[n, N_GF]
        Game records (engine.GAME_FIELDS).
    rounds : int64[n_rounds, N_RF]
        Round records (engine.ROUND_FIELDS); ``RF_GAME`` is the game index.

    Returns
    -------
    q : dict of int64[n]
        Per game, each quantity (round quantities summed over the game's rounds).
    """
    n = len(game_indices)
    win = rounds[:, RF_OUTCOME] != OUT_DRAW
    names = list(_ROUND_QUANTITIES)
    per_round = np.empty((len(rounds), len(names)), np.int64)
    for j, name in enumerate(names):
        per_round[:, j] = _ROUND_QUANTITIES[name](rounds, win)
    # Rounds are in game order: each game's segment summed (a game with no round gets 0).
    pos, sums = per_game_sums(game_indices, rounds[:, RF_GAME], per_round)
    rounds_sum = {name: sums[:, j] for j, name in enumerate(names)}
    # Who was behind after round COMEBACK_AFTER_ROUND (-1: level, or the game was shorter).
    behind_after = np.full(n, -1, np.int64)
    after = rounds[rounds[:, RF_ROUND] == COMEBACK_AFTER_ROUND - 1]
    s0, s1 = after[:, RF_SCORE0], after[:, RF_SCORE1]
    behind_after[pos[rounds[:, RF_ROUND] == COMEBACK_AFTER_ROUND - 1]] = \
        np.where(s0 < s1, 0, np.where(s1 < s0, 1, -1))
    return _game_quantities(games, rounds_sum, behind_after)



# ---------------------------------------------------------------------------------------------
# Where an imbalance comes from, and what each yaku is worth (issue 29)
# ---------------------------------------------------------------------------------------------

ROUND_EDGES = (1, 3, 5, 7, 9, 13)        # rounds a game lasted: 1-2, 3-4, ..., 13+
GAP_EDGES = (0, 1, 5, 10, 20, 40)        # points between the two at the end: 0, 1-4, ..., 40+
BREAKDOWN_METRICS = ("first_dealer_win_rate", "seat0_win_share", "dealer_round_win_rate",
                     "draw_rate")


def breakdowns() -> dict:
    from simcore.stats.domains import game_end_breakdowns
    return game_end_breakdowns("game", END_REASON_NAMES, ROUND_EDGES, GAP_EDGES,
                               "the score gap at the end (points)")


def breakdown_codes(idx, games, rounds) -> dict:
    from simcore.stats.domains import game_end_codes
    return game_end_codes(games[:, GF_END_REASON], games[:, GF_ROUNDS],
                          np.abs(games[:, GF_SCORE0] - games[:, GF_SCORE1]), ROUND_EDGES,
                          GAP_EDGES)


def point_sources(idx, rounds, data: dict):
    """Every yaku slot the scenario has, the set-count bonuses, dora and the ron bonus: their
    points in each game's wins (before doubling), the wins they scored in, the game's wins and
    its points before doubling (``Family.point_sources``).

    Only won rounds add anything, and a yaku's points are fixed, so per game it counts each
    slot's wins (the yaku bits unpacked into one column each) and multiplies by the points; only
    a set-count bonus that is not a yaku (recorded with its points) is summed round by round."""
    from .yaku_conditions import new_yaku_names
    table = data["scoring"]["yaku"]
    names = list(YAKU_KEYS) + list(SET_BONUS_NAMES) + new_yaku_names(table)
    is_yaku = data["scoring"]["set_count_is_yaku"]
    won = rounds[(rounds[:, RF_WINNER] >= 0) & (rounds[:, RF_OUTCOME] != OUT_DRAW)]
    k = len(names)
    # bit i of each win's yaku bits as column i (little-endian bytes of the int64)
    bits = np.unpackbits(np.ascontiguousarray(won[:, RF_YAKU_BITS], "<i8").view(np.uint8)
                         .reshape(-1, 8), axis=1, bitorder="little")
    bits = np.pad(bits, ((0, 0), (0, max(0, k - 64))))[:, :k]
    bonus = [i for i, name in enumerate(names) if name in SET_BONUS_NAMES and not is_yaku]
    dora, ron = won[:, RF_DORA], won[:, RF_RON_BONUS]
    per_round = np.column_stack(
        [bits.astype(np.int64)] + [bits[:, i] * won[:, RF_SET_BONUS] for i in bonus]
        + [dora, dora > 0, ron, ron > 0, np.ones(len(won), np.int64), won[:, RF_SUBTOTAL]])
    _, sums = per_game_sums(idx, won[:, RF_GAME], per_round.astype(np.int64))
    fired = sums[:, :k]
    rows, points = [], []
    for i, name in enumerate(names):
        if name in SET_BONUS_NAMES:
            pts = data["scoring"]["set_count_bonus"][name]
            rows.append({"name": name, "kind": "yaku" if is_yaku else "bonus", "points": pts,
                         "on": bool(pts)})
            # a bonus is recorded with its points; as a yaku (old edition) by its slot bit
            points.append(fired[:, i] * np.int64(pts) if is_yaku
                          else sums[:, k + bonus.index(i)])
        else:
            y = table[name]
            rows.append({"name": name, "kind": "yaku", "points": y["points"],
                         "on": bool(y["enabled"])})
            points.append(fired[:, i] * np.int64(y["points"]))
    e = k + len(bonus)   # dora, its wins, the ron bonus, its wins, wins, points before doubling
    for name, points_text in (("dora", f"{data['scoring']['dora_per_card']}/card"),
                              ("ron_bonus", data["scoring"]["ron_bonus"])):
        rows.append({"name": name, "kind": "bonus", "points": points_text,
                     "on": bool(data["scoring"]["dora_per_card" if name == "dora"
                                                else "ron_bonus"])})
    for row in rows:
        row["unit"] = "points before doubling"
    x = np.column_stack(points + [sums[:, e], sums[:, e + 2]])
    hits = np.column_stack([fired, sums[:, e + 1], sums[:, e + 3]])
    return rows, x, hits, sums[:, e + 4], sums[:, e + 5]


SITUATIONAL = ("haitei", "houtei", "rinshan")   # yaku of the moment, not of the hand: no reach


def yaku_reach(idx, rounds, data: dict):
    """Per row of :func:`point_sources`, per game the hands (a seat's round) within reach of it,
    of those the hands that won with it, and the hands played, in the games that measure reach
    (``Family.yaku_reach``). Dora and the ron bonus are counts, and haitei, houtei and rinshan
    are of the moment: none has a reach."""
    from simcore.family.metrics import reach_sums
    from .yaku_conditions import new_yaku_names
    names = list(YAKU_KEYS) + list(SET_BONUS_NAMES) + new_yaku_names(data["scoring"]["yaku"])
    win = (rounds[:, RF_WINNER] >= 0) & (rounds[:, RF_OUTCOME] != OUT_DRAW)
    won_bits = np.stack([np.where(win & (rounds[:, RF_WINNER] == s), rounds[:, RF_YAKU_BITS], 0)
                         for s in range(2)], axis=1)
    return reach_sums(idx, rounds[:, RF_GAME], rounds[:, [RF_REACH0, RF_REACH1]], won_bits, 2,
                      [None if n in SITUATIONAL else i for i, n in enumerate(names)]
                      + [None, None])

"""The riichi2p metric catalogue, and the per-game numerators and denominators behind it.

The game (hands until a player busts) is the unit of independence; hand- and win-level metrics
are ratios of per-game sums. The harness adds the seat metrics for two seats (``seat0_win_share``
and ``seat0_ahead_of_seat1``, fair 1/2). A drawn game (both bust level, or ``both_bust: draw``)
counts half to each seat.
"""

from __future__ import annotations

import numpy as np

from simcore.family.metrics import (Metric, per_game_sums, reach_sums, round_quantity_sums,
                                    share_unit, standard_game_quantities)
from .engine import (
    END_REASON_NAMES, GF_END_REASON, GF_FIRST_DEALER, GF_POOL_LEFT, GF_ROUNDS, GF_SCORE0,
    GF_WINNERS, N_SEATS, OUT_DRAW, OUT_FOUR_KANS, OUT_KYUUSHU, OUT_RON, OUT_TSUMO, RF_CALLS,
    RF_DEALER, RF_DORA, RF_GAME, RF_HAN, RF_LIMIT, RF_NAGASHI, RF_OUTCOME, RF_PAY, RF_REACH0,
    RF_RED, RF_RIICHI, RF_TENPAI, RF_URA, RF_WINNER, RF_YAKU, RF_YAKUMAN,
)
from .scoring import BONUS, LIMITS, REGULAR, YAKU, YAKUMAN

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





# ---- the yaku value table (Family.point_sources) and yaku reach (Family.yaku_reach) -----------
YAKUMAN_HAN = 13          # a yakuman counts as 13 han a multiple (what a counted yakuman needs)
LIMIT_HAN = {"mangan": 5, "baiman": 8}    # renhou's flat value as the han that pay it
NOT_YAKU = ("ippatsu", "paarenchan")      # scored beside a yaku, never alone (spec §5.2)
# the double yakuman the win's reading decides (13-sided kokushi, suuankou tanki, pure chuuren)
DOUBLE_BY_WAIT = ("kokushi", "suuankou", "chuuren")
# yaku of the moment, not of the hand: the last tile, a kan's replacement or robbed tile, the
# turn after riichi, a first-turn win (and shiisan puutaa, a first draw): no reach
OF_THE_MOMENT = ("rinshan", "chankan", "haitei", "houtei", "ippatsu", "tenhou", "chiihou",
                 "renhou", "shiisan_puutaa")


def _han(name: str, data: dict) -> tuple:
    """(closed, open) han of regular yaku ``name`` under the scenario's rules (open 0: a
    closed-only yaku)."""
    reduced = {"sanshoku": 2, "ittsu": 2, "chanta": 2, "junchan": 3, "honitsu": 3,
               "chinitsu": 6, "isshoku_sanjun": 2}
    if name in reduced:
        return reduced[name], reduced[name] - 1
    if name == "sanrenkou":
        return 2, data["sanrenkou_open_han"]
    if name in ("riichi", "menzen_tsumo", "pinfu", "iipeikou", "ippatsu"):
        return 1, 0
    if name == "double_riichi":
        return 2, 0
    if name == "chiitoitsu":
        return (1 if data["chiitoitsu"] == "50fu1han" else 2), 0
    if name == "ryanpeikou":
        return data["ryanpeikou_han"], 0
    if name == "honroutou":
        return data["honroutou_han"], data["honroutou_han"]
    if name in ("toitoi", "sanankou", "sanshoku_doukou", "sankantsu", "shousangen"):
        return 2, 2
    return 1, 1       # tanyao, the yakuhai, rinshan, chankan, haitei, houtei


def _yakuman_times(name: str, data: dict) -> int:
    """The multiple yakuman ``name`` adds (DOUBLE_BY_WAIT: 1, the wait may double it)."""
    if name == "paarenchan":
        return data["paarenchan_value"]
    if name == "shiisan_puutaa":
        return data["shiisan_puutaa_value"]
    if name in ("daisuushii", "suukantsu") and data["double_yakuman"]:
        return 2
    return 1


def _rows(data: dict) -> list:
    optional = {"isshoku_sanjun", "sanrenkou", "suurenkou", "daisharin", "paarenchan",
                "shiisan_puutaa", "ippatsu"}
    rows = []
    for name in REGULAR:
        c, o = _han(name, data)
        pts = f"{c} han" if o in (0, c) else f"{c}/{o} han"
        rows.append({"name": name, "kind": "bonus" if name in NOT_YAKU else "yaku",
                     "points": pts, "on": bool(data[name]) if name in optional else True})
    for name in YAKUMAN:
        if name == "renhou":
            rows.append({"name": name, "kind": "yaku", "points": data["renhou"],
                         "on": data["renhou"] != "none"})
            continue
        m = _yakuman_times(name, data)
        rows.append({"name": name, "kind": "bonus" if name in NOT_YAKU else "yaku",
                     "points": "yakuman" if m == 1 else f"{m}x yakuman",
                     "on": bool(data[name]) if name in optional else True})
    on = {"kazoe": data["kazoe_yakuman"], "dora": True, "ura": data["ura_dora"],
          "red": data["red_fives"]}
    for name in BONUS:
        rows.append({"name": name, "kind": "bonus",
                     "points": "yakuman" if name == "kazoe" else "1/tile", "on": bool(on[name])})
    for row in rows:
        row["unit"] = "han"
    return rows


def _win_han(rounds, data: dict):
    """(won, x, total): per record whether it is a win, the han each of YAKU added to it, and
    its han (module :func:`point_sources`)."""
    won = (rounds[:, RF_OUTCOME] == OUT_TSUMO) | (rounds[:, RF_OUTCOME] == OUT_RON)
    bits = rounds[:, RF_YAKU]
    has = (bits[:, None] >> np.arange(len(YAKU))) & 1
    yakuman = won & (rounds[:, RF_YAKUMAN] > 0)
    renhou = won & (rounds[:, RF_LIMIT] == LIMITS.index("renhou"))
    regular = won & ~yakuman & ~renhou
    n = len(REGULAR)
    closed_han = np.array([_han(y, data)[0] for y in REGULAR], np.int64)
    open_han = np.array([_han(y, data)[1] for y in REGULAR], np.int64)
    bonus = rounds[:, RF_DORA] + rounds[:, RF_URA] + rounds[:, RF_RED]
    # closed or open: the han of the yaku tell (every yaku the open hand loses han on is in
    # both sums), and a hand with a yaku only a closed hand scores is closed
    closed = (rounds[:, RF_HAN] - bonus) == has[:, :n] @ closed_han
    x = np.zeros((len(rounds), len(YAKU)), np.int64)
    x[:, :n] = has[:, :n] * np.where(closed[:, None], closed_han, open_han)
    for name, field in (("dora", RF_DORA), ("ura", RF_URA), ("red", RF_RED)):
        x[:, YAKU.index(name)] = rounds[:, field]
    x[~regular] = 0
    total = np.where(regular, rounds[:, RF_HAN], 0)
    # renhou: the han of the limit it pays
    r = YAKU.index("renhou")
    x[renhou, r] = total[renhou] = LIMIT_HAN.get(data["renhou"], 0)
    # a yakuman: 13 han a multiple, each yakuman its own multiple; the rest of the win's (the
    # wait's double, DOUBLE_BY_WAIT) to the one the wait doubled, and with yakuman_stacking off
    # the win's multiple to the largest alone
    total[yakuman] = YAKUMAN_HAN * rounds[yakuman, RF_YAKUMAN]
    first = len(REGULAR)
    times = np.array([_yakuman_times(y, data) for y in YAKUMAN], np.int64)
    doubles = [YAKUMAN.index(y) for y in DOUBLE_BY_WAIT]
    for i in np.flatnonzero(yakuman):
        held = has[i, first:first + len(YAKUMAN)] * times
        want = rounds[i, RF_YAKUMAN]
        if held.sum() < want:
            j = next((j for j in doubles if held[j]), int(np.argmax(held)))
            held[j] += want - held.sum()
        elif held.sum() > want:
            j = int(np.argmax(held))
            held[:] = 0
            held[j] = want
        x[i, first:first + len(YAKUMAN)] = YAKUMAN_HAN * held
    return won, x, total


def point_sources(idx, rounds, data: dict):
    """Every yaku, yakuman and bonus of the scorer (scoring.YAKU): the han it added to each
    game's wins, the wins it scored in, the game's wins and their han (``Family.point_sources``).

    The unit is the han, not the point: a win pays by its han and fu, capped at the limits, so
    points do not add up over yaku, han do. A win's han is the record's (its yaku, ippatsu,
    dora, ura and red fives; 13 or more for a counted yakuman, whose ``kazoe`` row adds none of
    its own); a yakuman counts 13 han a multiple, shared out by each yakuman's own multiple
    (the double a wait gives, to the yakuman it doubles; with yakuman_stacking off, the win's
    multiple to its largest yakuman alone); renhou, a flat payment, counts the han of its limit
    (mangan 5, baiman 8). Over the rows the han add up to each game's total exactly. A yaku an
    open hand scores one han less for is credited as the hand was (the record's han tell).
    ``points`` is the rule's value: closed/open han, "yakuman", renhou's limit, "1/tile"."""
    won, x, total = _win_han(rounds, data)
    bits = rounds[:, RF_YAKU]
    fired = won[:, None] & (((bits[:, None] >> np.arange(len(YAKU))) & 1) != 0)
    per_round = np.concatenate([x, fired, won[:, None], total[:, None]], axis=1)
    _, sums = per_game_sums(idx, rounds[:, RF_GAME], per_round.astype(np.int64))
    k = len(YAKU)
    return _rows(data), sums[:, :k], sums[:, k:2 * k], sums[:, 2 * k], sums[:, 2 * k + 1]


def yaku_reach(idx, rounds, data: dict):
    """Per row of :func:`point_sources`, per game the hands (a seat's hand of a deal) within
    reach of it and of those the hands that won with it, and the hands played, in the games
    that measure reach (simcore.nb.reach; 0 in the others) (``Family.yaku_reach``). The
    engine's ``reach0``/``reach1`` hold the yaku some wait of the seat's tenpai hand would
    score, as a ron or a tsumo, noted after the deal and after each discard (engine
    ``_note_reach``). Not measured: the yaku of the moment (OF_THE_MOMENT) and the bonuses
    counted by tiles or han (kazoe, dora, ura, red fives)."""
    won = (rounds[:, RF_OUTCOME] == OUT_TSUMO) | (rounds[:, RF_OUTCOME] == OUT_RON)
    seat = np.arange(N_SEATS)[None, :]
    won_bits = np.where(won[:, None] & (rounds[:, RF_WINNER, None] == seat),
                        rounds[:, RF_YAKU, None], 0)
    return reach_sums(idx, rounds[:, RF_GAME], rounds[:, RF_REACH0:RF_REACH0 + N_SEATS],
                      won_bits, N_SEATS, [None if y in OF_THE_MOMENT or y in BONUS else i
                                          for i, y in enumerate(YAKU)])

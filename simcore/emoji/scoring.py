"""Scoring of an emoji mahjong win (spec emoji.md §8): the yaku of each decomposition, their
multipliers stacked, the dealer factor, the rounding and the dora; the best decomposition counts.

One kernel, :func:`score_win`, reads the scoring rules from a float64 array ``sr`` (layout
``SR_*``, built by :func:`scoring_rules` from a scenario's ``scoring`` data or the defaults), so
the engine and ``score --game emoji`` compute a win the same way.

``supersedes`` (spec §8.2): literal stacking by default (``{}``); a map of yaku to the yaku
each supersedes drops those from any win that has both.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from .hand import (
    D_BASIC, D_FOUR_PAIRS, DECOMP_COLS, MAX_DECOMP, N_KINDS, N_NUMBER_KINDS, N_RANKS, SET_RUN,
    SET_TRIPLET, decompositions,
)

# Yaku, in the spec's table order (§8.3): bit i of a yaku mask.
YAKU = ("machibuse", "debana_machibuse", "all_runs", "tanyao", "tsumo", "four_pairs", "chanta",
        "last_tile", "half_flush", "full_flush", "tenhou", "honor_triplet", "all_triplets",
        "twin_runs", "sangen", "three_suit")
N_YAKU = len(YAKU)
(Y_MACHIBUSE, Y_DEBANA, Y_ALL_RUNS, Y_TANYAO, Y_TSUMO, Y_FOUR_PAIRS, Y_CHANTA, Y_LAST_TILE,
 Y_HALF_FLUSH, Y_FULL_FLUSH, Y_TENHOU, Y_HONOR_TRIPLET, Y_ALL_TRIPLETS, Y_TWIN_RUNS, Y_SANGEN,
 Y_THREE_SUIT) = range(N_YAKU)
DEFAULT_MULTIPLIERS = {"machibuse": 2.0, "debana_machibuse": 3.0, "all_runs": 1.5, "tanyao": 1.5,
                       "tsumo": 1.5, "four_pairs": 2.0, "chanta": 2.0, "last_tile": 3.0,
                       "half_flush": 2.0, "full_flush": 3.0, "tenhou": 10.0,
                       "honor_triplet": 2.0, "all_triplets": 2.0, "twin_runs": 5.0,
                       "sangen": 10.0, "three_suit": 10.0}
ROUNDINGS = ("half_up", "floor", "ceil")
DECOMPOSITION = ("best", "basic_first")

# The scoring rules array sr (float64): multipliers, then the values and switches.
SR_MULT = 0
SR_BASE = N_YAKU
SR_DEALER_FACTOR = SR_BASE + 1
SR_DORA_POINTS = SR_BASE + 2
SR_ROUNDING = SR_BASE + 3            # index into ROUNDINGS
SR_DECOMPOSITION = SR_BASE + 4       # index into DECOMPOSITION
SR_WRAP_RUNS = SR_BASE + 5
SR_CHANTA_FOUR_PAIRS = SR_BASE + 6
SR_HALF_NEEDS_NUMBER = SR_BASE + 7
SR_HONOR_PER_SET = SR_BASE + 8
SR_TENHOU_IS_TSUMO = SR_BASE + 9
SR_DORA_INCLUDES_WIN = SR_BASE + 10
SR_OFF_MASK = SR_BASE + 11           # bit i: yaku i is off (not counted at all)
SR_SUPERSEDES = SR_BASE + 12         # N_YAKU masks: the yaku each one supersedes (spec §8.2)
SR_LEN = SR_SUPERSEDES + N_YAKU


def multipliers_of(yaku_table) -> dict:
    """yaku -> multiplier of a scenario's ``scoring.yaku`` table (``off``: x1; the yaku is
    dropped from every win by :func:`scoring_rules`' ``off``)."""
    return {k: 1.0 if v == "off" else float(v) for k, v in yaku_table.items()}


def off_of(yaku_table) -> tuple:
    """The yaku a scenario's ``scoring.yaku`` table sets to ``off``."""
    return tuple(k for k, v in yaku_table.items() if v == "off")


def scoring_rules(multipliers=None, base=100, dealer_factor=1.5, dora_points=100,
                  rounding="half_up", decomposition="best", wrap_runs=False,
                  chanta_four_pairs=False, half_flush_needs_number=True,
                  honor_triplet_per_set=False, tenhou_is_tsumo=True,
                  dora_includes_win_tile=True, off=(), supersedes=None) -> np.ndarray:
    """The ``sr`` array of these rules (the spec's defaults unless given)."""
    mult = dict(DEFAULT_MULTIPLIERS, **(multipliers or {}))
    sr = np.zeros(SR_LEN, np.float64)
    for i, name in enumerate(YAKU):
        sr[SR_MULT + i] = mult[name]
    sr[SR_BASE], sr[SR_DEALER_FACTOR], sr[SR_DORA_POINTS] = base, dealer_factor, dora_points
    sr[SR_ROUNDING] = ROUNDINGS.index(rounding)
    sr[SR_DECOMPOSITION] = DECOMPOSITION.index(decomposition)
    sr[SR_WRAP_RUNS] = bool(wrap_runs)
    sr[SR_CHANTA_FOUR_PAIRS] = bool(chanta_four_pairs)
    sr[SR_HALF_NEEDS_NUMBER] = bool(half_flush_needs_number)
    sr[SR_HONOR_PER_SET] = bool(honor_triplet_per_set)
    sr[SR_TENHOU_IS_TSUMO] = bool(tenhou_is_tsumo)
    sr[SR_DORA_INCLUDES_WIN] = bool(dora_includes_win_tile)
    sr[SR_OFF_MASK] = sum(1 << YAKU.index(name) for name in off)
    for name, implied in (supersedes or {}).items():
        sr[SR_SUPERSEDES + YAKU.index(name)] = sum(1 << YAKU.index(y) for y in implied)
    return sr


@nb.njit(cache=True)
def apply_supersedes(mask, sr) -> np.int64:
    """The mask without the yaku that a present yaku supersedes (spec §8.2's alternative to
    literal stacking: ``supersedes: {debana_machibuse: [machibuse]}``)."""
    drop = np.int64(0)
    for i in range(N_YAKU):
        if (mask >> i) & 1:
            drop |= np.int64(sr[SR_SUPERSEDES + i])
    return mask & ~drop


@nb.njit(cache=True, inline="always")
def _is_terminal(k) -> bool:
    return k < N_NUMBER_KINDS and (k % N_RANKS == 0 or k % N_RANKS == 8)


@nb.njit(cache=True)
def _set_has_terminal(kind, first) -> bool:
    """A number set holding a 1 or a 9 (an honour triplet does not count, spec §8.3 chanta)."""
    if first >= N_NUMBER_KINDS:
        return False
    if kind == SET_TRIPLET:
        return _is_terminal(first)
    r = first % N_RANKS
    for d in range(3):
        rr = (r + d) % N_RANKS
        if rr == 0 or rr == 8:
            return True
    return False


@nb.njit(cache=True)
def tile_yaku(c, sr) -> np.int64:
    """The yaku of the 8 tiles alone: tanyao, half_flush, full_flush."""
    mask = np.int64(0)
    suits = 0
    honours = 0
    simple = True
    for k in range(N_KINDS):
        if c[k] == 0:
            continue
        if k >= N_NUMBER_KINDS:
            honours += c[k]
            simple = False
        else:
            suits |= 1 << (k // N_RANKS)
            if k % N_RANKS == 0 or k % N_RANKS == 8:
                simple = False
    if simple:
        mask |= np.int64(1) << Y_TANYAO
    one_suit = suits == 1 or suits == 2 or suits == 4
    if one_suit and honours == 0:
        mask |= np.int64(1) << Y_FULL_FLUSH
    if honours > 0 and (one_suit or (suits == 0 and sr[SR_HALF_NEEDS_NUMBER] == 0)):
        mask |= np.int64(1) << Y_HALF_FLUSH
    return mask


@nb.njit(cache=True)
def shape_yaku(d, c, sr):
    """(yaku mask, honour triplets) of one decomposition row ``d`` (hand.decompositions)."""
    mask = tile_yaku(c, sr)
    honour_triplets = 0
    if d[0] == D_FOUR_PAIRS:
        mask |= np.int64(1) << Y_FOUR_PAIRS
        if sr[SR_CHANTA_FOUR_PAIRS] != 0:
            all_t = True
            for i in range(1, 5):
                if not _is_terminal(d[i]):
                    all_t = False
            if all_t:
                mask |= np.int64(1) << Y_CHANTA
        return mask, 0
    ka, fa, kb, fb, p = d[1], d[2], d[3], d[4], d[5]
    if ka == SET_RUN and kb == SET_RUN:
        mask |= np.int64(1) << Y_ALL_RUNS
        if fa == fb:
            mask |= np.int64(1) << Y_TWIN_RUNS
    if ka == SET_TRIPLET and kb == SET_TRIPLET:
        mask |= np.int64(1) << Y_ALL_TRIPLETS
    if _set_has_terminal(ka, fa) and _set_has_terminal(kb, fb):
        mask |= np.int64(1) << Y_CHANTA
    for kind, first in ((ka, fa), (kb, fb)):
        if kind == SET_TRIPLET and first >= N_NUMBER_KINDS:
            honour_triplets += 1
    if honour_triplets > 0:
        mask |= np.int64(1) << Y_HONOR_TRIPLET
    if honour_triplets == 2 and p >= N_NUMBER_KINDS:
        mask |= np.int64(1) << Y_SANGEN
    if (ka == SET_TRIPLET and kb == SET_TRIPLET and fa < N_NUMBER_KINDS and fb < N_NUMBER_KINDS
            and p < N_NUMBER_KINDS):
        ra, rb, rp = fa % N_RANKS, fb % N_RANKS, p % N_RANKS
        sa, sb, sp = fa // N_RANKS, fb // N_RANKS, p // N_RANKS
        if ra == rb == rp and sa != sb and sp != sa and sp != sb:
            mask |= np.int64(1) << Y_THREE_SUIT
    return mask, honour_triplets


@nb.njit(cache=True)
def situation_yaku(tsumo, riichi_turn, turn, last_turn, sr, tenhou_ok=True) -> np.int64:
    """machibuse, debana_machibuse, tsumo, last_tile, tenhou of a win (spec §8.3 flags):
    ``riichi_turn`` 0 = no riichi in force; ``turn`` the turn of the win; tenhou is a tsumo in
    turn 1 (the tsumo yaku too unless ``tenhou_is_tsumo`` is off)."""
    mask = np.int64(0)
    if riichi_turn >= 1:
        mask |= np.int64(1) << Y_MACHIBUSE
        if riichi_turn == 1:
            mask |= np.int64(1) << Y_DEBANA
    tenhou = tsumo and turn == 1 and tenhou_ok
    if tenhou:
        mask |= np.int64(1) << Y_TENHOU
    if tsumo and (not tenhou or sr[SR_TENHOU_IS_TSUMO] != 0):
        mask |= np.int64(1) << Y_TSUMO
    if turn == last_turn:
        mask |= np.int64(1) << Y_LAST_TILE
    return mask


@nb.njit(cache=True)
def _round(x, how) -> float:
    if how == 1:
        return math.floor(x + 1e-9)
    if how == 2:
        return math.ceil(x - 1e-9)
    return math.floor(x + 0.5 + 1e-9)


@nb.njit(cache=True)
def product_of(mask, honour_triplets, sr) -> float:
    """The multipliers of a yaku mask stacked (spec §8.2); the honour triplet once, or per
    honour triplet under ``honor_triplet_per_set``."""
    product = 1.0
    for i in range(N_YAKU):
        if (mask >> i) & 1:
            m = sr[SR_MULT + i]
            if i == Y_HONOR_TRIPLET and sr[SR_HONOR_PER_SET] != 0:
                m = m ** honour_triplets
            product *= m
    return product


@nb.njit(cache=True)
def value_of(mask, honour_triplets, dealer, n_dora, sr):
    """(value, multiplier product) of a yaku mask (spec §8.1)."""
    product = product_of(mask, honour_triplets, sr)
    x = sr[SR_BASE] * product * (sr[SR_DEALER_FACTOR] if dealer else 1.0)
    return _round(x, int(sr[SR_ROUNDING])) + sr[SR_DORA_POINTS] * n_dora, product


@nb.njit(cache=True)
def _lower_basic(rows, i, j) -> bool:
    """On a tie of value, row i (basic) goes before row j: j is four pairs, or i's first set is
    lower (spec §6 decomposition: best)."""
    if rows[i, 0] != D_BASIC:
        return False
    if rows[j, 0] != D_BASIC:
        return True
    return (rows[i, 1], rows[i, 2]) < (rows[j, 1], rows[j, 2])


@nb.njit(cache=True)
def score_win(c, win_kind, tsumo, riichi_turn, turn, last_turn, dealer, dora_kind, sr, out,
              tenhou_ok=True):
    """Score a winning 8-tile hand ``c`` (int64[30], the win tile included). Writes the chosen
    decomposition into ``out`` (int64[DECOMP_COLS]); returns (value, product, yaku mask), value
    -1 when ``c`` is not a winning shape. ``decomposition: best`` takes the highest value (a tie:
    the first decomposition found, basic ones before four pairs, lowest sets first);
    ``basic_first`` a basic decomposition whenever one exists."""
    rows = np.zeros((MAX_DECOMP, DECOMP_COLS), np.int64)
    n = decompositions(c, sr[SR_WRAP_RUNS] != 0, rows)
    if n == 0:
        return -1.0, 0.0, np.int64(0)
    n_dora = c[dora_kind] if dora_kind >= 0 else 0     # -1: no dora (score's default)
    if dora_kind >= 0 and sr[SR_DORA_INCLUDES_WIN] == 0 and win_kind == dora_kind:
        n_dora -= 1
    situ = situation_yaku(tsumo, riichi_turn, turn, last_turn, sr, tenhou_ok)
    off = np.int64(sr[SR_OFF_MASK])
    best_v, best_p, best_m, best_i = -1.0, 0.0, np.int64(0), -1
    basic_first = sr[SR_DECOMPOSITION] == 1
    for i in range(n):
        if basic_first and rows[i, 0] == D_FOUR_PAIRS and best_i >= 0:
            continue
        m, ht = shape_yaku(rows[i], c, sr)
        m = apply_supersedes((m | situ) & ~off, sr)
        v, p = value_of(m, ht, dealer, n_dora, sr)
        if v > best_v or (v == best_v and _lower_basic(rows, i, best_i)):
            best_v, best_p, best_m, best_i = v, p, m, i
    for j in range(DECOMP_COLS):
        out[j] = rows[best_i, j]
    return best_v, best_p, best_m


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)

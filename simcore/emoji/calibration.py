"""The source's maximum as a check of a multiplier table (spec emoji.md §8.4, ``scoring.
calibration: source_max``).

The source states one worked maximum: the dealer declares riichi in turn 1 and wins by tsumo on
the last tile, x1,215, 182,630 chips with 2 dora, the pot and the deposit. With B(h) the best
shape product of winning hand h and S* the largest product of a feasible set of situation yaku,
a table must give (a) max B(h) * S* = 1215, (b) S* from {machibuse, debana, tsumo, last_tile},
(c) no hand holding a kind three times above the maximum: R(base * dealer * B(h) * S*) +
3 dora <= R(base * dealer * 1215) + 2 dora (a triplet of the dora would show 3).
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numba as nb
import numpy as np

from .hand import MAX_DECOMP, DECOMP_COLS, N_KINDS, decompositions
from .scoring import (
    SR_OFF_MASK, SR_WRAP_RUNS, Y_DEBANA, Y_LAST_TILE,
    Y_MACHIBUSE, Y_TENHOU, Y_TSUMO, _round, apply_supersedes, multipliers_of, off_of,
    product_of, scoring_rules, shape_yaku,
)

SOURCE_PRODUCT = 1215.0


@lru_cache(maxsize=2)
def winning_hands(wrap_runs: bool) -> np.ndarray:
    """int64[n, 30]: every winning 8-tile multiset within the copies (62,259; 71,148 with
    wrapping runs)."""
    runs = [(s * 9 + r, s * 9 + (r + 1) % 9, s * 9 + (r + 2) % 9) for s in range(3)
            for r in range(9 if wrap_runs else 7)]
    sets = [(k,) * 3 for k in range(N_KINDS)] + runs
    out = set()
    for a, b in itertools.combinations_with_replacement(sets, 2):
        for p in range(N_KINDS):
            c = [0] * N_KINDS
            for k in a + b + (p, p):
                c[k] += 1
            if max(c) <= 3:
                out.add(tuple(c))
    for kinds in itertools.combinations(range(N_KINDS), 4):
        c = [0] * N_KINDS
        for k in kinds:
            c[k] = 2
        out.add(tuple(c))
    return np.array(sorted(out), np.int64)


@nb.njit(cache=True)
def best_shape_products(hands, sr):
    """float64[n]: each hand's best product of shape yaku over its decompositions."""
    out = np.zeros(hands.shape[0], np.float64)
    rows = np.zeros((MAX_DECOMP, DECOMP_COLS), np.int64)
    for i in range(hands.shape[0]):
        n = decompositions(hands[i], sr[SR_WRAP_RUNS] != 0, rows)
        best = 0.0
        off = np.int64(sr[SR_OFF_MASK])
        for j in range(n):
            m, ht = shape_yaku(rows[j], hands[i], sr)
            best = max(best, product_of(apply_supersedes(m & ~off, sr), ht, sr))
        out[i] = best
    return out


def _situation_sets(tenhou_is_tsumo: bool):
    M, D, T, L, H = Y_MACHIBUSE, Y_DEBANA, Y_TSUMO, Y_LAST_TILE, Y_TENHOU
    sets = [(), (M,), (M, D), (T,), (M, T), (M, D, T), (L,), (M, L), (M, D, L), (T, L),
            (M, T, L), (M, D, T, L)]
    sets.append((H, T) if tenhou_is_tsumo else (H,))
    return sets


def source_max_problem(d: dict) -> str | None:
    """None when the table meets the source's maximum, else what it misses."""
    sc = d["scoring"]
    mult = multipliers_of(sc["yaku"])
    sr = scoring_rules(mult, wrap_runs=d["shapes"]["wrap_runs"],
                       chanta_four_pairs=sc["chanta_four_pairs"],
                       half_flush_needs_number=sc["half_flush_needs_number"],
                       honor_triplet_per_set=sc["honor_triplet_per_set"],
                       off=off_of(sc["yaku"]), supersedes=dict(sc["supersedes"]))
    return _problem(tuple(sr), sc["tenhou_is_tsumo"], float(sc["base"]),
                    float(sc["dealer_factor"]), float(sc["dora_points"]), sc["rounding"],
                    bool(d["shapes"]["wrap_runs"]))


@lru_cache(maxsize=64)
def _problem(sr_tuple, tenhou_is_tsumo, base, dealer, dora, rounding, wrap):
    sr = np.array(sr_tuple, np.float64)
    hands = winning_hands(wrap)
    b = best_shape_products(hands, sr)
    off = int(sr[SR_OFF_MASK])
    products = []
    for sset in _situation_sets(tenhou_is_tsumo):
        mask = apply_supersedes(np.int64(sum(1 << y for y in sset)) & ~off, sr)
        products.append(float(product_of(mask, 0, sr)))
    s_star = max(products)
    mdtl = products[11]
    top = float(b.max()) * s_star
    if abs(top - SOURCE_PRODUCT) > 1e-6:
        return (f"the best win is x{top:g} (shape x{b.max():g} times situation x{s_star:g}), "
                f"not the source's x1,215")
    if abs(mdtl - s_star) > 1e-9:
        return (f"the largest situation product is x{s_star:g}, not riichi in turn 1 + tsumo + "
                f"last tile's x{mdtl:g}")
    how = ("half_up", "floor", "ceil").index(rounding)
    limit = _round(base * dealer * SOURCE_PRODUCT, how) + 2 * dora
    triplet = (hands == 3).any(axis=1)
    worst = float(b[triplet].max())
    if _round(base * dealer * worst * s_star, how) + 3 * dora > limit + 1e-9:
        return (f"a hand with a triplet reaches x{worst * s_star:g}, beyond the source's "
                f"maximum once its 3 dora count")
    return None


def max_win_value(d: dict) -> float:
    """An upper bound of any win's value under scenario data ``d`` (spec §8.1: R(base x dealer
    x the stacked multipliers) + the dora, at most 3 of a kind): every multiplier counted as at
    least 1 and ``supersedes`` ignored (both can only raise a product), the best shape product
    of any winning hand times the best feasible set of situation yaku. For
    :func:`simcore.emoji.schema.worst_cases`; a quick bound (every multiplier at once) when that
    one is already small."""
    from simcore.family.scenario.bounds import at_least_one
    sc = d["scoring"]
    yaku = sc["yaku"]
    mult = {k: at_least_one(v) for k, v in multipliers_of(yaku).items()}
    off = off_of(yaku)
    scale = float(sc["base"]) * at_least_one(sc["dealer_factor"])
    dora = 3.0 * float(sc["dora_points"])
    quick = math.prod(m ** (2 if k == "honor_triplet" and sc["honor_triplet_per_set"] else 1)
                      for k, m in mult.items() if k not in off)
    if scale * quick + dora < 1e7:   # 9 such wins and the chips stay far inside 32 bits
        return math.ceil(scale * quick) + dora
    return math.ceil(scale * _max_product(tuple(sorted(mult.items())), off,
                                          bool(d["shapes"]["wrap_runs"]),
                                          bool(sc["chanta_four_pairs"]),
                                          bool(sc["half_flush_needs_number"]),
                                          bool(sc["honor_triplet_per_set"]),
                                          bool(sc["tenhou_is_tsumo"]),
                                          d["wall"]["turns"] == 1)) + dora


@lru_cache(maxsize=64)
def _max_product(mult, off, wrap, chanta_four_pairs, half_needs_number, per_set, tenhou_is_tsumo,
                 one_turn) -> float:
    sr = scoring_rules(dict(mult), wrap_runs=wrap, chanta_four_pairs=chanta_four_pairs,
                       half_flush_needs_number=half_needs_number, honor_triplet_per_set=per_set,
                       off=off)
    shape = float(best_shape_products(winning_hands(wrap), sr).max())
    sets = _situation_sets(tenhou_is_tsumo)
    if one_turn:   # wall.turns: 1: turn 1 is the last turn too
        sets.append((Y_TENHOU, Y_TSUMO, Y_LAST_TILE) if tenhou_is_tsumo else
                    (Y_TENHOU, Y_LAST_TILE))
    off_mask = int(sr[SR_OFF_MASK])
    situation = max(float(product_of(np.int64(sum(1 << y for y in s) & ~off_mask), 0, sr))
                    for s in sets)
    return shape * situation


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)

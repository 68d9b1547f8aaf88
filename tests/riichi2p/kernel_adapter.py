"""The compiled scorer's inputs from a reference ``Win`` and rule dict (tests only): what the
engine would pass for the same win (the ura it counts, the red fives it holds)."""

from __future__ import annotations

import numpy as np

from simcore.riichi2p import scoring as S
from simcore.riichi2p.reference import dora_of
from simcore.riichi2p.rules_array import build_scoring_rules
from simcore.riichi2p.tiles import CALL_TYPES, N_KINDS


def kernel_rules(rules: dict) -> np.ndarray:
    return build_scoring_rules(rules)


def kernel_score(win, rules: dict) -> np.ndarray:
    """The result row of the compiled scorer for ``win`` (R_PAY -1: no win)."""
    from simcore.riichi2p.reference import DEFAULT_RULES
    rules = {**DEFAULT_RULES, **rules}
    c = np.zeros(N_KINDS, np.int64)
    for k in list(win.concealed) + [win.win_tile]:
        c[k] += 1
    melds = np.zeros((4, 3), np.int64)
    for i, m in enumerate(win.melds):
        melds[i] = (CALL_TYPES.index(m.type), m.kind, -1 if m.called is None else m.called)
    cx = np.zeros(S.N_CX, np.int64)
    cx[S.CX_TSUMO] = win.tsumo
    cx[S.CX_RIICHI] = win.riichi
    cx[S.CX_IPPATSU] = win.ippatsu and win.riichi > 0
    cx[S.CX_RINSHAN] = win.rinshan
    cx[S.CX_CHANKAN] = win.chankan
    cx[S.CX_HAITEI] = win.haitei
    cx[S.CX_HOUTEI] = win.houtei
    cx[S.CX_FIRST] = win.first
    cx[S.CX_SHIISAN] = win.shiisan_puutaa
    cx[S.CX_DEALER] = win.dealer
    cx[S.CX_SEAT_WIND] = win.seat_wind
    cx[S.CX_ROUND_WIND] = win.round_wind
    cx[S.CX_RED] = win.red
    cx[S.CX_HONBA] = win.honba
    cx[S.CX_STREAK] = win.streak
    cx[S.CX_N_MELDS] = len(win.melds)
    dora = np.zeros(N_KINDS, np.int64)
    for i in win.dora_indicators:
        dora[dora_of(i)] += 1
    ura = np.zeros(N_KINDS, np.int64)
    if rules["ura_dora"] and (win.riichi or not rules["ura_needs_riichi"]):
        for i in (win.ura_indicators if rules["kan_ura_dora"] else win.ura_indicators[:1]):
            ura[dora_of(i)] += 1
    res = np.zeros(S.N_RES, np.int64)
    S.score_legal(c, melds, win.win_tile, cx, dora, ura, kernel_rules(rules), res)
    return res

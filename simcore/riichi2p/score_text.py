"""``score --game riichi2p``: a win in the spec's notation with its context tokens (spec
riichi2p.md §1.2: ``tsumo``/``ron``, ``riichi``/``wriichi``, ``ippatsu`` ``rinshan`` ``chankan``
``haitei`` ``houtei`` ``first``, ``seat:E|S|W``, ``round:E|S``, ``dora:…``, ``ura:…``,
``honba:N``, ``streak:N``), scored by the compiled kernel under a scenario's rules."""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from . import scoring as S
from .tiles import CALL_TYPES, N_KINDS, format_counts, parse_hand, parse_tiles, tile_str

WORDS = ("tsumo", "ron", "riichi", "wriichi", "ippatsu", "rinshan", "chankan", "haitei",
         "houtei", "first")
KEYS = ("seat", "round", "dora", "ura", "honba", "streak")
WINDS = {"E": 27, "S": 28, "W": 29, "N": 30}


def dora_of(indicator: int) -> int:
    """The kind an indicator makes dora (spec §9.3): the next in its suit, wind or dragon cycle."""
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3


def indicator_counts(indicators) -> np.ndarray:
    out = np.zeros(N_KINDS, np.int64)
    for k in indicators:
        out[dora_of(k)] += 1
    return out


def win_arrays(text: str, rules: np.ndarray, where: str = "hand") -> dict:
    """The kernel's inputs for a hand in notation: ``c``, ``melds``, ``win``, ``cx``, ``dora``,
    ``ura`` (``ura`` only on a riichi win unless the rules say otherwise is the engine's
    business: here the indicators given are counted)."""
    h = parse_hand(text, where)
    bad = [w for w in h.words if w not in WORDS]
    if bad:
        raise InputError(f"{where}: unknown word {bad[0]!r} (words: {', '.join(WORDS)}; "
                         f"keys: {', '.join(k + ':' for k in KEYS)})")
    bad = [k for k in h.values if k not in KEYS]
    if bad:
        raise InputError(f"{where}: unknown key {bad[0] + ':'!r} (keys: "
                         f"{', '.join(k + ':' for k in KEYS)})")
    if h.win is None:
        raise InputError(f"{where}: no winning tile (write it last, after '+': +5s)")
    n_concealed = len(h.concealed)
    if n_concealed + 3 * len(h.melds) != 13:
        raise InputError(f"{where}: {n_concealed} concealed tiles and {len(h.melds)} calls; "
                         f"concealed + 3 per call must be 13, plus the winning tile")
    if "tsumo" in h.words and "ron" in h.words:
        raise InputError(f"{where}: both tsumo and ron")
    c = np.zeros(N_KINDS, np.int64)
    for k in h.concealed + [h.win]:
        c[k] += 1
    melds = np.zeros((4, 3), np.int64)
    for i, m in enumerate(h.melds):
        melds[i] = (CALL_TYPES.index(m.type), m.kind, -1 if m.called is None else m.called)
    cx = np.zeros(S.N_CX, np.int64)
    cx[S.CX_TSUMO] = "tsumo" in h.words
    cx[S.CX_RIICHI] = 2 if "wriichi" in h.words else int("riichi" in h.words)
    for word, field in (("ippatsu", S.CX_IPPATSU), ("rinshan", S.CX_RINSHAN),
                        ("chankan", S.CX_CHANKAN), ("haitei", S.CX_HAITEI),
                        ("houtei", S.CX_HOUTEI), ("first", S.CX_FIRST)):
        cx[field] = word in h.words
    cx[S.CX_SHIISAN] = cx[S.CX_FIRST]
    seat = h.values.get("seat", "S")
    rnd = h.values.get("round", "E")
    if seat not in ("E", "S", "W"):
        raise InputError(f"{where}: seat:{seat} (E, S or W)")
    if rnd not in ("E", "S"):
        raise InputError(f"{where}: round:{rnd} (E or S)")
    cx[S.CX_SEAT_WIND], cx[S.CX_ROUND_WIND] = WINDS[seat], WINDS[rnd]
    cx[S.CX_DEALER] = seat == "E"
    cx[S.CX_RED] = h.red
    for key, field in (("honba", S.CX_HONBA), ("streak", S.CX_STREAK)):
        v = h.values.get(key, "0")
        if not v.isdigit():
            raise InputError(f"{where}: {key}:{v} (a whole number)")
        cx[field] = int(v)
    cx[S.CX_N_MELDS] = len(h.melds)
    dora = indicator_counts(parse_tiles(h.values.get("dora", ""), "dora:"))
    ura = indicator_counts(parse_tiles(h.values.get("ura", ""), "ura:"))
    return dict(c=c, melds=melds, win=h.win, cx=cx, dora=dora, ura=ura, hand=h)


def score_arrays(a: dict, rules: np.ndarray) -> np.ndarray:
    res = np.zeros(S.N_RES, np.int64)
    S.score_legal(a["c"], a["melds"], a["win"], a["cx"], a["dora"], a["ura"], rules, res)
    return res


def describe(res: np.ndarray, rules: np.ndarray) -> dict:
    """The names of a result row: yaku (with their han where regular), limit, wait."""
    bits = int(res[S.R_YAKU])
    names = [n for i, n in enumerate(S.YAKU) if (bits >> i) & 1]
    return {"yaku": names, "limit": S.LIMITS[int(res[S.R_LIMIT])],
            "wait": S.WAITS[int(res[S.R_WAIT])]}


def score_hand(text: str, rules: np.ndarray, honba_value: int = 300) -> dict:
    """The JSON of a win: every field of the result row, the names, and the total with honba."""
    a = win_arrays(text, rules)
    res = score_arrays(a, rules)
    h = a["hand"]
    out = {"hand": text.strip(), "win": tile_str(h.win), "tsumo": bool(a["cx"][S.CX_TSUMO]),
           "dealer": bool(a["cx"][S.CX_DEALER])}
    if res[S.R_PAY] < 0:
        c = a["c"]
        why = S.REFUSED[int(res[S.R_REFUSED])] if res[S.R_REFUSED] else \
            "no winning shape" if not _any_shape(a) else "no yaku"
        out.update(win=False, why=why, concealed=format_counts(c))
        return out
    out.update(win=True, **{name: int(res[i]) for i, name in enumerate(S.RESULT)
                            if name not in ("yaku", "limit", "wait", "shape", "atozuke_b",
                                            "refused")}, **describe(res, rules))
    out["total"] = int(res[S.R_PAY]) + int(a["cx"][S.CX_HONBA]) * honba_value
    return out


def _any_shape(a) -> bool:
    from .hand import is_complete, tables
    ts, th = tables()
    return bool(is_complete(a["c"], int(a["cx"][S.CX_N_MELDS]), ts, th))

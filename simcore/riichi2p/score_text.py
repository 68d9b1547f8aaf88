"""``score --game riichi2p``: a win in the spec's notation with its context tokens (spec
riichi2p.md §1.2: ``tsumo``/``ron``, ``riichi``/``wriichi``, ``ippatsu`` ``rinshan`` ``chankan``
``haitei`` ``houtei`` ``first``, ``seat:E|S|W``, ``round:E|S``, ``dora:…``, ``ura:…``,
``honba:N``, ``streak:N``), scored by the compiled kernel under a scenario's rules."""

from __future__ import annotations

import numpy as np

from ..errors import InputError, cut
from simcore.family.scenario.bounds import INT32_MAX
from . import scoring as S
from .schema import SCHEMA
from .tiles import (CALL_TYPES, N_KINDS, format_counts, parse_hand, parse_tile_list,
                    tile_str)

WORDS = ("tsumo", "ron", "riichi", "wriichi", "ippatsu", "rinshan", "chankan", "haitei",
         "houtei", "first")
KEYS = ("seat", "round", "dora", "ura", "honba", "streak")
WINDS = {"E": 27, "S": 28, "W": 29, "N": 30}
MAX_COUNTER = INT32_MAX        # honba and streak as the engine's records hold them (int32)
MAX_INDICATORS = 5             # the first indicator and one per kan, four kans at most (§3.3)
# the ura rules the score command reads from the scenario (spec §9.3); the schema's defaults
URA_DEFAULTS = {k: SCHEMA[k].default for k in ("ura_dora", "kan_ura_dora", "ura_needs_riichi")}


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


def check_context(h, where: str = "hand") -> dict:
    """The context tokens of a hand line (its words and ``key:value`` tokens) checked: every
    word and key known, winds and counters well formed, at most five indicators of each kind,
    and no tile more than four times counting the hand, its calls, the winning tile and the
    indicators (every one is a physical tile). Returns the indicators: ``{"dora": [kinds],
    "ura": [kinds]}``. Used by ``score`` and ``waits`` alike, so neither ignores a token."""
    bad = sorted(w for w in h.words if w not in WORDS)
    if bad:
        raise InputError(f"{where}: unknown word {cut(bad[0], 30)!r} (words: {', '.join(WORDS)}; "
                         f"keys: {', '.join(k + ':' for k in KEYS)})")
    bad = sorted(k for k in h.values if k not in KEYS)
    if bad:
        raise InputError(f"{where}: unknown key {cut(bad[0], 30) + ':'!r} (keys: "
                         f"{', '.join(k + ':' for k in KEYS)})")
    seat, rnd = h.values.get("seat", "S"), h.values.get("round", "E")
    if seat not in ("E", "S", "W"):
        raise InputError(f"{where}: seat:{cut(seat, 30)} (E, S or W)")
    if rnd not in ("E", "S"):
        raise InputError(f"{where}: round:{cut(rnd, 30)} (E or S)")
    for key in ("honba", "streak"):
        v = h.values.get(key, "0")
        # isdigit() alone passes '²' and other non-ASCII digits int() cannot read
        if not (v.isascii() and v.isdigit()) or int(v) > MAX_COUNTER:
            raise InputError(f"{where}: {key}:{cut(v, 30)} (a whole number from 0 to "
                             f"{MAX_COUNTER:,})")
    held = np.zeros(N_KINDS, np.int64)
    for k in h.concealed + ([h.win] if h.win is not None else []):
        held[k] += 1
    for m in h.melds:
        for k in m.kinds:
            held[k] += 1
    red = h.red_suits
    out = {}
    for key in ("dora", "ura"):
        if key in h.values and not h.values[key].strip():
            raise InputError(f"{where}: no tiles in '{key}:' (the indicators right after the "
                             f"colon, {key}:9s; or leave the word out)")
        tiles = parse_tile_list(h.values.get(key, ""), f"{key}:")
        if len(tiles) > MAX_INDICATORS:
            raise InputError(f"{where}: {key}: {len(tiles)} indicators (at most "
                             f"{MAX_INDICATORS}: the first and one per kan)")
        for k, r in tiles:
            held[k] += 1
            if held[k] > 4:
                raise InputError(f"{where}: {tile_str(k)} more than 4 times counting the hand "
                                 f"and the dora and ura indicators (a red five is a 5)")
            if r:
                if red & (1 << (k // 9)):
                    raise InputError(f"{where}: more than one red five of {'mps'[k // 9]} "
                                     f"counting the indicators")
                red |= 1 << (k // 9)
        out[key] = [k for k, _ in tiles]
    return out


def win_arrays(text: str, rules: np.ndarray, where: str = "hand",
               options: dict | None = None) -> dict:
    """The kernel's inputs for a hand in notation: ``c``, ``melds``, ``win``, ``cx``, ``dora``,
    ``ura``. ``options``: the scenario's ura rules (:data:`URA_DEFAULTS`, spec §9.3): the ura
    indicators given count only where they would at the table (by default only on a riichi
    win), and ``ura_ignored`` says when they were left out."""
    h = parse_hand(text, where)
    indicators = check_context(h, where)
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
    cx[S.CX_SEAT_WIND], cx[S.CX_ROUND_WIND] = WINDS[seat], WINDS[rnd]
    cx[S.CX_DEALER] = seat == "E"
    cx[S.CX_RED] = h.red
    for key, field in (("honba", S.CX_HONBA), ("streak", S.CX_STREAK)):
        cx[field] = int(h.values.get(key, "0"))
    cx[S.CX_N_MELDS] = len(h.melds)
    o = dict(URA_DEFAULTS, **{k: v for k, v in (options or {}).items() if k in URA_DEFAULTS})
    ura_kinds = indicators["ura"]
    counted = ura_kinds
    why = ""
    if not o["ura_dora"]:
        counted, why = [], "ura_dora is false"
    elif o["ura_needs_riichi"] and not cx[S.CX_RIICHI]:
        counted, why = [], "no riichi, and ura_needs_riichi is true"
    elif not o["kan_ura_dora"]:
        counted, why = ura_kinds[:1], "kan_ura_dora is false: only the first counts"
    dora = indicator_counts(indicators["dora"])
    ura = indicator_counts(counted)
    return dict(c=c, melds=melds, win=h.win, cx=cx, dora=dora, ura=ura, hand=h,
                ura_ignored=len(ura_kinds) - len(counted), ura_why=why)


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


def score_hand(text: str, rules: np.ndarray, honba_value: int = 300,
               options: dict | None = None) -> dict:
    """The JSON of a win: every field of the result row, the names, and the total with honba.
    ``options``: the scenario's ura rules (see :func:`win_arrays`; the spec's defaults if
    None)."""
    a = win_arrays(text, rules, options=options)
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
    if a["ura_ignored"]:
        out.update(ura_not_counted=a["ura_ignored"], ura_why=a["ura_why"])
    return out


def _any_shape(a) -> bool:
    from .hand import is_complete, tables
    ts, th = tables()
    return bool(is_complete(a["c"], int(a["cx"][S.CX_N_MELDS]), ts, th))

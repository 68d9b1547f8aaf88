"""``score --game emoji``: a win written in notation, its context as words or CLI options, and
the JSON of every multiplier (spec emoji.md §1 "Scoring call")."""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from .engine import next_kind
from .rules_array import from_scenario, scoring_from_scenario
from .scoring import DECOMP_COLS, YAKU, score_win
from .tiles import counts_of, format_counts, parse_tiles, tile_str

WORDS = ("tsumo", "ron", "riichi", "riichi1", "dealer", "last")


def score_hand(text: str, sc, win=None, by=None, riichi=False, dora=None, last_card=False,
               **other) -> dict:
    bad = [k for k, v in other.items() if v not in (None, False)]
    if bad:
        raise InputError(f"score: --{bad[0].replace('_', '-')} has no meaning in emoji mahjong")
    tiles, words, kv = [], set(), {}
    for token in text.split():
        if token in WORDS:
            words.add(token)
        elif ":" in token:
            key, _, value = token.partition(":")
            if key not in ("turn", "dora"):
                raise InputError(f"score: unknown context {token!r} (turn:N, dora:TILE, or the "
                                 f"words {', '.join(WORDS)})")
            kv[key] = value
        elif token.startswith("+"):
            kv["win"] = token[1:]
        else:
            tiles.append(token)
    kinds = parse_tiles(" ".join(tiles), "hand")
    win_text = kv.get("win") or win
    if len(kinds) == 7:
        if not win_text:
            raise InputError("score: 7 tiles need the winning tile (+TILE or --win TILE)")
        w = parse_tiles(win_text, "--win")
        if len(w) != 1:
            raise InputError(f"--win: one tile, got {win_text!r}")
        kinds.append(w[0])
    elif len(kinds) != 8:
        raise InputError(f"hand: {len(kinds)} tiles (7 and the winning tile, or 8)")
    win_kind = parse_tiles(win_text, "--win")[0] if win_text else kinds[-1]
    c = counts_of(kinds).astype(np.int64)
    if c.max() > 3:
        raise InputError("hand: a tile more than 3 times (there are 3 of each)")
    ra = from_scenario(sc)
    if "dora" in kv:
        dora_kind = parse_tiles(kv["dora"], "dora")[0]
    elif dora:
        dora_kind = next_kind(parse_tiles(dora, "--dora-indicator")[0], ra)
    else:
        dora_kind = -1
    tsumo = "tsumo" in words or by == "tsumo"
    turn = int(kv.get("turn", 15 if ("last" in words or last_card) else 5))
    riichi_turn = 1 if "riichi1" in words else (2 if ("riichi" in words or riichi) else 0)
    from .engine import n_turns
    last = n_turns(ra)
    out = np.zeros(DECOMP_COLS, np.int64)
    sr = scoring_from_scenario(sc)
    v, p, m = score_win(c, win_kind, tsumo, riichi_turn, turn, last, "dealer" in words,
                        dora_kind, sr, out)
    if v < 0:
        raise InputError(f"score: {format_counts(c)} is not a winning hand (2 sets and a pair, "
                         f"or four pairs)")
    n_dora = int(c[dora_kind]) if dora_kind >= 0 else 0
    mult = {YAKU[i]: float(sr[i]) for i in range(len(YAKU)) if (m >> i) & 1}
    return {"hand": format_counts(c), "win": tile_str(win_kind), "tsumo": tsumo,
            "riichi_turn": riichi_turn, "turn": turn, "dealer": "dealer" in words,
            "dora": tile_str(dora_kind) if dora_kind >= 0 else None, "yaku": mult,
            "product": float(p), "n_dora": n_dora, "value": int(v)}

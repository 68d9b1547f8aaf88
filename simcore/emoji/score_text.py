"""``score --game emoji``: a win written in notation, its context as words or CLI options, and
the JSON of every multiplier (spec emoji.md §1 "Scoring call")."""

from __future__ import annotations

import numpy as np

from ..errors import InputError, cut
from .engine import RA_WALL_INDICATOR, RA_SHAPES_REQUIRE_YAKU, RA_SCORING_TENHOU_SEATS, n_turns, next_kind
from .rules_array import from_scenario, scoring_from_scenario
from .scoring import DECOMP_COLS, YAKU, score_win
from .tiles import N_COPIES, N_KINDS, counts_of, format_counts, format_tiles, parse_tiles, \
    tile_str

WORDS = ("tsumo", "ron", "riichi", "riichi1", "dealer", "last")


def score_hand(text: str, sc, win=None, by=None, riichi=False, dora=None, last_card=False,
               **other) -> dict:
    bad = [k for k, v in other.items() if v not in (None, False)]
    if bad:
        raise InputError(f"score: --{bad[0].replace('_', '-')} has no meaning in emoji mahjong")
    tiles, words, kv = [], set(), {}
    for token in text.split():
        if token in WORDS:
            if token in words:
                raise InputError(f"score: the word {token} given twice")
            words.add(token)
        elif ":" in token:
            key, _, value = token.partition(":")
            if key not in ("turn", "dora"):
                raise InputError(f"score: unknown context {cut(token)!r} (turn:N, dora:TILE, or "
                                 f"the words {', '.join(WORDS)})")
            if key in kv:
                raise InputError(f"score: a second {key}: ({cut(token)!r}; the first is "
                                 f"{key}:{cut(kv[key])})")
            kv[key] = value
        elif token.startswith("+"):
            if "win" in kv:
                raise InputError(f"score: a second winning tile {cut(token)!r} (the first is "
                                 f"+{cut(kv['win'])})")
            kv["win"] = token[1:]
        else:
            tiles.append(token)
    if "win" in kv and win:
        raise InputError(f"score: the winning tile given twice (+{cut(kv['win'])} and --win "
                         f"{cut(win)}): give one")
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
    win_kind = _one_tile(win_text, "+TILE" if "win" in kv else "--win") if win_text \
        else kinds[-1]
    if win_kind not in kinds:
        raise InputError(f"score: the winning tile {tile_str(win_kind)} is not among the 8 "
                         f"tiles {format_tiles(kinds)}")
    c = counts_of(kinds).astype(np.int64)
    if c.max() > 3:
        raise InputError("hand: a tile more than 3 times (there are 3 of each)")
    ra = from_scenario(sc)
    if "dora" in kv and dora:
        raise InputError(f"score: the dora given twice (dora:{cut(kv['dora'])} and "
                         f"--dora-indicator {cut(dora)}): give one")
    if "dora" in kv:
        dora_kind = _one_tile(kv["dora"], "dora")
        indicator = next(k for k in range(N_KINDS) if next_kind(k, ra) == dora_kind)
        where = f"dora:{tile_str(dora_kind)} (its indicator {tile_str(indicator)})"
    elif dora:
        indicator = _one_tile(dora, "--dora-indicator")
        dora_kind = next_kind(indicator, ra)
        where = f"--dora-indicator {tile_str(indicator)}"
    else:
        dora_kind = indicator = -1
    if indicator >= 0 and ra[RA_WALL_INDICATOR] == 0 and c[indicator] >= N_COPIES:
        # indicator: removed sets the indicator tile aside: the hand cannot hold all 3 of it
        raise InputError(f"score: {where}: the hand holds all {N_COPIES} {tile_str(indicator)} "
                         f"and the indicator is set aside from the wall (wall.indicator: "
                         f"removed); there are {N_COPIES} of each tile")
    # one way to win and one riichi turn: contradictions were read silently (tsumo won)
    if {"tsumo", "ron"} <= words:
        raise InputError("score: tsumo and ron both given: a win is one of them")
    if by is not None and ({"tsumo", "ron"} - {by}) & words:
        raise InputError(f"score: --by {by} contradicts the word "
                         f"{({'tsumo', 'ron'} - {by}).pop()} in the hand")
    if {"riichi", "riichi1"} <= words:
        raise InputError("score: riichi and riichi1 both given: riichi1 is a riichi declared on "
                         "turn 1, riichi one declared later")
    tsumo = "tsumo" in words or by == "tsumo"
    # the scenario's rules as play reads them (spec §16): its last turn is wall.turns's (turn N
    # when N < 15, for the word last too), require_yaku, tenhou_seats
    last = int(n_turns(ra))
    said_last = "last" in words or last_card
    turn = _turn(kv["turn"], last) if "turn" in kv \
        else (last if said_last else (min(5, last - 1) if last >= 3 else last))
    if said_last and turn != last:
        raise InputError(f"score: turn:{turn} and the word last: the last turn is {last} "
                         f"(wall.turns)")
    riichi_turn = 1 if "riichi1" in words else (2 if ("riichi" in words or riichi) else 0)
    dealer = "dealer" in words
    tenhou_ok = int(ra[RA_SCORING_TENHOU_SEATS]) == 0 or dealer   # tenhou_seats: dealer_only
    out = np.zeros(DECOMP_COLS, np.int64)
    sr = scoring_from_scenario(sc)
    v, p, m = score_win(c, win_kind, tsumo, riichi_turn, turn, last, dealer,
                        dora_kind, sr, out, tenhou_ok)
    if v < 0:
        raise InputError(f"score: {format_counts(c)} is not a winning hand (2 sets and a pair, "
                         f"or four pairs)")
    if int(ra[RA_SHAPES_REQUIRE_YAKU]) != 0 and m == 0:
        raise InputError(f"score: {format_counts(c)} has no yaku, and shapes.require_yaku: "
                         f"true makes a completion without one no win")
    n_dora = int(c[dora_kind]) if dora_kind >= 0 else 0
    mult = {YAKU[i]: float(sr[i]) for i in range(len(YAKU)) if (m >> i) & 1}
    return {"hand": format_counts(c), "win": tile_str(win_kind), "tsumo": tsumo,
            "riichi_turn": riichi_turn, "turn": turn, "dealer": dealer,
            "dora": tile_str(dora_kind) if dora_kind >= 0 else None, "yaku": mult,
            "product": float(p), "n_dora": n_dora, "value": int(v)}


def _one_tile(text: str, where: str) -> int:
    """The one tile ``text`` names (``+TILE``, ``dora:``, ``--win``, ``--dora-indicator``)."""
    kinds = parse_tiles(text, where)
    if len(kinds) != 1:
        raise InputError(f"{where}: one tile, got {cut(text)!r} ({len(kinds)} tiles)")
    return kinds[0]


def _turn(value: str, last: int) -> int:
    """``turn:N``: a whole number of ASCII digits from 1 to the scenario's last turn."""
    if not (value.isascii() and value.isdigit()):
        raise InputError(f"score: turn:{cut(value)}: not a turn number (turn:N, N a whole number "
                         f"from 1 to {last})")
    n = int(value) if len(value) <= 6 else last + 1
    if not 1 <= n <= last:
        raise InputError(f"score: turn:{cut(value)}: out of range (turns 1 to {last} in this "
                         f"scenario)")
    return n

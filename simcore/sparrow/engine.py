"""The Sparrow mahjong round and game engine (spec sparrow.md §2-§6), whole games compiled.

A round: shuffle the 44 tiles (ids: kind x 4 + copy), deal five to each seat from the dealer,
reveal the dora indicator; each seat in turn draws (a tsumo if its six tiles win), discards, and
the others in turn order from the discarder may ron it; an empty wall is an exhaustive draw. A
game: the deal passes (or repeats) until the dealers have gone round ``match.laps`` times, or a
seat is below 0. Round r of game g draws from streams keyed by (seed, g, r): 0 shuffles, 1 + s
is seat s's. ``ra``: the rules array (:data:`simcore.sparrow.rules.SLOTS`); ``t``: the bamboo
table (:func:`simcore.sparrow.hand.tables`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from policies.sparrow import decide
from simcore.nb.events import ST_LOG, ST_N_EV, ev_shape, log  # noqa: F401
from simcore.nb.games import END_REASONS, GAME_HEAD, ROUND_HEAD, rotation_games
from simcore.nb.games import ST_DEALER as _D, ST_SEATS as _N
from simcore.nb.layout import define_fields, per_seat, state_spec
from simcore.nb.reach import measures_reach
from simcore.nb.rng import shuffle
from simcore.nb.search import search_hook, searching
from .hand import N_KINDS, best_win, distance, is_red, waits
from .layout import (DECLINE, MAX_SEATS, N_ACTIONS, OBS_DEALER, OBS_DORA, OBS_HAND, OBS_LEN,
                     OBS_OWN, OBS_PHASE, OBS_POINTS, OBS_SEAT, OBS_SEATS, OBS_UNSEEN,
                     OBS_WIN_POINTS, PHASE_DISCARD, PHASE_WIN, SLOTS, TAKE)
from .rules import MAX_ROUNDS

N_RA = SLOTS.define(globals())
N_TILES, HAND = 44, 5
define_fields(globals(), "OUT", OUTCOMES := ("tsumo", "ron", "draw"))
END_REASON_NAMES = END_REASONS
ROUND_FIELDS = (*ROUND_HEAD, "dealer", "outcome", "turns", "winners", "from_seat", "dora",
                *per_seat("value", "yaku", "points", seats=MAX_SEATS),
                # yaku bits (0-4) some wait of the seat's hand would score: _note_reach
                *per_seat("reach", seats=MAX_SEATS))
N_RF = define_fields(globals(), "RF", ROUND_FIELDS)
GAME_FIELDS = (*GAME_HEAD, *per_seat("points", seats=MAX_SEATS))
N_GF = define_fields(globals(), "GF", GAME_FIELDS)
# a win's yaku word: the yaku bits of simcore.sparrow.hand.YAKU, then reds << 8, doras << 12,
# runs << 16 (what the report needs to split its points by source)
EV_TYPES = ("round_start",  # dealer; a dora kind, b indicator tile
            "deal",         # seat; a the five tiles, 6 bits each
            "draw",         # seat; a tile
            "discard",      # seat; a tile
            "win",          # seat; a tile, b points, c from (-1: tsumo), d yaku word
            "decline",      # seat; a tile, b points, c from (-1: tsumo)
            "payment",      # payer; a receiver, b amount
            "exhaustive",   # -1; a tenpai bits
            "game_end")     # -1; a winners bits, b end reason
define_fields(globals(), "EV", EV_TYPES)
MAX_EVENTS = 128 * MAX_ROUNDS
# st: the log's two slots, the seats, the dealer, the dora kind, 1: a test stacked the wall
N_ST = define_fields(globals(), "ST", ("log", "n_ev", "n", "dealer", "dora", "stacked"))
assert (ST_LOG, ST_N_EV, ST_N, ST_DEALER) == (0, 1, _N, _D)  # noqa: F821  (simcore.nb.games)
assert RA_SCORING_DEALER_BONUS == RA_SCORING_RUN + 9  # noqa: F821

State, new_state = state_spec("State", (
    ("wall", (N_TILES,), np.int64, 0),
    ("hand", (MAX_SEATS, HAND + 1), np.int64, -1),   # tile ids; slot 5 holds the draw
    ("counts", (MAX_SEATS, N_KINDS), np.int64, 0),
    ("waits", (MAX_SEATS,), np.int64, 0),            # each 5-tile hand's winning kinds
    ("discarded", (MAX_SEATS,), np.int64, 0),        # bit k: the seat discarded kind k
    ("last", (MAX_SEATS,), np.int64, -1),            # the kind of the seat's last discard
    ("seen", (N_KINDS,), np.int64, 0),               # public: discards and the indicator
    ("points", (MAX_SEATS,), np.int64, 0),
    ("delta", (MAX_SEATS,), np.int64, 0),
    ("obs", (OBS_LEN,), np.int64, 0),
    ("mask", (N_ACTIONS,), np.bool_, False),
    ("st", (N_ST,), np.int64, 0),
    ("ev", ev_shape(MAX_EVENTS), np.int64, -1),
), __name__)


@nb.njit(cache=True)
def dora_of(k, ra) -> int:
    """The dora kind of indicator kind ``k``: itself, or the next (9s -> 1s, G -> R -> G)."""
    return k if ra[RA_WALL_DORA] == WALL_DORA_SAME else (k + 1) % 9 if k < 9 else 19 - k


_search_decision = search_hook("simcore.sparrow.search")   # the search kernel's discards


@nb.njit(cache=True, inline="always")
def _ask(s, seat, phase, value, ra, t, pol_ids, params, rngs, pos, rec, sx) -> int:
    """Seat's action: its view and legal actions, then its policy (a discard at wall position
    ``pos`` of the search kernel: its search, :mod:`simcore.nb.search`). Inlined, as
    :func:`round_from` is: the search kernel plays the round again inside a decision, and as
    calls numba would take them for a recursion."""
    o, n = s.obs, s.st[ST_N]
    for j in range(HAND + 1):
        o[OBS_HAND + j] = s.hand[seat, j]
    for k in range(N_KINDS):
        o[OBS_OWN + k] = s.counts[seat, k]
        o[OBS_UNSEEN + k] = 4 - s.counts[seat, k] - s.seen[k]
    o[OBS_PHASE], o[OBS_WIN_POINTS], o[OBS_DORA] = phase, value, s.st[ST_DORA]
    o[OBS_SEAT], o[OBS_DEALER], o[OBS_SEATS] = seat, s.st[ST_DEALER], n
    for p in range(MAX_SEATS):
        o[OBS_POINTS + p] = s.points[p]
    for a in range(N_ACTIONS):
        s.mask[a] = (a < HAND + 1) if phase == PHASE_DISCARD else a >= TAKE
    if searching(sx) and phase == PHASE_DISCARD:
        return _search_decision((s, seat, pos, ra, t, pol_ids, params, rngs, rec), sx)
    return decide(pol_ids[seat], o, s.mask, params[seat], rngs[1 + seat], t, ra)


@nb.njit(cache=True)
def _wins(s, seat, tile, frm, ra, t, pol_ids, params, rngs, rec) -> int:
    """Seat's win on ``tile`` (a ron of seat ``frm``'s discard, or -1: a tsumo, the tile in its
    hand): its points when it is a win worth ``wins.min_points`` and taken (unless
    ``wins.may_decline``, always), recorded and logged; else -1."""
    c, ron = s.counts[seat], int(frm >= 0)
    red_bamboo = ra[RA_DECK_RED_BAMBOO]
    reds = 1 if ron and is_red(tile, red_bamboo) else 0
    for j in range(HAND + 1):
        if s.hand[seat, j] >= 0 and is_red(s.hand[seat, j], red_bamboo):
            reds += 1
    c[tile >> 2] += ron
    doras = c[s.st[ST_DORA]]
    p, bits, runs = _points(s, seat, c, reds, ra)
    c[tile >> 2] -= ron
    if p < ra[RA_WINS_MIN_POINTS]:
        return -1
    if ra[RA_WINS_MAY_DECLINE] and _ask(s, seat, np.int64(PHASE_WIN), p, ra, t, pol_ids,
                                        params, rngs, np.int64(-1), rec, s) == DECLINE:
        log(s, EV_DECLINE, seat, tile, p, frm, 0)
        return -1
    word = bits | reds << 8 | doras << 12 | runs << 16   # the yaku word of EV_WIN
    rec[RF_WINNERS] |= 1 << seat
    if measures_reach(rec[RF_GAME]):
        rec[RF_REACH0 + seat] |= bits & HAND_YAKU   # a won hand was within reach of its yaku
    rec[RF_VALUE0 + seat], rec[RF_YAKU0 + seat] = p, word
    log(s, EV_WIN, seat, tile, p, frm, word)
    return p


HAND_YAKU = 0b11111   # the yaku of a hand (not the dealer's bonus): the reach bits


@nb.njit(cache=True)
def _points(s, seat, c, reds, ra):
    """best_win of the seat's six tiles (counts ``c``, ``reds`` red) in this round."""
    return best_win(c, reds, c[s.st[ST_DORA]], seat == s.st[ST_DEALER],
                    ra[RA_SCORING_SPECIALS] == SCORING_SPECIALS_ALONE,
                    ra[RA_SCORING_RUN:RA_SCORING_DEALER_BONUS + 1])


@nb.njit(cache=True)
def _note_reach(s, seat, ra, rec, keys):
    """Add to ``rec[RF_REACH0 + seat]`` the yaku some wait of the seat's 5-tile hand would score
    in a win worth ``wins.min_points``: each waiting kind's copies the seat does not hold, a red
    one and a plain one where both are left. Skipped when its tiles are those it was last noted
    for (``keys``: per seat a bitmask of tile ids)."""
    w, c, rb = s.waits[seat], s.counts[seat], ra[RA_DECK_RED_BAMBOO]
    reds, key, tried = 0, 0, 0   # tried: bit 2k + red, a copy of kind k of that colour scored
    for j in range(HAND):
        reds += is_red(s.hand[seat, j], rb)
        key |= 1 << s.hand[seat, j]
    if keys[seat] == key:   # the same tiles as when last noted (a discard of the draw)
        return
    keys[seat] = key
    for tile in range(4 * N_KINDS):
        k, red = tile >> 2, int(is_red(tile, rb))
        if (w >> k) & 1 == 0 or (key >> tile) & 1 or (tried >> (2 * k + red)) & 1:
            continue
        tried |= 1 << (2 * k + red)
        c[k] += 1
        p, b, _ = _points(s, seat, c, reds + red, ra)
        c[k] -= 1
        if p >= ra[RA_WINS_MIN_POINTS]:
            rec[RF_REACH0 + seat] |= b & HAND_YAKU


@nb.njit(cache=True)
def _pay(s, payer, receiver, amount):
    s.delta[payer] -= amount
    s.delta[receiver] += amount
    log(s, EV_PAYMENT, payer, receiver, amount, 0, 0)


@nb.njit(cache=True)
def _deal(s, ra, rng):
    n, d = s.st[ST_N], s.st[ST_DEALER]
    if s.st[ST_STACKED] == 0:
        s.wall[:] = np.arange(N_TILES)
        shuffle(rng, s.wall, N_TILES)
    s.hand[:], s.counts[:], s.seen[:], s.discarded[:], s.delta[:] = -1, 0, 0, 0, 0
    s.last[:] = -1
    ind = s.wall[HAND * n]
    s.seen[ind >> 2] += 1
    s.st[ST_DORA] = dora_of(ind >> 2, ra)
    log(s, EV_ROUND_START, d, s.st[ST_DORA], ind, 0, 0)
    for i in range(n):
        seat, packed = (d + i) % n, 0
        for j in range(HAND):
            tile = s.wall[HAND * i + j]
            s.hand[seat, j] = tile
            s.counts[seat, tile >> 2] += 1
            packed |= tile << (6 * j)
        log(s, EV_DEAL, seat, packed, 0, 0, 0)


@nb.njit(cache=True)
def play_round(ctx, params, rngs, rec) -> int:
    """One round from the shuffle to its settlement (into ``s.points``); whether the dealer
    won, and whether it was a draw (:func:`simcore.nb.games.rotation_games`). ``ctx``: ``(s,
    ra, t, pol_ids, sx)``, ``sx`` being ``s`` again or a search's scratch
    (:mod:`simcore.nb.search`). Compiled apart (the kit's match calls it through an argument):
    its search kernel's version is cached with this file, and the kit's source guard
    (:mod:`simcore.nb.cache_guard`) drops it when the search or the bots change."""
    s, ra, t, pol_ids, sx = ctx
    n, d = s.st[ST_N], s.st[ST_DEALER]
    _deal(s, ra, rngs[0])
    # reach in a sample of the games (simcore.nb.reach); per seat the tiles it was noted for
    reach, keys = measures_reach(rec[RF_GAME]), np.zeros(MAX_SEATS, np.int64)
    for p in range(n):
        s.waits[p] = waits(s.counts[p], t)   # a seat may ron before its first draw
        if reach and s.waits[p]:
            _note_reach(s, p, ra, rec, keys)
    rec[RF_DEALER], rec[RF_DORA], rec[RF_FROM_SEAT] = d, s.st[ST_DORA], -1
    out = round_from(s, ra, t, pol_ids, params, rngs, rec, reach, keys, d,
                     np.int64(HAND * n + 1), np.int64(-1), sx)
    return (rec[RF_WINNERS] >> d) & 1 | int(out == OUT_DRAW) << 1


@nb.njit(cache=True, inline="always")
def round_from(s, ra, t, pol_ids, params, rngs, rec, reach, keys, seat, start, forced, sx):
    """The round from seat ``seat``'s draw of wall position ``start`` to its settlement; with
    ``forced`` >= 0 from that seat's discard instead (the tile drawn, no tsumo taken), which is
    the slot ``forced`` (a search's candidate)."""
    n, out = s.st[ST_N], OUT_DRAW
    for pos in range(start, N_TILES):
        if forced < 0:
            tile = s.wall[pos]
            rec[RF_TURNS] += 1
            s.hand[seat, HAND] = tile
            s.counts[seat, tile >> 2] += 1
            log(s, EV_DRAW, seat, tile, 0, 0, 0)
            if distance(s.counts[seat], t) == 0:
                p = _wins(s, seat, tile, -1, ra, t, pol_ids, params, rngs, rec)
                if p >= 0:
                    how = ra[RA_SETTLEMENT_TSUMO]
                    each = p if how == SETTLEMENT_TSUMO_EACH_FULL else p // (n - 1) \
                        if how == SETTLEMENT_TSUMO_SPLIT_FLOOR else -(-p // (n - 1))
                    for off in range(1, n):
                        _pay(s, (seat + off) % n, seat, each)
                    out = OUT_TSUMO
                    break
            slot = _ask(s, seat, np.int64(PHASE_DISCARD), np.int64(0), ra, t, pol_ids, params,
                        rngs, pos, rec, sx)
        else:
            slot, forced = forced, -1
        tile = s.hand[seat, slot]
        s.hand[seat, slot], s.hand[seat, HAND] = s.hand[seat, HAND], -1
        k = tile >> 2
        s.counts[seat, k] -= 1
        s.discarded[seat] |= 1 << k
        s.last[seat] = k
        s.seen[k] += 1
        s.waits[seat] = waits(s.counts[seat], t)
        if reach and s.waits[seat]:
            _note_reach(s, seat, ra, rec, keys)
        log(s, EV_DISCARD, seat, tile, 0, 0, 0)
        f = ra[RA_WINS_FURITEN]
        for off in range(1, n):
            q = (seat + off) % n
            mine = s.waits[q] if f == WINS_FURITEN_WAITS else 1 << k if f == WINS_FURITEN_TILE \
                else 0   # the kinds whose discard by q forbids q's ron
            if (s.waits[q] >> k) & 1 == 0 or mine & s.discarded[q]:
                continue
            p = _wins(s, q, tile, seat, ra, t, pol_ids, params, rngs, rec)
            if p >= 0:
                _pay(s, seat, q, p)
                out = OUT_RON
                if ra[RA_WINS_MULTIPLE_RON] == WINS_MULTIPLE_RON_HEAD_BUMP:
                    break
        if out == OUT_RON:
            rec[RF_FROM_SEAT] = seat
            break
        seat = (seat + 1) % n
    if out == OUT_DRAW:
        tenpai = 0
        for p in range(n):
            tenpai |= int(s.waits[p] != 0) << p
        log(s, EV_EXHAUSTIVE, -1, tenpai, 0, 0, 0)
        for p in range(n * n * (ra[RA_DRAW_NOTEN_PAYMENT] > 0)):   # noten seat p // n pays p % n
            if (tenpai >> (p % n)) & ~(tenpai >> (p // n)) & 1:
                _pay(s, p // n, p % n, ra[RA_DRAW_NOTEN_PAYMENT])
    rec[RF_OUTCOME] = out
    s.points[:n] += s.delta[:n]
    rec[RF_POINTS0:RF_POINTS0 + n] = s.points[:n]
    return out


@nb.njit(cache=True, inline="always")
def play_games(game_indices, seed, s, n, ra, t, pol_ids, params, rounds_out, games_out, sx):
    """Games ``game_indices`` of ``seed``: the kit's match (:func:`simcore.nb.games.rotation_games`)
    of :func:`play_round`. ``sx``: ``s`` again, or a search's scratch (the search kernel,
    :mod:`simcore.sparrow.search`). Inlined into :func:`kernel` and the search's kernel."""
    s.st[ST_N] = n
    match = (ra[RA_START_POINTS], ra[RA_MATCH_DEALER_REPEAT], ra[RA_MATCH_LAPS],
             ra[RA_MATCH_BUST_ENDS])
    return rotation_games(play_round, (s, ra, t, pol_ids, sx), s, game_indices, seed, params,
                          match, MAX_ROUNDS, EV_GAME_END, rounds_out, games_out)


@nb.njit(cache=True)
def kernel(game_indices, seed, s, n, ra, t, pol_ids, params, rounds_out, games_out):
    """The policies' kernel: :func:`play_games`."""
    return play_games(game_indices, seed, s, n, ra, t, pol_ids, params, rounds_out, games_out, s)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)

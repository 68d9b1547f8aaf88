"""Luck of MOMOJAN's draws, measured in the engine (issue 32): the AIVAT step with a race evaluator.

Given everything before a draw (both hands, the discards, and the dead wall, which is fixed at the
deal), the next card is uniform over the stock's cards. So for any value V of the state after the
draw, ``V(card drawn) - mean of V over the stock's cards`` has expectation exactly 0 whatever the
bots do, and the sum of such terms over a game is a control variate with a known mean of 0: no
mean has to be estimated from deals (Burch et al. 2018, AIVAT; Wald's identity for the sum).

The value is a *race*: each player's outs are the stock cards that complete its hand now (its
waits) and, for the other player, the cards it may ron (furiten and the momo exemption applied).
A drawn card that completes the drawer's hand wins the round for the drawer; one the other can ron
is discarded into it (a riichi hand must discard what it draws, and almost every hand is in riichi
by the end: 97% of new_edition's rounds); any other card passes the turn with one card fewer.
:func:`race_table` gives each player's chance of winning that race, exactly, by dynamic
programming over the stock's composition. Hands that are not yet tenpai have no outs in the race,
so the luck of getting there is only seen as it arrives; the evaluator is deliberately cheap (the
waits the engine's ron check computes anyway, :func:`cached_waits`, and one pass over the stock
per draw where either side has outs).

Per round the engine accumulates four terms into ``RoundState.luck`` (float, summed over the
round's draws, the three of a three-card draw each counted) and writes them to the round record
in units of ``1 / LUCK_SCALE``:

- ``dealer``, ``other``: the race value of the dealer's (the non-dealer's) round win;
- ``tsumo``: whether the card completes the drawer's hand (the immediate tsumo chance);
- ``ron``: whether the card is one the other player may ron (the immediate deal-in chance).

What this implementation simplifies: the race ignores yaku (a riichi hand always has one), a
non-riichi drawer that would keep a dangerous card, and the exhaustive draw's settlement; each
card of a three-card draw is valued with the hand before the three, which follows a reveal and
so has no waits of its own (only the other player's outs count there). None of this can bias
anything: the terms have mean 0 for any value function; a worse evaluator only removes less
variance. (The round record rounds each term's sum to 2^-24 and the harness each game's control
to 1/4096: a rounding far below any interval.)
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .cards import MOMO_KIND_SET
from simcore.nb.bits import lowest_bit_index
from .hand import is_furiten, waits

LUCK_SCALE = 1 << 24   # round records hold luck terms as integers in units of 1 / LUCK_SCALE
# Luck components of a round (RoundState.luck, the round record's luck_* fields): LK_DEALER, ...
LUCK_NAMES = ("dealer", "other", "tsumo", "ron")
LK_DEALER, LK_OTHER, LK_TSUMO, LK_RON = range(len(LUCK_NAMES))
N_LUCK = len(LUCK_NAMES)

RACE_OUTS = 20     # outs counted per side in the race table (more are counted as this many)
RACE_SHARED = 8    # outs that complete both hands
RACE_STOCK = 65    # stock sizes 0 .. 64 (engine.MAX_WALL)
U1 = np.uint64(1)


@nb.njit(cache=True)
def _fill_race(t):
    """``t[a, b, c, n, 0]``: the chance that the player to draw wins a race over a stock of n
    cards of which a complete only its hand, b only the other's (a deal-in), c both;
    ``t[..., 1]``: the other's chance. The rest is the chance that the stock runs out."""
    for n in range(1, RACE_STOCK):
        for a in range(RACE_OUTS):
            for b in range(RACE_OUTS):
                for c in range(RACE_SHARED):
                    if a + b + c > n:
                        continue
                    rest = (n - a - b - c) / n
                    mine, theirs = (a + c) / n, b / n
                    if rest > 0:   # a neutral card: the other draws next from n - 1
                        mine += rest * t[b, a, c, n - 1, 1]
                        theirs += rest * t[b, a, c, n - 1, 0]
                    t[a, b, c, n, 0] = mine
                    t[a, b, c, n, 1] = theirs


_RACE = []


def race_table() -> np.ndarray:
    """float64[RACE_OUTS, RACE_OUTS, RACE_SHARED, RACE_STOCK, 2] (built once per process, 3 MB:
    it depends on no rule)."""
    if not _RACE:
        t = np.zeros((RACE_OUTS, RACE_OUTS, RACE_SHARED, RACE_STOCK, 2))
        _fill_race(t)
        _RACE.append(t)
    return _RACE[0]


@nb.njit(cache=True, inline="always")
def ron_kinds(wait_set, discard_set, momo_exempt, other_furiten, furiten_enabled):
    """Kind set of the cards a player with these waits may ron: hand.can_ron_on for every wait
    at once (furiten bars them all, except momo cards where momo is exempt)."""
    wait_set = np.uint64(wait_set)
    if not furiten_enabled:
        return wait_set
    if not other_furiten and not is_furiten(wait_set, discard_set, momo_exempt):
        return wait_set
    return wait_set & np.uint64(MOMO_KIND_SET) if momo_exempt else np.uint64(0)


@nb.njit(cache=True, inline="always")
def draw_luck(wall, pos0, pos, end, cnt, mine, theirs, race, drawer_is_dealer, luck):
    """Add the luck of drawing ``wall[pos]`` from the stock ``wall[pos:end]`` to ``luck``.

    Parameters
    ----------
    wall : int64[>= end]
        The round's wall; ``wall[pos]`` is the card about to be drawn.
    pos0, pos, end : int
        The stock is ``wall[pos0:end]`` (``cnt`` counts it); the draw is from ``wall[pos:end]``
        (``pos0 <= pos < end``: the second and third cards of a draw of three).
    cnt : int64[N_KINDS]
        Copies of each kind in ``wall[pos0:end]``.
    mine : uint64
        Kind set of the cards that complete the drawer's hand (its waits; 0 if not tenpai).
    theirs : uint64
        Kind set of the cards the other player may ron (:func:`ron_kinds`).
    race : float64[...]
        :func:`race_table`.
    drawer_is_dealer : bool
    luck : float64[N_LUCK]
        Added to in place (``LK_*``).
    """
    if mine == 0 and theirs == 0:
        return      # no outs on either side: every card is worth the same (nothing to add)
    n = end - pos
    # the stock's cards among my outs (a: only mine, c: both) and theirs (b: only theirs)
    a = b = c = np.int64(0)
    rest = mine | theirs
    while rest:
        low = rest & (~rest + U1)
        rest ^= low
        copies = cnt[lowest_bit_index(low)]
        if mine & low and theirs & low:
            c += copies
        elif mine & low:
            a += copies
        else:
            b += copies
    for p in range(pos0, pos):   # cards of the stock drawn before wall[pos]
        k = np.uint64(wall[p])
        in_mine, in_theirs = (mine >> k) & U1, (theirs >> k) & U1
        if in_mine and in_theirs:
            c -= 1
        elif in_mine:
            a -= 1
        elif in_theirs:
            b -= 1
    # a neutral card: the other draws next from n - 1 cards, the outs unchanged
    neutral_mine = neutral_theirs = 0.0
    if n - a - b - c > 0:
        ai, bi, ci = min(a, RACE_OUTS - 1), min(b, RACE_OUTS - 1), min(c, RACE_SHARED - 1)
        neutral_theirs = race[bi, ai, ci, n - 1, 0]
        neutral_mine = race[bi, ai, ci, n - 1, 1]
    p_mine, p_theirs, p_neutral = (a + c) / n, b / n, (n - a - b - c) / n
    mean_mine = p_mine + p_neutral * neutral_mine
    mean_theirs = p_theirs + p_neutral * neutral_theirs
    k = np.uint64(wall[pos])
    tsumo = (mine >> k) & U1 != 0
    ron = not tsumo and (theirs >> k) & U1 != 0
    v_mine = 1.0 if tsumo else 0.0 if ron else neutral_mine
    v_theirs = 0.0 if tsumo else 1.0 if ron else neutral_theirs
    d_mine, d_theirs = v_mine - mean_mine, v_theirs - mean_theirs
    if drawer_is_dealer:
        luck[LK_DEALER] += d_mine
        luck[LK_OTHER] += d_theirs
    else:
        luck[LK_DEALER] += d_theirs
        luck[LK_OTHER] += d_mine
    luck[LK_TSUMO] += (1.0 if tsumo else 0.0) - p_mine
    luck[LK_RON] += (1.0 if ron else 0.0) - p_theirs


@nb.njit(cache=True, inline="always")
def cached_waits(hands, rev_mask, n_rev, s, core, cache):
    """waits of seat s's hand, from ``cache`` (uint64[2, 3]: per seat the hand, the revealed
    mask and their waits) while the hand and revealed sets are those it was computed for. The
    engine's ron check asks for the same hands, so the luck costs no waits of its own."""
    if cache[s, 0] != hands[s] or cache[s, 1] != rev_mask[s] or cache[s, 0] == 0:
        cache[s, 0], cache[s, 1] = hands[s], rev_mask[s]
        cache[s, 2] = waits(hands[s], rev_mask[s], n_rev[s], core)
    return cache[s, 2]


@nb.njit(cache=True, inline="always")
def seat_luck(wall, pos0, pos, end, cnt, hands, rev_mask, n_rev, disc_set, riichi_furiten, seat,
              dealer, momo_exempt, furiten_enabled, core, race, luck, cache):
    """:func:`draw_luck` for seat ``seat`` drawing ``wall[pos]`` (stock ``wall[pos0:end]``,
    counted in ``cnt``): both players' waits from the hands as they stand (hand masks, revealed
    masks and counts, discard kind sets, int64[2] riichi furiten flags; ``cache`` as in
    :func:`cached_waits`, cleared each round)."""
    o = 1 - seat
    mine = cached_waits(hands, rev_mask, n_rev, seat, core, cache)
    w_other = cached_waits(hands, rev_mask, n_rev, o, core, cache)
    theirs = ron_kinds(w_other, disc_set[o], momo_exempt, riichi_furiten[o] != 0,
                       furiten_enabled) if w_other else np.uint64(0)
    draw_luck(wall, pos0, pos, end, cnt, mine, theirs, race, seat == dealer, luck)


# ---------------------------------------------------------------------------------------------
# Per-game controls (what the harness regresses on; simcore.stats.luck)
# ---------------------------------------------------------------------------------------------

# Each is a sum over the game's rounds of a round's luck terms times a weight known before the
# round's first draw (who deals, who dealt first, the score gap), so each keeps mean 0.
GAME_CONTROLS = (
    "first_dealer",        # the first dealer's race luck: dealer's minus other's, signed
    "first_dealer_close",  # the same, weighted by how close the game is (exp(-(gap / 32)^2))
    "seat0",               # seat 0's race luck
    "dealer",              # the dealer's race luck minus the other's
    "tsumo",               # immediate tsumo chances drawn
    "ron",                 # immediate deal-in chances drawn
)
CLOSE_GAP = 32.0   # points: a lead of this many makes a round count e^-1 as much


def game_controls(idx, games, rounds, gf_first_dealer: int, rf: dict) -> np.ndarray:
    """float64[n, len(GAME_CONTROLS)] from a batch's records (games in ``idx`` order, rounds in
    game order); ``rf`` maps "game", "dealer", "gap_before", "luck_dealer", ... to round
    record columns."""
    n = len(idx)
    out = np.zeros((n, len(GAME_CONTROLS)))
    if len(rounds) == 0:
        return out
    g = np.searchsorted(np.asarray(idx), rounds[:, rf["game"]])
    fd = games[g, gf_first_dealer]
    dealer = rounds[:, rf["dealer"]]
    race = (rounds[:, rf["luck_dealer"]] - rounds[:, rf["luck_other"]]) / LUCK_SCALE
    fd_sign = np.where(dealer == fd, 1.0, -1.0)
    gap_fd = rounds[:, rf["gap_before"]] * np.where(fd == 0, 1.0, -1.0)
    terms = (fd_sign * race, fd_sign * race * np.exp(-(gap_fd / CLOSE_GAP) ** 2),
             np.where(dealer == 0, 1.0, -1.0) * race, race,
             rounds[:, rf["luck_tsumo"]] / LUCK_SCALE, rounds[:, rf["luck_ron"]] / LUCK_SCALE)
    for i, t in enumerate(terms):
        out[:, i] = np.bincount(g, weights=t, minlength=n)
    return out


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)

"""The win rule's waits by card (spec §2 Tenpai): the shape kernels work on ranks, and the one
place a card's suit decides whether it completes a hand is a one-colour paaren. The engine
(tenpai, furiten, the noten settlement) and the bots (which card a wait is) share these."""

from __future__ import annotations

import numba as nb
import numpy as np

from . import rules_array as R
from . import scoring as S
from .cards import N_RANKS
from .hand import HR_PAAREN, win_mask
from .layout import N_CARDS


@nb.njit(cache=True, inline="always")
def _colour_of(c, mode):
    return c % 4 if mode == R.ONE_COLOUR_SUIT else S.SUIT_COLOUR[c % 4]


@nb.njit(cache=True)
def _paaren_only(cards, n, skip, cnt, k, wm, hr, ra, suitless):
    """The waits of a 7 - 3k-card hand that only a one-colour paaren completes, and its colour.

    The shape kernels work on ranks (``wm`` = :func:`simcore.ptrump.hand.win_mask`); the one
    place a card's suit decides whether it completes a hand is paaren under ``paaren_one_colour``
    with ``one_colour: suit`` or ``red_black`` (a mixed-colour 1-8 is no win at all, §8), and the
    spec's waits, tenpai, furiten and noten settlement follow the win rule (§2). A hand of seven
    single cards completes as paaren only on a rank it lacks (a rank it holds makes a pair, never
    a paaren), and those ranks complete no other shape (eight singles have no head). The hand is
    ``cards[:n]`` less one copy of card ``skip`` (-1: none), rank counts ``cnt``; ``suitless``:
    some card was written without a suit (text input), so it is never one colour.

    Returns (rank mask, colour): the paaren-only waits (0: none) and the colour of the cards that
    complete them (``_colour_of``), -1 when the hand is mixed (no card completes them)."""
    mode = ra[R.RA_CARDS_ONE_COLOUR]
    if (wm == 0 or k != 0 or hr[HR_PAAREN] == 0 or ra[R.RA_SCORING_YAKUMAN_PAAREN_ONE_COLOUR] == 0
            or (mode != R.ONE_COLOUR_SUIT and mode != R.ONE_COLOUR_RED_BLACK)):
        return np.int64(0), -1
    present = np.int64(0)
    for r in range(N_RANKS):
        if cnt[r] > 1:
            return np.int64(0), -1    # a pair: no paaren wait
        if cnt[r] == 1:
            present |= np.int64(1) << r
    lacking = wm & ~present
    if lacking == 0 or suitless:
        return lacking, -1
    colour = -1
    skipped = False
    for i in range(n):
        c = cards[i]
        if c == skip and not skipped:
            skipped = True
            continue
        col = _colour_of(c, mode)
        if colour < 0:
            colour = col
        elif col != colour:
            return lacking, -1
    return lacking, colour


@nb.njit(cache=True)
def win_cards(cards, n, skip, cnt, k, hr, ra, suitless=False):
    """Card-id mask (int64, bit c) of the cards that complete the hand of
    :func:`_paaren_only`'s arguments under the win rule (spec §2 Tenpai)."""
    wm = win_mask(cnt, k, hr)
    only, colour = _paaren_only(cards, n, skip, cnt, k, wm, hr, ra, suitless)
    mode = ra[R.RA_CARDS_ONE_COLOUR]
    out = np.int64(0)
    for c in range(N_CARDS):
        r = c // 4
        if (wm >> r) & 1 and (not (only >> r) & 1 or _colour_of(c, mode) == colour):
            out |= np.int64(1) << c
    return out


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)

"""Scripted emoji rounds for engine tests (tests/emoji/): a stacked wall and one round played
from it by scripted seats, written once."""

from __future__ import annotations

import numpy as np

from policies.emoji import SCRIPTED
from simcore.emoji import engine as E
from simcore.emoji import hand as H
from simcore.emoji import scoring as S
from simcore.emoji.rules_array import build_rules_array
from simcore.emoji.tiles import N_KINDS, parse_tiles


def stack_wall(hands, indicator, draws, tail=None):
    """A wall dealing ``hands`` (seat -> tiles; the dealer is seat 0, so seat i gets wall[7i..]),
    the indicator at wall[28], ``draws`` (turn -> [tile of seat 0..3], None: any) and ``tail``
    (position -> tile); the rest of the 90 tiles fill the other places in kind order."""
    wall = [None] * 90
    for seat, text in hands.items():
        for j, k in enumerate(parse_tiles(text)):
            wall[7 * seat + j] = k
    wall[28] = parse_tiles(indicator)[0]
    for turn, tiles in draws.items():
        for i, text in enumerate(tiles):
            if text is not None:
                wall[29 + 4 * (turn - 1) + i] = parse_tiles(text)[0]
    for pos, text in (tail or {}).items():
        wall[pos] = parse_tiles(text)[0]
    left = np.repeat(np.arange(N_KINDS), 3).tolist()
    for k in wall:
        if k is not None:
            left.remove(k)
    rest = iter(left)
    return np.array([k if k is not None else next(rest) for k in wall], np.int64)


def play_scripted_round(wall, scripts=None, ra=None, chips=5000, log=False):
    """One round (dealer seat 0, the ante of 20 paid, pot 80) from ``wall`` with scripted seats
    (actions per seat, every turn; -2: the drawn tile; past the row baseline plays); ``chips``:
    each seat's before the ante (one number or four). Returns (the chip deltas, the record,
    the events: empty unless ``log``)."""
    ra = build_rules_array() if ra is None else ra
    s = E.new_state(log)
    s.st[E.ST_LOG] = 1 if log else 0
    s.wall[:] = wall
    s.st[E.ST_DEALER] = 0
    chips = np.broadcast_to(np.asarray(chips, np.int64), (4,))
    s.chips[:] = chips - 20
    s.st[E.ST_POT] = 80
    ids = np.full(4, SCRIPTED, np.int64)
    params = np.full((4, 1 + 16), -2.0)
    params[:, 0] = 0
    for seat, actions in (scripts or {}).items():
        params[seat, 1:1 + len(actions)] = actions
    rec = np.zeros(E.N_RF, np.int64)
    E.play_round(s, ra, S.scoring_rules(), H.tables(False), ids, params,
                 np.zeros((5, 4), np.uint64), True, rec, s)
    return s.chips - chips, rec, s.ev[:s.st[E.ST_N_EV]].copy()

"""Stacked emoji walls for scripted engine tests (tests/emoji/): one builder, written once."""

from __future__ import annotations

import numpy as np

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

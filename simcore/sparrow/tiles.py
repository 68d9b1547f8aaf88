"""Sparrow tile notation (spec sparrow.md §1): ``1s``..``9s``, ``G``, ``R``, a red bamboo copy
``5*s``, compact groups (``234s``, ``45*6s``, ``GGG``)."""

from __future__ import annotations

import re

from simcore.errors import InputError

_TOKEN = re.compile(r"((?:[1-9]\*?)+s|[GR]+)")


def kind_str(k: int) -> str:
    return f"{k + 1}s" if k < 9 else "GR"[k - 9]


def tile_str(tile: int, red_bamboo: int) -> str:
    k = tile >> 2
    return f"{k + 1}*s" if k < 9 and (tile & 3) < red_bamboo else kind_str(k)


def parse_tiles(text: str, red_bamboo: int, what: str = "hand") -> list[int]:
    """Tile ids of ``text`` (a red copy gets a red id, a plain one a plain id); an
    :class:`InputError` names the token."""
    tiles, used = [], [0] * 11
    red_used = [0] * 11
    for token in text.split():
        if _TOKEN.fullmatch(token) is None:
            raise InputError(f"{what}: bad tile token {token!r} (tiles are 1s..9s, G, R; a red "
                             f"bamboo copy is 5*s)")
        items = [(int(m[0]) - 1, m.endswith("*")) for m in re.findall(r"[1-9]\*?", token)] \
            if token.endswith("s") else [(9 if ch == "G" else 10, ch == "R") for ch in token]
        for k, red in items:
            if red and k < 9 and red_used[k] >= red_bamboo:
                raise InputError(f"{what}: {token!r}: more red {k + 1}s than the deck has "
                                 f"({red_bamboo}: deck.red_bamboo)")
            plain = k == 10 or not red
            if used[k] >= 4 or (plain and k < 9 and used[k] - red_used[k] >= 4 - red_bamboo):
                raise InputError(f"{what}: {token!r}: more {kind_str(k)} than the deck has")
            copy = (3 - (used[k] - red_used[k])) if plain and k < 9 else \
                red_used[k] if k < 9 else used[k]
            red_used[k] += red and k < 9
            used[k] += 1
            tiles.append(4 * k + copy)
    return tiles

"""Sparrow tile notation (spec sparrow.md §1): ``1s``..``9s``, ``G``, ``R``, a red bamboo copy
``5*s``, compact groups (``234s``, ``45*6s``, ``GGG``)."""

from __future__ import annotations

import re

from simcore.errors import InputError
from .hand import is_red

_TOKEN = re.compile(r"((?:[1-9]\*?)+s|[GR]+)")


def kind_str(k: int) -> str:
    return f"{k + 1}s" if k < 9 else "GR"[k - 9]


def tile_str(tile: int, red_bamboo: int) -> str:
    k = tile >> 2
    return f"{k + 1}*s" if k < 9 and is_red(tile, red_bamboo) else kind_str(k)


def parse_tiles(text: str, red_bamboo: int, what: str = "hand") -> list[int]:
    """Tile ids of ``text`` (a red copy gets a red id, a plain one a plain id); an
    :class:`InputError` names the token."""
    pools = {}   # (kind, red) -> the ids left
    for t in range(44):
        pools.setdefault((t >> 2, bool(is_red(t, red_bamboo))), []).append(t)
    tiles = []
    for token in text.split():
        if _TOKEN.fullmatch(token) is None:
            raise InputError(f"{what}: bad tile token {token!r} (tiles are 1s..9s, G, R; a red "
                             f"bamboo copy is 5*s)")
        for m in re.findall(r"[1-9]\*?|[GR]", token):
            k = int(m[0]) - 1 if m[0].isdigit() else 9 + (m == "R")
            pool = pools.get((k, m == "R" or m.endswith("*")))
            if not pool:
                raise InputError(f"{what}: {token!r}: more {'red ' * m.endswith('*')}"
                                 f"{kind_str(k)} than the deck has (deck.red_bamboo: {red_bamboo})")
            tiles.append(pool.pop())
    return tiles

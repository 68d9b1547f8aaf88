"""Tile kinds and the notation of emoji mahjong (spec emoji.md §1).

Kinds (int, 0..29): number tiles ``suit * 9 + rank - 1`` with suits kusa ``k`` 🌿 (0), minori ``m``
🍓 (1), hoshi ``h`` ⭐ (2); honours cat 27 🐱, fish 28 🐟, bird 29 🐦 (``1z 2z 3z``). Three copies of
each: 90 tiles. Copies are indistinguishable, so a hand is a count vector (int8[30]); a physical
tile id ``kind * 3 + copy`` exists only for the wall.

Compact notation (canonical): digits followed by a suit letter, ``234k 55m 111z``; spaces separate
groups and are otherwise ignored. Emoji are read too: ``🌿2🌿3🌿4 🐱🐱`` (a suit emoji followed by
its rank, an honour emoji alone). A bad token is named in the error.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import InputError

N_KINDS = 30
N_COPIES = 3
N_TILES = N_KINDS * N_COPIES
N_SUITS = 3
N_RANKS = 9
N_NUMBER_KINDS = N_SUITS * N_RANKS      # 27
CAT, FISH, BIRD = 27, 28, 29
SUIT_LETTERS = "kmh"
HONOUR_LETTER = "z"
SUIT_EMOJI = ("🌿", "🍓", "⭐")
HONOUR_EMOJI = ("🐱", "🐟", "🐦")
HONOUR_NAMES = ("cat", "fish", "bird")


class TileError(InputError):
    """Notation that cannot be read; the one-line message names the offending token."""


def suit_of(k: int) -> int:
    """0..2 for a number tile, -1 for an honour."""
    return k // N_RANKS if k < N_NUMBER_KINDS else -1


def rank_of(k: int) -> int:
    """1..9 for a number tile, 0 for an honour."""
    return k % N_RANKS + 1 if k < N_NUMBER_KINDS else 0


def kind_of(rank: int, letter: str) -> int:
    if letter == HONOUR_LETTER:
        return N_NUMBER_KINDS + rank - 1
    return SUIT_LETTERS.index(letter) * N_RANKS + rank - 1


def tile_str(k: int) -> str:
    """``5m``, ``2z``."""
    if k >= N_NUMBER_KINDS:
        return f"{k - N_NUMBER_KINDS + 1}{HONOUR_LETTER}"
    return f"{rank_of(k)}{SUIT_LETTERS[suit_of(k)]}"


def tile_emoji(k: int) -> str:
    if k >= N_NUMBER_KINDS:
        return HONOUR_EMOJI[k - N_NUMBER_KINDS]
    return f"{SUIT_EMOJI[suit_of(k)]}{rank_of(k)}"


def format_tiles(kinds, emoji: bool = False) -> str:
    """Canonical compact notation of ``kinds`` (a list of kinds, in any order), grouped by suit in
    the order k, m, h, z: ``[0, 1, 2, 27]`` -> ``123k 1z``; ``emoji``: ``🌿1🌿2🌿3 🐱``."""
    kinds = sorted(int(k) for k in kinds)
    if emoji:
        return " ".join(tile_emoji(k) for k in kinds)
    groups = []
    for letter in SUIT_LETTERS + HONOUR_LETTER:
        digits = "".join(tile_str(k)[0] for k in kinds if tile_str(k)[1] == letter)
        if digits:
            groups.append(digits + letter)
    return " ".join(groups)


def format_counts(counts, emoji: bool = False) -> str:
    return format_tiles([k for k in range(N_KINDS) for _ in range(int(counts[k]))], emoji)


_EMOJI_TOKEN = re.compile("|".join(map(re.escape, SUIT_EMOJI + HONOUR_EMOJI)) + "|\ufe0f")


def _parse_emoji(text: str, where: str) -> list:
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in " \t" or ch == "\ufe0f":
            i += 1
            continue
        if ch in SUIT_EMOJI:
            j = i + 1
            while j < len(text) and text[j] == "\ufe0f":
                j += 1
            if j >= len(text) or text[j] not in "123456789":
                raise TileError(f"{where}: {ch!s} needs a rank 1-9 after it "
                                f"(at {text[i:i + 3]!r})")
            out.append(SUIT_EMOJI.index(ch) * N_RANKS + int(text[j]) - 1)
            i = j + 1
        elif ch in HONOUR_EMOJI:
            out.append(N_NUMBER_KINDS + HONOUR_EMOJI.index(ch))
            i += 1
        else:
            raise TileError(f"{where}: unknown tile {text[i:i + 3]!r}")
    return out


def parse_tiles(text: str, where: str = "tiles") -> list:
    """The kinds written in ``text`` (compact or emoji notation), in the order written. Errors
    name the bad token: an unknown letter, a rank outside 1-9 (1-3 for ``z``), digits with no
    suit letter, a kind more than 3 times."""
    if not isinstance(text, str) or not text.strip():
        raise TileError(f"{where}: no tiles given")
    if _EMOJI_TOKEN.search(text):
        kinds = _parse_emoji(text, where)
    else:
        kinds = []
        for token in text.split():
            if not re.fullmatch(r"([0-9]+[a-zA-Z])+", token):   # ASCII digits only
                raise TileError(f"{where}: cannot read {token!r} (digits then a suit letter k, m, "
                                f"h or z, e.g. 234k 55m 111z)")
            for digits, letter in re.findall(r"([0-9]+)([a-zA-Z])", token):
                if letter not in SUIT_LETTERS + HONOUR_LETTER:
                    raise TileError(f"{where}: {token!r}: unknown suit letter {letter!r} (k, m, h "
                                    f"or z)")
                top = 3 if letter == HONOUR_LETTER else 9
                for d in digits:
                    if not 1 <= int(d) <= top:
                        raise TileError(f"{where}: {token!r}: no tile {d}{letter} (ranks 1-{top}"
                                        f"{' for honours: 1z cat, 2z fish, 3z bird' if top == 3 else ''})")
                    kinds.append(kind_of(int(d), letter))
    counts = np.bincount(kinds, minlength=N_KINDS)
    over = [k for k in range(N_KINDS) if counts[k] > N_COPIES]
    if over:
        raise TileError(f"{where}: {tile_str(over[0])} appears {counts[over[0]]} times (there are "
                        f"3 of each tile)")
    return kinds


def counts_of(kinds) -> np.ndarray:
    """int8[30] count vector of a list of kinds."""
    return np.bincount(np.asarray(kinds, np.int64), minlength=N_KINDS).astype(np.int8)


def parse_hand(text: str, size: int, where: str = "hand") -> np.ndarray:
    """The count vector of a hand of exactly ``size`` tiles (7 between turns, 8 complete)."""
    kinds = parse_tiles(text, where)
    if len(kinds) != size:
        raise TileError(f"{where}: {len(kinds)} tiles, expected {size} ({text.strip()!r})")
    return counts_of(kinds)

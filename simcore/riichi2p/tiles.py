"""Tiles and notation of two-player riichi mahjong (spec riichi2p.md §1).

Kinds 0..33: ``0-8`` = 1m..9m, ``9-17`` = 1p..9p, ``18-26`` = 1s..9s, ``27-33`` = East South West
North, haku (P), hatsu (F), chun (C). Four copies of each: 136 tiles; a physical tile id is
``kind * 4 + copy``, and copy 0 of each five is the red five when red fives are on (the 136-index
convention of the ``mahjong`` package: 16, 52, 88).

Notation: digits and a suit letter (``234m 55z``; ``0m 0p 0s`` a red five); calls ``chi:``,
``pon:``, ``minkan:``, ``kakan:``, ``ankan:`` with an apostrophe after the called tile
(``chi:1'23s``, ``pon:55'5z``); the winning tile after ``+``. A bad token is named in the error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError, cut

N_KINDS = 34
N_TILES = 136
N_NUMBER_KINDS = 27
EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)
SUITS = "mps"
HONOUR_NAMES = ("East", "South", "West", "North", "haku", "hatsu", "chun")
RED_TILE_IDS = (16, 52, 88)     # copy 0 of 5m, 5p, 5s
CALL_TYPES = ("chi", "pon", "minkan", "kakan", "ankan")
MELD_CHI, MELD_PON, MELD_MINKAN, MELD_KAKAN, MELD_ANKAN = range(5)


class TileError(InputError):
    """Notation that cannot be read; the one-line message names the offending token."""


def is_honour(k: int) -> bool:
    return k >= N_NUMBER_KINDS


def is_yaochu(k: int) -> bool:
    return k >= N_NUMBER_KINDS or k % 9 in (0, 8)


def tile_str(k: int, red: bool = False) -> str:
    """``5m``, ``0p`` (a red five), ``7z``."""
    if k >= N_NUMBER_KINDS:
        return f"{k - N_NUMBER_KINDS + 1}z"
    return f"{0 if red else k % 9 + 1}{SUITS[k // 9]}"


def format_kinds(kinds, reds: int = 0) -> str:
    """Compact notation of a multiset of kinds, grouped m p s z; ``reds``: bit s = one of the
    suit's fives is red (shown as ``0``)."""
    kinds = sorted(int(k) for k in kinds)
    groups = []
    for s, letter in enumerate(SUITS + "z"):
        ks = [k for k in kinds if (k // 9 if k < N_NUMBER_KINDS else 3) == s]
        digits = [tile_str(k)[0] for k in ks]
        if s < 3 and (reds >> s) & 1 and "5" in digits:
            digits[digits.index("5")] = "0"
        if digits:
            groups.append("".join(digits) + letter)
    return " ".join(groups)


def format_counts(c, reds: int = 0) -> str:
    return format_kinds([k for k in range(N_KINDS) for _ in range(int(c[k]))], reds)


def counts_of(kinds) -> np.ndarray:
    c = np.zeros(N_KINDS, np.int64)
    for k in kinds:
        c[k] += 1
    return c


_GROUP = re.compile(r"^((?:[0-9]'?)+)([mpsz])$")


def parse_group(token: str, where: str = "hand") -> list[tuple[int, bool, bool]]:
    """``(kind, red, marked)`` of each tile of one group such as ``1'23s`` or ``055m``."""
    m = _GROUP.match(token)
    if not m:
        bad = next((ch for ch in token if ch not in "0123456789'mpsz"), None)
        why = "digits followed by one suit letter m p s z"
        if bad and not bad.isascii():
            # a superscript, full-width or other non-ASCII character (not a rank: '²' is no 2)
            why = f"{bad!r} is not a tile character: ranks are ASCII digits 0-9, suits m p s z"
        elif bad:
            why = f"unknown letter {bad!r}"
        raise TileError(f"{where}: bad tile group {token!r} ({why})")
    digits, letter = m.groups()
    out = []
    for dm in re.finditer(r"([0-9])('?)", digits):
        d, marked = int(dm.group(1)), bool(dm.group(2))
        if letter == "z":
            if not 1 <= d <= 7:
                raise TileError(f"{where}: rank {d} out of range in {token!r} (1z-7z)")
            out.append((N_NUMBER_KINDS + d - 1, False, marked))
        else:
            s = SUITS.index(letter)
            out.append((s * 9 + (4 if d == 0 else d - 1), d == 0, marked))
    return out


@dataclass
class Meld:
    """One call: type (``chi`` ...), its lowest kind (a chi) or its kind, the called kind
    (None for an ankan), and its red fives."""
    type: str
    kind: int
    called: int | None
    red: int = 0

    @property
    def kinds(self) -> list[int]:
        if self.type == "chi":
            return [self.kind, self.kind + 1, self.kind + 2]
        return [self.kind] * (3 if self.type == "pon" else 4)

    def text(self) -> str:
        tiles = self.kinds
        body = format_kinds(tiles, 7 if self.red else 0)
        if self.called is not None:
            i = tiles.index(self.called)
            digits = body[:-1]
            body = digits[:i + 1] + "'" + digits[i + 1:] + body[-1]
        return f"{self.type}:{body}"


@dataclass
class HandText:
    """A hand read from notation: concealed kinds, calls in order, the winning tile, the red
    fives held (a count), the other words and ``key:value`` tokens."""
    concealed: list[int]
    melds: list[Meld] = field(default_factory=list)
    win: int | None = None
    red: int = 0
    words: set = field(default_factory=set)
    values: dict = field(default_factory=dict)
    red_suits: int = 0      # bit s: the suit's red five is held (hand, calls or winning tile)


def _meld(token: str) -> Meld:
    kind_word, _, body = token.partition(":")
    tiles = parse_group(body, token)
    kinds = [k for k, _, _ in tiles]
    marked = [k for k, _, m in tiles if m]
    red = sum(r for _, r, _ in tiles)
    if len(marked) > 1:
        raise TileError(f"{token}: an apostrophe on two tiles")
    if kind_word == "chi":
        ks = sorted(kinds)
        if len(ks) != 3 or ks[0] >= N_NUMBER_KINDS or ks[2] // 9 != ks[0] // 9 or \
                ks != [ks[0], ks[0] + 1, ks[0] + 2]:
            raise TileError(f"{token}: a chi is three consecutive ranks of one suit")
        return Meld("chi", ks[0], marked[0] if marked else ks[0], red)
    n = 3 if kind_word == "pon" else 4
    if len(kinds) != n or len(set(kinds)) != 1:
        what = "three equal tiles" if n == 3 else "four equal tiles"
        raise TileError(f"{token}: a {kind_word} is {what}")
    if kind_word == "ankan":
        if marked:
            raise TileError(f"{token}: an ankan calls no tile (no apostrophe)")
        return Meld("ankan", kinds[0], None, red)
    return Meld(kind_word, kinds[0], kinds[0], red)


def parse_hand(text: str, where: str = "hand") -> HandText:
    """Read a hand in the spec's notation, with calls, ``+WIN`` and context tokens (the
    context is left to the caller: words go to ``words``, ``key:value`` to ``values``)."""
    h = HandText([])
    held = np.zeros(N_KINDS, np.int64)
    reds = [0, 0, 0]
    for token in text.split():
        if token.split(":")[0] == "kan" and ":" in token:
            raise TileError(f"{where}: {cut(token, 30)!r}: say which kan: minkan: (an open kan "
                            f"of a discard), kakan: (a tile added to one's pon) or ankan: "
                            f"(a closed kan)")
        if ":" in token and token.split(":")[0] in CALL_TYPES:
            m = _meld(token)
            h.melds.append(m)
            for k in m.kinds:
                held[k] += 1
            tiles = parse_group(token.partition(":")[2], token)
        elif token.startswith("+"):
            tiles = parse_group(token[1:], where)
            if len(tiles) != 1 or h.win is not None:
                raise TileError(f"{where}: {token!r}: one winning tile, after one '+'")
            h.win = tiles[0][0]
            held[h.win] += 1
        elif ":" in token:
            key, _, value = token.partition(":")
            if key in h.values:
                raise TileError(f"{where}: {cut(key, 30)}: given twice")
            h.values[key] = value
            continue
        elif token[0].isdigit():
            tiles = [t for g in split_groups(token, where) for t in parse_group(g, where)]
            if any(m for _, _, m in tiles):
                raise TileError(f"{where}: {token!r}: an apostrophe outside a call")
            for k, _, _ in tiles:
                h.concealed.append(k)
                held[k] += 1
        else:
            h.words.add(token)
            continue
        for k, r, _ in tiles:
            if r:
                reds[k // 9] += 1
    for k in range(N_KINDS):
        if held[k] > 4:
            raise TileError(f"{where}: {tile_str(k)} more than 4 times (a red five is a 5)")
    for s in range(3):
        if reds[s] > 1:
            raise TileError(f"{where}: more than one red five of {SUITS[s]}")
    h.red = sum(reds)
    h.red_suits = sum(1 << s for s in range(3) if reds[s])
    return h


def split_groups(token: str, where: str) -> list[str]:
    """``19m19p`` -> ``['19m', '19p']`` (spaces between groups are optional)."""
    groups = re.findall(r"[0-9']+[a-z]|[^0-9']+$|[^0-9'a-z]+", token)
    if "".join(groups) != token or not groups:
        raise TileError(f"{where}: bad tile group {token!r} (digits followed by a suit letter)")
    return groups


def parse_tiles(text: str, where: str = "tiles") -> list[int]:
    """Plain kinds (no calls, no win): ``dora:3s4z`` -> [20, 30]."""
    out = []
    for token in text.replace(",", " ").split():
        for g in split_groups(token, where):
            out += [k for k, _, _ in parse_group(g, where)]
    return out


def parse_tile_list(text: str, where: str = "tiles") -> list[tuple[int, bool]]:
    """``(kind, red)`` of plain tiles (no calls, no win): ``dora:3s0m`` -> [(20, False),
    (4, True)]."""
    out = []
    for token in text.replace(",", " ").split():
        for g in split_groups(token, where):
            tiles = parse_group(g, where)
            if any(m for _, _, m in tiles):
                raise TileError(f"{where} {g!r}: an apostrophe outside a call")
            out += [(k, r) for k, r, _ in tiles]
    return out

"""Scripted hands for the riichi2p engine tests: stack the wall, script both seats, play one hand.

A hand is set up in tile notation (``0m`` a red five): the dealer's 13 tiles, the other's, the
live-wall draws in order (the dealer draws first, then they alternate unless a call changes the
turn), the dora indicator and optionally the replacement tiles and ura indicator. The rest of
the 136 tiles fill the other places in kind order (all the plain copies before the red five).

Each seat plays a list of actions (``policies.riichi2p.SCRIPTED``): an entry of -1 or the end
of the list lets ``baseline`` decide. An action the engine finds illegal is replaced by its
fallback (the drawn tile's discard, or pass), so tests check outcomes, not only that a script
ran.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from policies.riichi2p import SCRIPTED
from simcore.riichi2p import engine as E
from simcore.riichi2p.hand import tables
from simcore.riichi2p.rules_array import build_rules_array, build_scoring_rules
from simcore.riichi2p.tiles import RED_TILE_IDS, parse_group, split_groups

SCRIPT_LEN = 64
TS, TH = tables()


def tiles(text: str) -> list[tuple[int, bool]]:
    """``(kind, red)`` of each tile of ``"123m 0p 11z"`` in order (repeats allowed)."""
    out = []
    for token in text.split():
        for g in split_groups(token, "script"):
            out += [(k, red) for k, red, _ in parse_group(g, "script")]
    return out


def discard(t: str) -> int:
    return E.A_DISCARD + tiles(t)[0][0]


def riichi(t: str) -> int:
    return E.A_RIICHI + tiles(t)[0][0]


def ankan(t: str) -> int:
    return E.A_ANKAN + tiles(t)[0][0]


def kakan(t: str) -> int:
    return E.A_KAKAN + tiles(t)[0][0]


def stack(dealer: str, other: str, draws: str = "", indicator: str = "9m",
          rinshan: str = "", ura: str = "") -> np.ndarray:
    """The 136 tile ids of a wall dealing ``dealer`` and ``other`` (13 each), then ``draws``."""
    wall = [-1] * E.N_TILES
    free = {k: [4 * k + c for c in (1, 2, 3, 0)] for k in range(34)}

    def take(k, red):
        rid = 4 * k
        if red:
            assert rid in RED_TILE_IDS and rid in free[k], f"no red five of kind {k} left"
            free[k].remove(rid)
            return rid
        plain = [t for t in free[k] if t not in RED_TILE_IDS] or free[k]
        assert plain, f"more than four of kind {k}"
        free[k].remove(plain[0])
        return plain[0]

    def place(start, text, limit):
        ts = tiles(text)
        assert len(ts) <= limit, f"{text!r}: more than {limit} tiles"
        for i, (k, red) in enumerate(ts):
            wall[start + i] = take(k, red)

    assert len(tiles(dealer)) == 13 and len(tiles(other)) == 13
    place(0, dealer, 13)
    place(13, other, 13)
    place(E.DEAL, draws, E.DEAD - E.DEAL)
    place(E.DORA0, indicator, 5)
    place(E.RINSHAN0, rinshan, 4)
    place(E.URA0, ura, 5)
    rest = iter(t for k in range(34) for t in free[k])
    return np.array([t if t >= 0 else next(rest) for t in wall], np.int64)


@dataclass
class Hand:
    """What one scripted hand left: the record row, the events, the state after it."""
    rec: np.ndarray
    events: np.ndarray
    state: object

    def of(self, typ: int) -> np.ndarray:
        return self.events[self.events[:, 0] == typ]

    @property
    def scores(self) -> tuple[int, int]:
        return int(self.state.scores[0]), int(self.state.scores[1])

    @property
    def pool(self) -> int:
        return int(self.state.st[E.ST_POOL])


def play(wall, scripts, rules: dict | None = None, scores=(25000, 25000), dealer: int = 0,
         pool: int = 0, honba: int = 0, kyoku: int = 0, debug: bool = True,
         st: dict | None = None) -> Hand:
    """One hand from ``wall`` with seat ``dealer`` dealing; ``scripts`` maps seat -> actions
    (dealer's first). ``rules``: option name -> value (the spec's defaults for the rest);
    ``st``: other state fields to set first, by name (``{"streak": 7, "streak_seat": 0}``)."""
    ra = build_rules_array(rules)
    sr = build_scoring_rules(rules)
    s = E.new_state(True)
    s.st[E.ST_LOG] = 1
    s.wall[:] = wall
    s.st[E.ST_DEALER] = dealer
    s.st[E.ST_KYOKU] = kyoku
    s.st[E.ST_HONBA] = honba
    s.st[E.ST_POOL] = pool
    s.st[E.ST_FIRST_DEALER] = dealer
    s.st[E.ST_STREAK_SEAT] = -1
    s.scores[:] = scores
    for name, value in (st or {}).items():
        s.st[getattr(E, f"ST_{name.upper()}")] = value
    ids = np.full(E.N_SEATS, SCRIPTED, np.int64)
    params = np.full((E.N_SEATS, SCRIPT_LEN), -1.0)
    params[:, 0] = 0
    for seat, actions in scripts.items():
        assert len(actions) < SCRIPT_LEN
        params[seat, 1:1 + len(actions)] = actions
    rngs = np.zeros((1 + E.N_SEATS, 4), np.uint64)
    for purpose in range(1 + E.N_SEATS):
        E.seed_keyed(np.uint64(7), 0, np.int64(0), purpose, rngs[purpose])
    rec = np.zeros(E.N_RF, np.int64)
    E.play_hand(s, sr, ra, TS, TH, ids, params, rngs, debug, rec, s)
    return Hand(rec, s.ev[:s.st[E.ST_N_EV]].copy(), s)

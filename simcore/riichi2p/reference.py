"""Pure-Python reference model of two-player riichi hand analysis and scoring.

Written from shared/rules/riichi2p.md (§1, §2, §5, §8, §9) for readability, not speed: the numba
kernels are tested against it, and it is tested against the spec's worked examples and, on random
hands, against the `mahjong` package (tests/riichi2p). Every search here is a plain enumeration of
the spec's definitions; caches change only the time.

Kinds: 0-8 = 1m..9m, 9-17 = 1p..9p, 18-26 = 1s..9s, 27-33 = E S W N P(haku) F(hatsu) C(chun).

Yaku keys are the spec's table keys. Yakuhai is one key per value set: ``yakuhai_haku``,
``yakuhai_hatsu``, ``yakuhai_chun``, ``yakuhai_round`` (a triplet of the round wind) and
``yakuhai_seat`` (of one's seat wind); a double-wind triplet scores both wind keys (2 han).

Unclear in the spec
-------------------
1. Shanten counts only the concealed tiles: it is the number of exchanges (draw one, discard one)
   to a winning shape with at most 4 of each kind in the concealed hand, minus one. So 1111m 234567p
   789s is 1-shanten (§14), and a hand is 0-shanten exactly when ``waits(counts, m)`` (default
   ``held``) is not empty. Copies held in calls are not seen by ``shanten``; ``waits`` takes them
   through ``held``.
2. ``waits(..., all_four_counts=True)`` (``tenpai_all_four_in_hand: true``) also lists a kind held
   four times in the concealed hand (the fifth copy completing the shape), reading "a kind of which
   the player holds all four copies ... is a wait" literally.
3. The 2-han minimum and the need for a yaku (§5.2 a, c) are met by some reading: the win is paid
   at the highest reading among those that meet them. (§5.5 b forbids a fallback only for atozuke.)
   A shape with no legal reading is returned with ``legal=False``, scored at its best reading.
4. Isshoku sanjun against ryanpeikou (four identical runs, closed): "the higher reading wins"; the
   ryanpeikou (2 or 3 han) is never below isshoku sanjun's closed 2 han, so it is taken (also on
   the tie under ``ryanpeikou_han: 2``).
5. Sanankou (three concealed triplets) is not in §5.5's list of set yaku; it is treated as one, made
   of its three concealed triplets (so it can satisfy (b2)).
6. Atozuke (a) checks the winnable waits: kinds that complete the hand and of which the player does
   not already hold four (concealed + called), whatever ``tenpai_all_four_in_hand`` says, since the
   fifth copy of a kind cannot come.
7. Under ``atozuke_first_call: literal`` a daiminkan is not a call, so its tiles also count as
   "without any called tile" for (b2).
8. Renhou: the flat value is paid when it is at least the normal payment (the spec pays normally only
   when normal scoring is *higher*). The Score then has empty yaku, ``limit='renhou'`` and
   ``base`` = 2000 or 4000.
9. Shiisan puutaa is "the whole value of the win": neither tenhou/chiihou nor paarenchan is added.
   It needs no melds and the engine's ``Win.shiisan_puutaa`` flag; the tsumo flag is not checked.
10. Paarenchan joins a reading only when that reading already has a yaku (regular or yakuman); it then
    makes the hand a yakuman like any other, so regular yaku and dora are dropped.
11. A yakuman Score reports han = fu = dora = ura = red = ippatsu = 0 (none of them counts).
12. Tenhou and chiihou need ``Win.first``, a tsumo and no melds; renhou needs ``first``, a ron and a
    non-dealer winner. Rinshan needs a tsumo, chankan and houtei a ron, haitei a tsumo without rinshan.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple

N_KINDS = 34
EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (HAKU, HATSU, CHUN)
DRAGON_NAMES = {HAKU: 'haku', HATSU: 'hatsu', CHUN: 'chun'}
YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
GREEN = frozenset((19, 20, 21, 23, 25, HATSU))   # 2 3 4 6 8 sou and hatsu
OPEN_CALLS = frozenset(('chi', 'pon', 'minkan', 'kakan'))   # an ankan keeps the hand closed (§2)
CHANCE_YAKU = ('menzen_tsumo', 'rinshan', 'chankan', 'haitei', 'houtei')   # §5.5 (c)
WHOLE_HAND = 'whole_hand'   # a yaku's uses: every tile (§5.5 whole-hand yaku)
SITUATION = 'situation'     # a yaku's uses: no tile (riichi, tsumo, ...)

DEFAULT_RULES: dict = {
    # 基本
    'atozuke': True,
    'atozuke_first_call': 'discard_call',
    'atozuke_whole_hand_yaku': 'count',
    'ryanhan_shibari': False,
    'shibari_honba': 5,
    'honba_value': 300,
    'yakuman_stacking': True,
    # 得点計算
    'kazoe_yakuman': True,
    'kiriage': False,
    'double_wind_pair_fu': 4,
    'open_pinfu_fu': True,
    # ドラ
    'ura_dora': True,
    'kan_ura_dora': True,
    'ura_needs_riichi': True,
    'red_fives': False,
    # 各役のルール
    'kuitan': True,
    'pinfu_tsumo': True,
    'chiitoitsu': '25fu2han',
    'honroutou_han': 2,
    'ryanpeikou_han': 3,
    'double_yakuman': False,
    'ryuuiisou_without_hatsu': True,
    'chuuren_suits': 'any',
    # 役の有無
    'ippatsu': True,
    'isshoku_sanjun': False,
    'sanrenkou': False,
    'suurenkou': False,
    'daisharin': False,
    'sanrenkou_open_han': 2,
    'daisharin_ranks': '2to8',
    'renhou': 'none',
    'paarenchan': False,
    'paarenchan_value': 1,
    'shiisan_puutaa': False,
    'shiisan_puutaa_value': 1,
}


# ---------------------------------------------------------------------------------------------
# Tiles

def suit_of(k: int) -> int:
    """0 m, 1 p, 2 s, 3 honours."""
    return k // 9 if k < 27 else 3


def rank_of(k: int) -> int:
    """1-9 for a number tile (honours: 1-7 in 1z-7z order)."""
    return k % 9 + 1 if k < 27 else k - 26


def is_honour(k: int) -> bool:
    return k >= 27


def is_terminal(k: int) -> bool:
    return k < 27 and k % 9 in (0, 8)


def is_yaochu(k: int) -> bool:
    return is_honour(k) or is_terminal(k)


def can_start_run(k: int) -> bool:
    """A run can start at k (no wrap past 9, no honours)."""
    return k < 27 and k % 9 <= 6


def tile_name(k: int) -> str:
    return f"{rank_of(k)}{'mpsz'[suit_of(k)]}"


def dora_of(indicator: int) -> int:
    """The kind after its indicator (§9.3): 9 -> 1 in a suit, E S W N E, P F C P."""
    if indicator < 27:
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    if indicator in WINDS:
        return EAST if indicator == NORTH else indicator + 1
    return HAKU if indicator == CHUN else indicator + 1


def counts_of(kinds) -> list[int]:
    counts = [0] * N_KINDS
    for k in kinds:
        counts[k] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# Shapes (§5.1)

class Decomposition(NamedTuple):
    shape: str                          # 'standard' | 'chiitoitsu' | 'kokushi'
    pair: int | None                    # the head; kokushi: the doubled kind; chiitoitsu: None
    sets: tuple[tuple[str, int], ...]   # sorted ('run', lowest kind) / ('triplet', kind);
    #                                     chiitoitsu: the 7 ('pair', kind); kokushi: ()


def _set_partitions(counts: list[int], start: int = 0):
    """Every way to split the tiles into runs and triplets (as lists; may repeat a multiset).

    The lowest tile left must start a triplet or a run, so trying both covers every split."""
    k = start
    while k < N_KINDS and counts[k] == 0:
        k += 1
    if k == N_KINDS:
        yield []
        return
    if counts[k] >= 3:
        counts[k] -= 3
        for rest in _set_partitions(counts, k):
            yield [('triplet', k)] + rest
        counts[k] += 3
    if can_start_run(k) and counts[k + 1] and counts[k + 2]:
        for j in (k, k + 1, k + 2):
            counts[j] -= 1
        for rest in _set_partitions(counts, k):
            yield [('run', k)] + rest
        for j in (k, k + 1, k + 2):
            counts[j] += 1


def _standard_decompositions(counts: list[int]):
    counts = list(counts)
    seen = set()
    for pair in range(N_KINDS):
        if counts[pair] < 2:
            continue
        counts[pair] -= 2
        for sets in _set_partitions(counts):
            key = (pair, tuple(sorted(sets)))
            if key not in seen:
                seen.add(key)
                yield Decomposition('standard', pair, key[1])
        counts[pair] += 2


def _is_chiitoitsu(counts) -> bool:
    """Seven pairs of seven different kinds (a quad is not two pairs)."""
    return sum(counts) == 14 and sum(1 for c in counts if c == 2) == 7


def _is_kokushi(counts) -> bool:
    return (sum(counts) == 14 and all(counts[k] >= 1 for k in YAOCHU)
            and all(counts[k] == 0 for k in range(N_KINDS) if k not in YAOCHU))


def decompositions(counts: list[int], n_melds: int) -> list[Decomposition]:
    """Every reading of a complete concealed part (14 - 3 * n_melds tiles), for scoring."""
    if sum(counts) != 14 - 3 * n_melds:
        return []
    found = list(_standard_decompositions(counts))
    if n_melds == 0 and _is_chiitoitsu(counts):
        found.append(Decomposition('chiitoitsu', None,
                                   tuple(('pair', k) for k in range(N_KINDS) if counts[k] == 2)))
    if n_melds == 0 and _is_kokushi(counts):
        found.append(Decomposition('kokushi', next(k for k in YAOCHU if counts[k] == 2), ()))
    return found


def is_complete(counts: list[int], n_melds: int) -> bool:
    """4 sets + a pair (calls count as sets), chiitoitsu or kokushi (both with no calls)."""
    if sum(counts) != 14 - 3 * n_melds:
        return False
    if n_melds == 0 and (_is_chiitoitsu(counts) or _is_kokushi(counts)):
        return True
    return next(_standard_decompositions(counts), None) is not None


# ---------------------------------------------------------------------------------------------
# Shanten and waits (§2)
#
# shanten = (exchanges to the nearest winning shape) - 1. The nearest shape T (at most 4 of each
# kind) shares the most tiles with the hand H, so exchanges = |T| - max_T overlap(T, H), with
# overlap = sum over kinds of min(T[k], H[k]); |T| = 14 - 3m, hence shanten = 13 - 3m - overlap.

@lru_cache(maxsize=1 << 16)
def _suit_overlaps(h: tuple[int, ...], runs_allowed: bool) -> dict[tuple[int, int], int]:
    """For one suit: (sets, pairs) -> the largest overlap of H's tiles there with exactly that many
    sets and pairs there, over every choice of blocks with at most 4 of each kind.

    A left-to-right scan over the kinds; at each kind choose the runs starting there, a triplet and a
    pair. The state carries the runs started at the two kinds before, which still cover this kind."""
    states = {(0, 0, 0, 0): 0}   # (runs from i-2, runs from i-1, sets, pairs) -> best overlap
    n = len(h)
    for i in range(n):
        next_states: dict[tuple[int, int, int, int], int] = {}
        max_runs = 4 if runs_allowed and i <= n - 3 else 0
        for (from2, from1, sets, pairs), gain in states.items():
            for runs in range(max_runs + 1):
                for triplet in (0, 1):
                    for pair in (0, 1):
                        tiles = from2 + from1 + runs + 3 * triplet + 2 * pair
                        new_sets, new_pairs = sets + runs + triplet, pairs + pair
                        if tiles > 4 or new_sets > 4 or new_pairs > 1:
                            continue
                        key = (from1, runs, new_sets, new_pairs)
                        value = gain + min(tiles, h[i])
                        if next_states.get(key, -1) < value:
                            next_states[key] = value
        states = next_states
    table: dict[tuple[int, int], int] = {}
    for (_, _, sets, pairs), gain in states.items():
        table[(sets, pairs)] = max(table.get((sets, pairs), -1), gain)
    return table


def _standard_overlap(counts, n_sets: int) -> int:
    """Largest overlap with a shape of n_sets sets + 1 pair, combining the four suits' tables."""
    combined = {(0, 0): 0}
    for suit in range(4):
        lo, hi = (27, 34) if suit == 3 else (9 * suit, 9 * suit + 9)
        table = _suit_overlaps(tuple(counts[lo:hi]), suit != 3)
        merged: dict[tuple[int, int], int] = {}
        for (s1, p1), g1 in combined.items():
            for (s2, p2), g2 in table.items():
                s, p = s1 + s2, p1 + p2
                if s <= n_sets and p <= 1 and merged.get((s, p), -1) < g1 + g2:
                    merged[(s, p)] = g1 + g2
        combined = merged
    return combined[(n_sets, 1)]


def _chiitoitsu_overlap(counts) -> int:
    """Seven different kinds, two each: take the seven kinds that give the most."""
    return sum(sorted((min(c, 2) for c in counts), reverse=True)[:7])


def _kokushi_overlap(counts) -> int:
    """One of each yaochu kind plus one more of any of them."""
    return sum(1 for k in YAOCHU if counts[k]) + (1 if any(counts[k] >= 2 for k in YAOCHU) else 0)


def shanten(counts: list[int], n_melds: int) -> int:
    """-1 complete (14 - 3m tiles), 0 tenpai (13 - 3m tiles), ...: minimum over the shapes."""
    best = 13 - 3 * n_melds - _standard_overlap(counts, 4 - n_melds)
    if n_melds == 0:
        best = min(best, 13 - _chiitoitsu_overlap(counts), 13 - _kokushi_overlap(counts))
    return best


def waits(counts: list[int], n_melds: int, all_four_counts: bool = False,
          held: list[int] | None = None) -> set[int]:
    """The kinds that complete the 13 - 3m concealed tiles in any reading (§2).

    With all_four_counts False a kind of which the player holds all four (held = concealed + its
    called tiles; default the concealed tiles) is not a wait."""
    held = counts if held is None else held
    found = set()
    for k in range(N_KINDS):
        if not all_four_counts and held[k] >= 4:
            continue
        with_k = list(counts)
        with_k[k] += 1
        if is_complete(with_k, n_melds):
            found.add(k)
    return found


# ---------------------------------------------------------------------------------------------
# The win

@dataclass
class Meld:
    type: str                 # 'chi' | 'pon' | 'minkan' | 'kakan' | 'ankan'
    kind: int                 # lowest kind for chi; the kind for the others
    called: int | None = None   # the called kind (None for ankan)
    red: int = 0              # red fives among its tiles

    def kinds(self) -> list[int]:
        if self.type == 'chi':
            return [self.kind, self.kind + 1, self.kind + 2]
        return [self.kind] * (3 if self.type == 'pon' else 4)


@dataclass
class Win:
    concealed: list[int]       # kinds of the concealed tiles BEFORE the win (13 - 3 * len(melds))
    melds: list[Meld]          # in call order
    win_tile: int
    tsumo: bool
    riichi: int = 0            # 0 none, 1 riichi, 2 double riichi
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    first: bool = False        # tenhou (dealer tsumo), chiihou (non-dealer tsumo), renhou (non-dealer ron)
    dealer: bool = False
    seat_wind: int = EAST
    round_wind: int = EAST
    dora_indicators: list[int] = field(default_factory=list)   # every turned indicator
    ura_indicators: list[int] = field(default_factory=list)    # the ura under them, in order
    red: int = 0               # red fives among all the winner's tiles
    honba: int = 0
    streak: int = 0            # paarenchan: consecutive wins counting this one
    shiisan_puutaa: bool = False   # the first-turn moment where 13-unconnected may be claimed (§8.4)

    @property
    def closed(self) -> bool:
        return not any(m.type in OPEN_CALLS for m in self.melds)

    def all_tiles(self) -> list[int]:
        """Every tile of the winner: concealed, winning tile, calls (a kan is four tiles)."""
        return self.concealed + [self.win_tile] + [k for m in self.melds for k in m.kinds()]


def _group_kinds(shape: str, kind: int) -> list[int]:
    if shape == 'run':
        return [kind, kind + 1, kind + 2]
    return [kind] * {'triplet': 3, 'kan': 4, 'pair': 2}[shape]


@dataclass(frozen=True)
class Group:
    """A set or pair of one reading."""
    shape: str            # 'run' | 'triplet' | 'kan' | 'pair'
    kind: int             # lowest kind of a run; the kind otherwise
    meld: int | None      # index in Win.melds; None for a concealed group
    concealed: bool       # for fu and ankou: not called, and not a triplet completed by ron
    has_win: bool         # the winning tile is read as part of this group

    def kinds(self) -> list[int]:
        return _group_kinds(self.shape, self.kind)

    @property
    def is_triplet(self) -> bool:
        """Triplet or kan: a kan counts as a triplet for every yaku (§2)."""
        return self.shape in ('triplet', 'kan')


@dataclass
class Reading:
    """One way to read the win: a decomposition plus where the winning tile sits."""
    shape: str                 # 'standard' | 'chiitoitsu' | 'kokushi' | 'shiisan_puutaa'
    groups: tuple[Group, ...]  # standard: the four sets then the pair; chiitoitsu: the 7 pairs
    wait: str                  # ryanmen kanchan penchan tanki shanpon | kokushi_13 kokushi | ''
    uses: dict = field(default_factory=dict)   # yaku key -> group indices, WHOLE_HAND or SITUATION

    def __str__(self) -> str:
        parts = []
        for g in self.groups:
            text = ''.join(tile_name(k)[0] for k in g.kinds()) + 'mpsz'[suit_of(g.kind)]
            if g.meld is not None:
                text = f"[{text}]"
            parts.append(text + ('*' if g.has_win else ''))
        return ' '.join([self.shape] + parts + [f'wait:{self.wait}'])


def _run_wait(run_kind: int, win_tile: int) -> str:
    offset = win_tile - run_kind
    if offset == 1:
        return 'kanchan'
    if (offset == 0 and rank_of(run_kind) == 7) or (offset == 2 and rank_of(run_kind) == 1):
        return 'penchan'
    return 'ryanmen'


def _meld_groups(win: Win) -> list[Group]:
    shapes = {'chi': 'run', 'pon': 'triplet', 'minkan': 'kan', 'kakan': 'kan', 'ankan': 'kan'}
    return [Group(shapes[m.type], m.kind, i, m.type == 'ankan', False) for i, m in enumerate(win.melds)]


def _readings(win: Win, rules: dict) -> list[Reading]:
    """Every decomposition of the concealed tiles + winning tile, with every place of that tile."""
    counts = counts_of(win.concealed + [win.win_tile])
    n_melds = len(win.melds)
    melds = _meld_groups(win)
    found = []
    for d in decompositions(counts, n_melds):
        if d.shape == 'kokushi':
            thirteen = all(win.concealed.count(k) == 1 for k in YAOCHU)
            found.append(Reading('kokushi', (), 'kokushi_13' if thirteen else 'kokushi'))
            continue
        if d.shape == 'chiitoitsu':
            found.append(Reading('chiitoitsu', tuple(Group('pair', k, None, True, k == win.win_tile)
                                                      for _, k in d.sets), 'tanki'))
            continue
        concealed = list(d.sets) + [('pair', d.pair)]
        places = sorted({group for group in concealed if win.win_tile in _group_kinds(*group)})
        for shape, k in places:
            held_at = concealed.index((shape, k))   # identical groups read alike: take the first
            groups = [Group(s, g, None, not (i == held_at and s == 'triplet' and not win.tsumo), i == held_at)
                      for i, (s, g) in enumerate(concealed)]
            wait = {'pair': 'tanki', 'triplet': 'shanpon'}.get(shape) or _run_wait(k, win.win_tile)
            found.append(Reading('standard', tuple(groups[:-1] + melds + groups[-1:]), wait))
    if rules['shiisan_puutaa'] and win.shiisan_puutaa and not win.melds and _is_shiisan_puutaa(counts):
        found.append(Reading('shiisan_puutaa', (), ''))
    return found


def _is_shiisan_puutaa(counts) -> bool:
    """14 tiles of 13 kinds (one pair), no two of one suit within two ranks: no run, no taatsu."""
    if sum(counts) != 14 or max(counts) > 2 or sum(1 for c in counts if c == 2) != 1:
        return False
    held = [k for k in range(27) if counts[k]]
    return not any(suit_of(a) == suit_of(b) and 0 < b - a <= 2 for a in held for b in held)


# ---------------------------------------------------------------------------------------------
# Yaku (§8)

def _value_kinds(win: Win) -> set[int]:
    return set(DRAGONS) | {win.round_wind, win.seat_wind}


def _chance_yaku(win: Win) -> list[str]:
    """The situational yaku that need no tile: §5.5 (c)'s list, in the §8.1 table's terms."""
    found = []
    if win.closed and win.tsumo:
        found.append('menzen_tsumo')
    if win.rinshan and win.tsumo:
        found.append('rinshan')
    if win.chankan and not win.tsumo:
        found.append('chankan')
    if win.haitei and win.tsumo and not win.rinshan:
        found.append('haitei')
    if win.houtei and not win.tsumo:
        found.append('houtei')
    return found


def _yaku(reading: Reading, win: Win, rules: dict) -> tuple[dict, dict, dict]:
    """(regular yaku -> han, yakuman -> multiplier, key -> uses) of one reading, before
    paarenchan. Any yakuman found means the regular ones will not count."""
    closed = win.closed
    yaku: dict[str, int] = {}
    yakuman: dict[str, int] = {}
    uses: dict = {}
    double = 2 if rules['double_yakuman'] else 1

    def add(key, closed_han, open_han, used):
        han = closed_han if closed else open_han
        if han:
            yaku[key] = han
            uses[key] = used

    def add_yakuman(key, multiplier, used):
        yakuman[key] = multiplier
        uses[key] = used

    tiles = win.all_tiles()
    groups = reading.groups

    # Situation
    if win.riichi == 1:
        add('riichi', 1, 0, SITUATION)
    elif win.riichi == 2:
        add('double_riichi', 2, 0, SITUATION)
    for key in _chance_yaku(win):
        add(key, 1, 1, SITUATION)
    if win.first and not win.melds and win.tsumo:
        add_yakuman('tenhou' if win.dealer else 'chiihou', 1, SITUATION)

    # Whole-hand colours and yaochu (any shape)
    suits = {suit_of(k) for k in tiles if k < 27}
    honours = any(is_honour(k) for k in tiles)
    if all(not is_yaochu(k) for k in tiles) and (closed or rules['kuitan']):
        add('tanyao', 1, 1, WHOLE_HAND)
    if len(suits) == 1 and honours:
        add('honitsu', 3, 2, WHOLE_HAND)
    if len(suits) == 1 and not honours:
        add('chinitsu', 6, 5, WHOLE_HAND)
    if all(is_honour(k) for k in tiles):
        add_yakuman('tsuuiisou', 1, WHOLE_HAND)
    elif all(is_terminal(k) for k in tiles):
        add_yakuman('chinroutou', 1, WHOLE_HAND)
    elif all(is_yaochu(k) for k in tiles):
        add('honroutou', rules['honroutou_han'], rules['honroutou_han'], WHOLE_HAND)
    if all(k in GREEN for k in tiles) and (rules['ryuuiisou_without_hatsu'] or HATSU in tiles):
        add_yakuman('ryuuiisou', 1, WHOLE_HAND)

    if reading.shape == 'kokushi':
        add_yakuman('kokushi', double if reading.wait == 'kokushi_13' else 1, WHOLE_HAND)
        return yaku, yakuman, uses
    if reading.shape == 'shiisan_puutaa':
        return {}, {'shiisan_puutaa': rules['shiisan_puutaa_value']}, {'shiisan_puutaa': WHOLE_HAND}
    if reading.shape == 'chiitoitsu':
        add('chiitoitsu', 1 if rules['chiitoitsu'] == '50fu1han' else 2, 0, WHOLE_HAND)
        pin_ranks = [rank_of(g.kind) for g in groups if suit_of(g.kind) == 1]
        if rules['daisharin'] and len(pin_ranks) == 7 and (
                pin_ranks == list(range(2, 9)) if rules['daisharin_ranks'] == '2to8'
                else pin_ranks[-1] - pin_ranks[0] == 6):
            add_yakuman('daisharin', 1, WHOLE_HAND)
        return yaku, yakuman, uses

    # Standard shape: groups = 4 sets then the pair
    pair_index = len(groups) - 1
    pair = groups[pair_index].kind
    runs = [i for i in range(pair_index) if groups[i].shape == 'run']
    triplets = [i for i in range(pair_index) if groups[i].is_triplet]
    kans = [i for i in triplets if groups[i].shape == 'kan']
    concealed_triplets = [i for i in triplets if groups[i].concealed]
    value = _value_kinds(win)

    if (closed and len(runs) == 4 and pair not in value and reading.wait == 'ryanmen'
            and (not win.tsumo or rules['pinfu_tsumo'])):
        add('pinfu', 1, 0, SITUATION)

    # Identical runs: iipeikou, ryanpeikou, isshoku sanjun
    by_run = {}
    for i in runs:
        by_run.setdefault(groups[i].kind, []).append(i)
    identical_pairs = sum(len(v) // 2 for v in by_run.values())
    three_same = next((v[:3] for v in by_run.values() if len(v) >= 3), None)
    ryanpeikou = closed and identical_pairs == 2
    if rules['isshoku_sanjun'] and three_same and not ryanpeikou:
        add('isshoku_sanjun', 2, 1, frozenset(three_same))
    elif ryanpeikou:
        add('ryanpeikou', rules['ryanpeikou_han'], 0, frozenset(runs))
    elif identical_pairs == 1:
        add('iipeikou', 1, 0, frozenset(next(v for v in by_run.values() if len(v) >= 2)[:2]))

    # Value triplets
    for i in triplets:
        k = groups[i].kind
        if k in DRAGONS:
            add(f'yakuhai_{DRAGON_NAMES[k]}', 1, 1, frozenset([i]))
        if k == win.round_wind:
            add('yakuhai_round', 1, 1, frozenset([i]))
        if k == win.seat_wind:
            add('yakuhai_seat', 1, 1, frozenset([i]))

    # Runs across suits and within a suit
    run_at = {(suit_of(groups[i].kind), rank_of(groups[i].kind)): i for i in runs}
    for r in range(1, 8):
        if all((s, r) in run_at for s in range(3)):
            add('sanshoku', 2, 1, frozenset(run_at[(s, r)] for s in range(3)))
            break
    for s in range(3):
        if all((s, r) in run_at for r in (1, 4, 7)):
            add('ittsu', 2, 1, frozenset(run_at[(s, r)] for r in (1, 4, 7)))

    # Terminals in every group
    def has_yaochu(g: Group) -> bool:
        return any(is_yaochu(k) for k in g.kinds())
    if runs and all(has_yaochu(g) for g in groups):
        if honours:
            add('chanta', 2, 1, WHOLE_HAND)
        else:
            add('junchan', 3, 2, WHOLE_HAND)

    # Triplets
    if len(triplets) == 4:
        add('toitoi', 2, 2, frozenset(triplets))
    if len(concealed_triplets) == 4:
        add_yakuman('suuankou', double if reading.wait == 'tanki' else 1, frozenset(concealed_triplets))
    elif len(concealed_triplets) == 3:
        add('sanankou', 2, 2, frozenset(concealed_triplets))
    triplet_at = {(suit_of(groups[i].kind), rank_of(groups[i].kind)): i for i in triplets}
    for r in range(1, 10):
        if all((s, r) in triplet_at for s in range(3)):
            add('sanshoku_doukou', 2, 2, frozenset(triplet_at[(s, r)] for s in range(3)))
    if len(kans) == 4:
        add_yakuman('suukantsu', double, frozenset(kans))
    elif len(kans) == 3:
        add('sankantsu', 2, 2, frozenset(kans))
    for s in range(3):
        for start in range(1, 8):
            chain = []
            while (s, start + len(chain)) in triplet_at:
                chain.append(triplet_at[(s, start + len(chain))])
            if len(chain) < 3:
                continue
            if len(chain) == 4 and rules['suurenkou']:
                add_yakuman('suurenkou', 1, frozenset(chain))
            if rules['sanrenkou']:
                add('sanrenkou', 2, rules['sanrenkou_open_han'], frozenset(chain[:3]))
            break

    # Dragons and winds
    dragon_sets = [i for i in triplets if groups[i].kind in DRAGONS]
    wind_sets = [i for i in triplets if groups[i].kind in WINDS]
    if len(dragon_sets) == 3:
        add_yakuman('daisangen', 1, frozenset(dragon_sets))
    elif len(dragon_sets) == 2 and pair in DRAGONS:
        add('shousangen', 2, 2, frozenset(dragon_sets + [pair_index]))
    if len(wind_sets) == 4:
        add_yakuman('daisuushii', double, frozenset(wind_sets))
    elif len(wind_sets) == 3 and pair in WINDS:
        add_yakuman('shousuushii', 1, frozenset(wind_sets + [pair_index]))

    # Chuuren: closed, no calls at all, one suit, 1112345678999 + one more
    if not win.melds and len(suits) == 1 and not honours:
        suit = next(iter(suits))
        if suit == 0 or rules['chuuren_suits'] == 'any':
            per_rank = [tiles.count(9 * suit + r) for r in range(9)]
            base = [3, 1, 1, 1, 1, 1, 1, 1, 3]
            if all(c >= b for c, b in zip(per_rank, base)):
                pure = [win.concealed.count(9 * suit + r) for r in range(9)] == base
                add_yakuman('chuuren', double if pure else 1, WHOLE_HAND)
    return yaku, yakuman, uses


# ---------------------------------------------------------------------------------------------
# Fu and points (§9)

def _ceil(value: int, unit: int) -> int:
    return -(-value // unit) * unit


def _fu(reading: Reading, win: Win, rules: dict, pinfu: bool) -> int:
    if reading.shape == 'chiitoitsu':
        return 50 if rules['chiitoitsu'] == '50fu1han' else 25
    if pinfu and win.tsumo:
        return 20
    fu = 20
    if win.closed and not win.tsumo:
        fu += 10
    if win.tsumo:
        fu += 2
    if reading.wait in ('kanchan', 'penchan', 'tanki'):
        fu += 2
    pair = reading.groups[-1].kind
    if pair in DRAGONS:
        fu += 2
    elif pair == win.round_wind and pair == win.seat_wind:
        fu += rules['double_wind_pair_fu']
    elif pair in (win.round_wind, win.seat_wind):
        fu += 2
    for g in reading.groups[:-1]:
        if g.is_triplet:
            fu += (2 * (2 if is_yaochu(g.kind) else 1) * (2 if g.concealed else 1)
                   * (4 if g.shape == 'kan' else 1))
    if fu == 20 and not win.closed and rules['open_pinfu_fu']:
        fu = 30
    return _ceil(fu, 10)


def base_points(han: int, fu: int, rules: dict) -> tuple[int, str]:
    """(b, limit name) of a hand that is no real yakuman (§9.4)."""
    if han >= 13:
        return (8000, 'kazoe') if rules['kazoe_yakuman'] else (6000, 'sanbaiman')
    if han >= 11:
        return 6000, 'sanbaiman'
    if han >= 8:
        return 4000, 'baiman'
    if han >= 6:
        return 3000, 'haneman'
    if han == 5:
        return 2000, 'mangan'
    if rules['kiriage'] and (han, fu) in ((4, 30), (3, 60)):
        return 2000, 'mangan'
    base = fu * 2 ** (han + 2)
    return (2000, 'mangan') if base >= 2000 else (base, '')


def ron_payment(base: int, dealer: bool) -> int:
    """P without honba (§9.5): tsumo pays as ron, ceil100(4b), or ceil100(6b) for a dealer winner."""
    return _ceil((6 if dealer else 4) * base, 100)


@dataclass
class Score:
    yaku: dict[str, int]      # regular yaku -> han (open value applied)
    yakuman: dict[str, int]   # yakuman -> multiplier
    dora: int
    ura: int
    red: int
    ippatsu: int
    han: int                  # total han incl. dora/ura/red/ippatsu (0 for a yakuman hand)
    fu: int
    base: int                 # base points b
    payment: int              # P without honba
    total: int                # payment + honba * honba_value
    limit: str                # '' | mangan | haneman | baiman | sanbaiman | kazoe | yakuman | renhou
    legal: bool               # a yaku (and the 2-han minimum when it applies); atozuke apart
    reading: Reading | None   # the reading paid (None for renhou's flat value)

    @property
    def real_yakuman(self) -> bool:
        return any(k != 'paarenchan' for k in self.yakuman)


def _score_reading(reading: Reading, win: Win, rules: dict) -> Score:
    yaku, yakuman, uses = _yaku(reading, win, rules)
    has_yaku = bool(yaku) or bool(yakuman)
    shibari = rules['ryanhan_shibari'] and win.honba >= rules['shibari_honba']
    legal = has_yaku and (not shibari or bool(yakuman) or sum(yaku.values()) >= 2)
    if has_yaku and rules['paarenchan'] and win.streak >= 8 and reading.shape != 'shiisan_puutaa':
        yakuman['paarenchan'] = rules['paarenchan_value']
        uses['paarenchan'] = SITUATION
    extra = rules['honba_value'] * win.honba
    if yakuman:
        multiplier = sum(yakuman.values()) if rules['yakuman_stacking'] else max(yakuman.values())
        reading = replace(reading, uses={k: uses[k] for k in yakuman})
        base = 8000 * multiplier
        payment = ron_payment(base, win.dealer)
        return Score({}, yakuman, 0, 0, 0, 0, 0, 0, base, payment, payment + extra, 'yakuman', legal,
                     reading)
    tiles = win.all_tiles()
    dora = sum(tiles.count(dora_of(i)) for i in win.dora_indicators)
    ura = 0
    if rules['ura_dora'] and (win.riichi or not rules['ura_needs_riichi']):
        under = win.ura_indicators if rules['kan_ura_dora'] else win.ura_indicators[:1]
        ura = sum(tiles.count(dora_of(i)) for i in under)
    red = win.red if rules['red_fives'] else 0
    ippatsu = 1 if rules['ippatsu'] and win.ippatsu and win.riichi else 0
    han = sum(yaku.values()) + dora + ura + red + ippatsu
    fu = _fu(reading, win, rules, 'pinfu' in yaku)
    base, limit = base_points(han, fu, rules)
    payment = ron_payment(base, win.dealer)
    return Score(yaku, {}, dora, ura, red, ippatsu, han, fu, base, payment, payment + extra, limit, legal,
                 replace(reading, uses=uses))


def _check_tile_count(win: Win) -> None:
    if len(win.concealed) != 13 - 3 * len(win.melds):
        raise ValueError(f"{len(win.concealed)} concealed tiles with {len(win.melds)} calls "
                         f"(expected {13 - 3 * len(win.melds)})")


def score(win: Win, rules: dict | None = None) -> Score | None:
    """The win's score at its highest-paying reading (§5.3); None if it is not a winning shape.

    Readings with a yaku (and the 2-han minimum when it applies) come first; then payment, a real
    yakuman before a counted one, more han, more fu. Renhou's flat value replaces a lower one."""
    rules = {**DEFAULT_RULES, **(rules or {})}
    _check_tile_count(win)
    scores = [_score_reading(r, win, rules) for r in _readings(win, rules)]
    if not scores:
        return None
    best = max(scores, key=lambda s: (s.legal, s.payment, s.real_yakuman, s.han, s.fu))
    if rules['renhou'] != 'none' and win.first and not win.tsumo and not win.dealer and not win.melds:
        flat_base = 2000 if rules['renhou'] == 'mangan' else 4000
        flat = ron_payment(flat_base, False)
        # renhou is a yaku that passes the two-han minimum (§5.4), so with it every reading
        # that has a yaku is legal: the normal value is paid when it is higher
        with_yaku = [s for s in scores if s.yaku or s.yakuman]
        if with_yaku and not best.legal:
            best = replace(max(with_yaku, key=lambda s: (s.payment, s.real_yakuman, s.han, s.fu)),
                           legal=True)
        if not best.legal or best.payment <= flat:
            return Score({}, {}, 0, 0, 0, 0, 0, 0, flat_base, flat, flat + rules['honba_value'] * win.honba,
                         'renhou', True, None)
    return best


def has_yaku(result: Score) -> bool:
    """A yaku of any kind: regular, a yakuman, renhou. Paarenchan is no yaku, but it joins only
    a reading that has one (a regular yaku it then replaced), so a win it made has a yaku."""
    return result.limit == 'renhou' or bool(result.yaku) or bool(result.yakuman)


# ---------------------------------------------------------------------------------------------
# Atozuke (§5.5)

def atozuke_legal(win: Win, rules: dict) -> bool:
    """Condition (d) of §5.2: always true under ``atozuke: true``; otherwise (c), or (a) and (b)."""
    rules = {**DEFAULT_RULES, **(rules or {})}
    if rules['atozuke']:
        return True
    if _chance_yaku(win):
        return True
    result = score(win, rules)
    if result is None:
        return False
    if not _no_one_sided_wait(win, rules):
        return False
    if result.reading is None:          # renhou's flat value: no call was made
        return True
    return any(_yaku_holds_beyond_calls(win, r, rules) for r in _tied_best(win, rules, result))


def _tied_best(win: Win, rules: dict, best: Score) -> list[Score]:
    """Every reading scored exactly as the one paid (same legality, payment, kind of yakuman,
    han and fu): which of them is "the" reading paid is a reporting matter (§5.3), so (b)
    passes when any of them passes; the order readings are listed in must not decide a win."""
    key = (best.legal, best.payment, best.real_yakuman, best.han, best.fu)
    return [s for s in (_score_reading(r, win, rules) for r in _readings(win, rules))
            if (s.legal, s.payment, s.real_yakuman, s.han, s.fu) == key]


def _no_one_sided_wait(win: Win, rules: dict) -> bool:
    """(a): every winnable kind of the wait gives a yaku, with the same mode and flags."""
    held = counts_of(win.concealed + [k for m in win.melds for k in m.kinds()])
    for kind in waits(counts_of(win.concealed), len(win.melds), False, held):
        other = score(replace(win, win_tile=kind), rules)
        if other is None or not has_yaku(other):
            return False
    return True


def _yaku_holds_beyond_calls(win: Win, result: Score, rules: dict) -> bool:
    """(b) on the reading paid: some yaku includes the first called tile (b1), or holds without any
    called tile and without the winning tile (b2)."""
    call_types = ({'chi', 'pon', 'minkan', 'kakan'} if rules['atozuke_first_call'] == 'discard_call'
                  else {'chi', 'pon', 'kakan'})
    calls = [i for i, m in enumerate(win.melds) if m.type in call_types]
    if not calls:
        return True
    reading = result.reading
    if reading is None:   # renhou: no calls are possible before it
        return True
    groups = reading.groups
    first_group = next(i for i, g in enumerate(groups) if g.meld == calls[0])
    called_groups = {i for i, g in enumerate(groups) if g.meld in calls}

    def same(i, j):      # equal sets stand in for each other (chi 789s and a concealed 789s)
        return (groups[i].shape, groups[i].kind) == (groups[j].shape, groups[j].kind)

    def clean(j):
        return j not in called_groups and not groups[j].has_win

    for used in reading.uses.values():
        if used == WHOLE_HAND:
            if rules['atozuke_whole_hand_yaku'] == 'count':
                return True
        elif used != SITUATION:
            if any(same(i, first_group) for i in used):                       # (b1)
                return True
            if all(sum(1 for j in range(len(groups)) if same(i, j) and clean(j))
                   >= sum(1 for j in used if same(i, j)) for i in used):     # (b2)
                return True
    return False


# ---------------------------------------------------------------------------------------------
# Notation (§1.2)

_SUITS = {'m': 0, 'p': 9, 's': 18, 'z': 27}
_WIND_LETTERS = {'E': EAST, 'S': SOUTH, 'W': WEST, 'N': NORTH}
_MELD_TILES = {'chi': 3, 'pon': 3, 'minkan': 4, 'kakan': 4, 'ankan': 4}


def _tiles(text: str, token: str) -> list[tuple[int, bool, bool]]:
    """'1'23s4z' -> [(kind, red, marked), ...]; the suit letter closes each digit run."""
    found, pending = [], []
    for i, ch in enumerate(text):
        if ch.isdigit():
            pending.append([int(ch), False])
        elif ch == "'":
            if not pending or pending[-1][1]:
                raise ValueError(f"{token!r}: apostrophe on no tile")
            pending[-1][1] = True
        elif ch in _SUITS:
            if not pending:
                raise ValueError(f"{token!r}: suit letter with no rank")
            for rank, marked in pending:
                if ch == 'z' and not 1 <= rank <= 7:
                    raise ValueError(f"{token!r}: rank {rank} out of range for z")
                found.append((_SUITS[ch] + (4 if rank == 0 else rank - 1), rank == 0, marked))
            pending = []
        else:
            raise ValueError(f"{token!r}: unknown letter {ch!r}")
    if pending:
        raise ValueError(f"{token!r}: ranks with no suit letter")
    return found


def _meld(call: str, body: str, token: str) -> Meld:
    tiles = _tiles(body, token)
    kinds = sorted(k for k, _, _ in tiles)
    marked = [k for k, _, m in tiles if m]
    if len(tiles) != _MELD_TILES[call]:
        raise ValueError(f"{token!r}: a {call} has {_MELD_TILES[call]} tiles")
    if call == 'chi':
        if not can_start_run(kinds[0]) or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]:
            raise ValueError(f"{token!r}: not three consecutive ranks of one suit")
        if len(marked) > 1:
            raise ValueError(f"{token!r}: apostrophe on two tiles")
        called = marked[0] if marked else kinds[0]
    else:
        if len(set(kinds)) != 1:
            raise ValueError(f"{token!r}: not {len(kinds)} equal tiles")
        if call == 'ankan' and marked:
            raise ValueError(f"{token!r}: an ankan has no called tile")
        if call != 'ankan' and len(marked) != 1:
            raise ValueError(f"{token!r}: an apostrophe on no tile or on two tiles")
        called = marked[0] if marked else None
    return Meld(call, kinds[0], called, sum(1 for _, red, _ in tiles if red))


def parse(text: str) -> tuple[Win, dict]:
    """The spec's notation (§1.2) -> (Win, context); context['held'] = all the winner's tiles
    except the winning tile, per kind (the ``held`` of ``waits``)."""
    concealed, melds, win_tile, reds = [], [], None, []
    flags = dict(tsumo=None, riichi=0, ippatsu=False, rinshan=False, chankan=False, haitei=False,
                 houtei=False, first=False, seat_wind=EAST, round_wind=EAST, dora_indicators=[],
                 ura_indicators=[], honba=0, streak=0)
    for token in text.split():
        key, _, value = token.partition(':')
        if token.startswith('+'):
            tiles = _tiles(token[1:], token)
            if len(tiles) != 1:
                raise ValueError(f"{token!r}: one winning tile")
            win_tile = tiles[0][0]
            reds += [tiles[0][0]] if tiles[0][1] else []
        elif key in _MELD_TILES and value:
            melds.append(_meld(key, value, token))
            reds += [k for k, red, _ in _tiles(value, token) if red]
        elif token in ('tsumo', 'ron'):
            flags['tsumo'] = token == 'tsumo'
        elif token in ('riichi', 'wriichi'):
            flags['riichi'] = 1 if token == 'riichi' else 2
        elif token in ('ippatsu', 'rinshan', 'chankan', 'haitei', 'houtei', 'first'):
            flags[token] = True
        elif key in ('seat', 'round') and value:
            if value not in _WIND_LETTERS or key == 'round' and value not in 'ES':
                raise ValueError(f"{token!r}: unknown wind")
            flags[f'{key}_wind'] = _WIND_LETTERS[value]
        elif key in ('dora', 'ura') and value:
            flags[f'{key}_indicators'] = [k for k, _, _ in _tiles(value, token)]
        elif key in ('honba', 'streak') and value:
            if not value.isdigit():
                raise ValueError(f"{token!r}: not a count")
            flags[key] = int(value)
        elif not any(ch in token for ch in ":+'"):
            tiles = _tiles(token, token)
            concealed += [k for k, _, _ in tiles]
            reds += [k for k, red, _ in tiles if red]
        else:
            raise ValueError(f"{token!r}: unknown token")
    if win_tile is None or flags['tsumo'] is None:
        raise ValueError(f"{text!r}: needs a winning tile (+..) and tsumo or ron")
    if len(concealed) + 3 * len(melds) != 13:
        raise ValueError(f"{text!r}: {len(concealed)} concealed tiles + {len(melds)} calls is not 13")
    held = counts_of(concealed + [k for m in melds for k in m.kinds()])
    everything = list(held)
    everything[win_tile] += 1
    if max(everything) > 4:
        raise ValueError(f"{text!r}: more than 4 of {tile_name(everything.index(max(everything)))}")
    if any(c > 1 for c in Counter(reds).values()):
        raise ValueError(f"{text!r}: more than one red five of a suit")
    win = Win(concealed=sorted(concealed), melds=melds, win_tile=win_tile,
              dealer=flags['seat_wind'] == EAST, red=len(reds), **flags)
    return win, {'held': held}

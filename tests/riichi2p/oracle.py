"""The `mahjong` package (2.1.0) as a test oracle for simcore.riichi2p.reference, per spec §14.

``oracle_score`` scores a ``Win`` with the package and the §14 adapters; ``random_win`` and
``random_rules`` draw the hands and rule settings the comparison runs on.

Package quirks (found while comparing; the adapters below absorb them):
- It derives the dealer from ``player_wind == EAST`` and has no two-player tsumo: the payment is
  taken from ``ScoresCalculator.calculate_scores`` with ``is_tsumo=False`` (§14).
- Defaults differ from the spec's: ``has_double_yakuman`` is on and ``has_open_tanyao`` off, so
  every option is set explicitly; ``fu_for_pinfu_tsumo`` is the negation of ``pinfu_tsumo``.
- ``HandConfig.paarenchan`` is a multiplier, not a streak: we pass ``paarenchan_value``.
- Suukantsu is never a double; its own renhou adds 5 han and combines with other yaku; it has no
  2-fu double-wind pair, no 50-fu chiitoitsu, no stacking switch: see the adapters.
- With ``fu_for_open_pinfu`` off and ``fu_for_pinfu_tsumo`` off it gives an open tsumo with no fu
  20 fu, dropping the tsumo 2 fu (spec §9.1: 22 -> 30 either way); the adapter raises it to 30.
- A yakuman (paarenchan too) replaces its yaku list, so the 2-han minimum is judged on a second
  call without paarenchan, which is no yaku.
- Daisharin (closed only, 0 han open) is found in an open hand too, e.g. chi:2'34p + 3455667788p
  + 2p, and then scored at its closed value: the adapter turns it on for closed hands only.
- Ura indicators count only with riichi (our ``ura_needs_riichi: true``); kan ura are whatever
  list is passed, so ``kan_ura_dora: false`` passes the first one only.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.scores import ScoresCalculator
from mahjong.meld import Meld as PackageMeld

from simcore.riichi2p.reference import (DEFAULT_RULES, DRAGONS, GREEN, SOUTH, WEST, WINDS, YAOCHU,
                                        Meld, Win, can_start_run, counts_of, dora_of)

# Settings the package cannot express (§14 "Not covered"), with the value it does implement.
# A hand is compared under these values; it is skipped when the drawn value scores it otherwise.
UNCOVERED = {
    'ryuuiisou_without_hatsu': True,
    'chuuren_suits': 'any',
    'daisharin_ranks': '2to8',
    'isshoku_sanjun': False,
    'sanrenkou': False,
    'suurenkou': False,
    'shiisan_puutaa': False,
    'ura_needs_riichi': True,
}

_NOT_YAKU = {'Dora', 'Aka Dora', 'Ura Dora', 'Ippatsu', 'Paarenchan'}   # for the 2-han minimum


class OracleScore(NamedTuple):
    han: int          # 13 per yakuman multiple for a yakuman hand; 0 when renhou's flat value is paid
    fu: int
    payment: int      # P without honba
    yaku: list[str]   # the package's names ('Renhou' when the flat value is paid)
    total: int        # P + honba * honba_value


# ---------------------------------------------------------------------------------------------
# Conversion to the package's 136-tile format

def _red_suits(win: Win) -> set[int]:
    """Which suits' fives are red: Win.red gives only the count. A suit holding four fives must
    have its red one; then the others in m, p, s order."""
    fives = counts_of(win.all_tiles())
    held = [s for s in range(3) if fives[9 * s + 4]]
    held.sort(key=lambda s: fives[9 * s + 4] != 4)
    assert win.red <= len(held) and sum(fives[9 * s + 4] == 4 for s in range(3)) <= win.red, win
    return set(held[:win.red])


class _Copies:
    """Hands out distinct 136-indices per kind; the red five (copy 0 of a five) only for red suits."""

    def __init__(self, red_suits: set[int]):
        self.free = {}
        for k in range(34):
            copies = [4 * k + c for c in range(4)]
            if k < 27 and k % 9 == 4:
                copies = copies if k // 9 in red_suits else copies[1:]
            self.free[k] = copies

    def take(self, kind: int) -> int:
        return self.free[kind].pop(0)


def _to_package(win: Win):
    """(all 136 tiles, the winning tile's index, the package's melds)."""
    copies = _Copies(_red_suits(win))
    melds, tiles = [], []
    for m in win.melds:
        meld_tiles = [copies.take(k) for k in m.kinds()]
        called = None if m.called is None else next(t for t in meld_tiles if t // 4 == m.called)
        kind = {'chi': PackageMeld.CHI, 'pon': PackageMeld.PON, 'minkan': PackageMeld.KAN,
                'kakan': PackageMeld.SHOUMINKAN, 'ankan': PackageMeld.KAN}[m.type]
        melds.append(PackageMeld(kind, meld_tiles, opened=m.type != 'ankan', called_tile=called))
        tiles += meld_tiles
    win_136 = copies.take(win.win_tile)
    tiles += [copies.take(k) for k in win.concealed] + [win_136]
    return tiles, win_136, melds


def _options(rules: dict, win: Win) -> OptionalRules:
    return OptionalRules(
        has_open_tanyao=rules['kuitan'],
        has_aka_dora=rules['red_fives'],
        has_double_yakuman=rules['double_yakuman'],
        kazoe_limit=HandConstants.KAZOE_LIMITED if rules['kazoe_yakuman'] else HandConstants.KAZOE_SANBAIMAN,
        kiriage=rules['kiriage'],
        fu_for_open_pinfu=rules['open_pinfu_fu'],
        fu_for_pinfu_tsumo=not rules['pinfu_tsumo'],
        has_daisharin=rules['daisharin'] and win.closed,   # quirk: it finds daisharin in open hands
        paarenchan_needs_yaku=True,
    )


def _yakuman_han(item, is_open: bool, rules: dict) -> int:
    han = item.han_open if is_open and item.han_open else item.han_closed
    if item.name == 'Suu Kantsu' and rules['double_yakuman']:
        han = 26   # adapter: the spec's suukantsu is a double
    return han


def _estimate(win: Win, rules: dict, paarenchan: int):
    """The package's HandResponse for the win (a fresh HandConfig: it mutates its yaku table)."""
    tiles, win_136, melds = _to_package(win)
    first_tsumo = win.first and win.tsumo and not win.melds
    config = HandConfig(
        is_tsumo=win.tsumo,
        is_riichi=win.riichi >= 1,
        is_daburu_riichi=win.riichi == 2,
        is_ippatsu=rules['ippatsu'] and win.ippatsu and win.riichi >= 1,
        is_rinshan=win.rinshan and win.tsumo,
        is_chankan=win.chankan and not win.tsumo,
        is_haitei=win.haitei and win.tsumo and not win.rinshan,
        is_houtei=win.houtei and not win.tsumo,
        is_tenhou=first_tsumo and win.dealer,
        is_chiihou=first_tsumo and not win.dealer,
        player_wind=win.seat_wind,
        round_wind=win.round_wind,
        paarenchan=paarenchan,
        options=_options(rules, win),
    )
    config.yaku.honroto.han_open = config.yaku.honroto.han_closed = rules['honroutou_han']
    config.yaku.ryanpeiko.han_closed = rules['ryanpeikou_han']
    ura = win.ura_indicators if rules['kan_ura_dora'] else win.ura_indicators[:1]
    return HandCalculator.estimate_hand_value(
        tiles, win_136, melds=melds, dora_indicators=[4 * k + 3 for k in win.dora_indicators],
        config=config, ura_dora_indicators=[4 * k + 3 for k in ura] if rules['ura_dora'] else [])


def oracle_score(win: Win, rules: dict | None = None) -> OracleScore | None:
    """The package's score of the win under the rules (§14 adapters applied); None if it is not a
    legal win (no winning shape, no yaku, or the 2-han minimum failed)."""
    rules = {**DEFAULT_RULES, **(rules or {})}
    paarenchan = rules['paarenchan_value'] if rules['paarenchan'] and win.streak >= 8 else 0
    result = _estimate(win, rules, paarenchan)
    normal = None
    if not result.error:
        # Paarenchan replaces the yaku list, and it is no yaku: judge the 2-han minimum without it.
        judged = _estimate(win, rules, 0) if paarenchan else result
        if _passes_shibari(judged, win, rules):
            normal = _adapt(result, win, rules)
    if rules['renhou'] != 'none' and win.first and not win.tsumo and not win.dealer and not win.melds:
        flat = 8000 if rules['renhou'] == 'mangan' else 16000
        if normal is None or normal.payment <= flat:
            return OracleScore(0, 0, flat, ['Renhou'], flat + rules['honba_value'] * win.honba)
    return normal


def _passes_shibari(result, win: Win, rules: dict) -> bool:
    """The 2-han minimum (§5.4) on the package's reading: yaku han without dora, aka, ura, ippatsu."""
    if not (rules['ryanhan_shibari'] and win.honba >= rules['shibari_honba']):
        return True
    if any(item.is_yakuman for item in result.yaku):
        return True
    yaku_han = sum(item.han_open if not win.closed and item.han_open else item.han_closed
                   for item in result.yaku if item.name not in _NOT_YAKU)
    if any(item.name == 'Chiitoitsu' for item in result.yaku) and rules['chiitoitsu'] == '50fu1han':
        yaku_han -= 1
    return yaku_han >= 2


def _adapt(result, win: Win, rules: dict) -> OracleScore:
    names = [item.name for item in result.yaku]
    yakuman = [item for item in result.yaku if item.is_yakuman]
    han, fu = result.han, result.fu
    if yakuman:
        multiples = [_yakuman_han(item, not win.closed, rules) for item in yakuman]
        han = sum(multiples) if rules['yakuman_stacking'] else max(multiples)
    else:
        if 'Chiitoitsu' in names and rules['chiitoitsu'] == '50fu1han':
            han, fu = han - 1, 50
        details = result.fu_details
        if rules['double_wind_pair_fu'] == 2 and any(d['reason'] == 'double_valued_pair' for d in details):
            fu = (sum(d['fu'] for d in details) - 2 + 9) // 10 * 10
        if not win.closed and win.tsumo and fu == 20:
            fu = 30   # quirk: with fu_for_open_pinfu off it drops the tsumo 2 fu of an open hand
    cost = ScoresCalculator.calculate_scores(
        han, fu, HandConfig(is_tsumo=False, player_wind=win.seat_wind, tsumi_number=win.honba,
                            options=_options(rules, win)), bool(yakuman))
    assert cost['main_bonus'] == 300 * win.honba
    return OracleScore(han, fu, cost['main'], names, cost['main'] + rules['honba_value'] * win.honba)


def covered_rules(rules: dict) -> dict:
    """The rules with every setting the package cannot express replaced by one it implements."""
    return {**rules, **UNCOVERED}


# ---------------------------------------------------------------------------------------------
# Random rules and hands

RULE_CHOICES = {
    'kuitan': [True, False], 'pinfu_tsumo': [True, False], 'open_pinfu_fu': [True, False],
    'chiitoitsu': ['25fu2han', '50fu1han'], 'honroutou_han': [2, 3], 'ryanpeikou_han': [3, 2],
    'kiriage': [False, True], 'kazoe_yakuman': [True, False], 'double_wind_pair_fu': [4, 2],
    'double_yakuman': [False, True], 'yakuman_stacking': [True, False], 'ura_dora': [True, False],
    'kan_ura_dora': [True, False], 'ura_needs_riichi': [True, False], 'red_fives': [False, True],
    'ryuuiisou_without_hatsu': [True, False], 'chuuren_suits': ['any', 'man_only'],
    'isshoku_sanjun': [False, True], 'sanrenkou': [False, True], 'suurenkou': [False, True],
    'daisharin': [False, True], 'sanrenkou_open_han': [2, 1], 'daisharin_ranks': ['2to8', 'any7'],
    'renhou': ['none', 'mangan', 'baiman'], 'paarenchan': [False, True], 'paarenchan_value': [1, 2],
    'shiisan_puutaa': [False, True], 'shiisan_puutaa_value': [1, 2], 'honba_value': [300, 1500, 0],
    'ryanhan_shibari': [False, True], 'shibari_honba': [5, 2], 'ippatsu': [True, False],
}


def random_rules(rng: random.Random) -> dict:
    """Each option: the default half the time, otherwise any of its values."""
    return {key: values[0] if rng.random() < 0.5 else rng.choice(values)
            for key, values in RULE_CHOICES.items()}


def _kinds_of(shape: str, k: int) -> list[int]:
    return {'run': [k, k + 1, k + 2], 'triplet': [k] * 3, 'pair': [k] * 2}[shape]


class _Style(NamedTuple):
    runs: list[int]        # lowest kinds of the runs to draw from
    triplets: list[int]
    pairs: list[int]
    run_share: float       # chance that a drawn set is a run


def _style(rng: random.Random) -> tuple[_Style, list[tuple[str, int]]]:
    """A family of kinds to draw sets from, plus sets forced into the hand (for rare yaku)."""
    everything = list(range(34))
    all_runs = [k for k in range(27) if can_start_run(k)]
    suit = rng.randrange(3)
    suit_kinds = list(range(9 * suit, 9 * suit + 9))
    honours = list(range(27, 34))
    name = rng.choices(
        ['mixed', 'flush', 'half_flush', 'honours', 'terminals', 'simples', 'green', 'triplets',
         'dragons', 'winds', 'sanshoku', 'ittsu', 'peikou', 'consecutive', 'doukou'],
        [30, 8, 8, 5, 6, 8, 3, 7, 4, 4, 4, 4, 4, 3, 2])[0]
    forced: list[tuple[str, int]] = []
    if name == 'flush':
        return _Style([k for k in suit_kinds if can_start_run(k)], suit_kinds, suit_kinds, 0.6), forced
    if name == 'half_flush':
        kinds = suit_kinds + honours
        return _Style([k for k in suit_kinds if can_start_run(k)], kinds, kinds, 0.5), forced
    if name == 'honours':
        return _Style([k for k in suit_kinds if can_start_run(k)], honours, honours, 0.1), forced
    if name == 'terminals':
        ends = [k for k in all_runs if k % 9 in (0, 6)]
        return _Style(ends, list(YAOCHU), list(YAOCHU), rng.choice([0.0, 0.5])), forced
    if name == 'simples':
        simple = [k for k in range(27) if k % 9 not in (0, 8)]
        return _Style([k for k in all_runs if k % 9 in range(1, 6)], simple, simple, 0.6), forced
    if name == 'green':
        greens = sorted(GREEN)
        return _Style([19], greens, greens, 0.4), forced
    if name == 'triplets':
        return _Style(all_runs, everything, everything, 0.0), forced
    if name == 'dragons':
        forced = [('triplet', d) for d in rng.sample(DRAGONS, rng.choice([2, 3]))]
    elif name == 'winds':
        forced = [('triplet', w) for w in rng.sample(WINDS, rng.choice([3, 4]))]
    elif name == 'sanshoku':
        rank = rng.randrange(7)
        forced = [('run', 9 * s + rank) for s in range(3)]
    elif name == 'ittsu':
        forced = [('run', 9 * suit + r) for r in (0, 3, 6)]
    elif name == 'peikou':
        k = rng.choice(all_runs)
        forced = [('run', k)] * rng.choice([2, 2, 3, 4])
    elif name == 'consecutive':
        start = rng.randrange(9 * suit, 9 * suit + rng.choice([7, 6]))
        forced = [('triplet', start + j) for j in range(rng.choice([3, 4])) if start + j < 9 * suit + 9]
    elif name == 'doukou':
        rank = rng.randrange(9)
        forced = [('triplet', 9 * s + rank) for s in range(3)]
    return _Style(all_runs, everything, everything, 0.55), forced


def _standard_shape(rng: random.Random) -> list[tuple[str, int]] | None:
    """Four sets and a pair (the pair last) with at most four of a kind, or None."""
    style, forced = _style(rng)
    groups = list(forced)
    while len(groups) < 4:
        if style.runs and rng.random() < style.run_share:
            groups.append(('run', rng.choice(style.runs)))
        else:
            groups.append(('triplet', rng.choice(style.triplets)))
    groups.append(('pair', rng.choice(style.pairs)))
    counts = counts_of(k for shape, k in groups for k in _kinds_of(shape, k))
    return groups if max(counts) <= 4 else None


def _melds_of(rng: random.Random, groups, counts) -> tuple[list[Meld], list[tuple[str, int]]]:
    """Turn some sets into calls (each of its own type), in a random call order."""
    n_melds = rng.choices([0, 1, 2, 3, 4], [40, 20, 15, 13, 12])[0]
    sets = groups[:4]
    rng.shuffle(sets)
    melds = []
    for shape, k in sets[:n_melds]:
        if shape == 'run':
            melds.append(Meld('chi', k, k + rng.randrange(3)))
            continue
        types = ['pon'] * 5 + (['ankan', 'minkan', 'kakan'] * 2 if counts[k] == 3 else [])
        meld_type = rng.choice(types)
        if meld_type != 'pon':
            counts[k] += 1
        melds.append(Meld(meld_type, k, None if meld_type == 'ankan' else k))
    return melds, sets[n_melds:] + [groups[4]]


def _chiitoitsu_kinds(rng: random.Random) -> list[int]:
    pool = rng.choices([list(range(34)), list(range(9 * (s := rng.randrange(3)), 9 * s + 9)),
                        list(range(9 * s, 9 * s + 9)) + list(range(27, 34)), list(range(27, 34)),
                        list(range(10, 17)), list(range(9 + (r := rng.randrange(3)), 16 + r)),
                        list(YAOCHU), [k for k in range(27) if k % 9 not in (0, 8)]],
                       [40, 12, 12, 6, 6, 6, 8, 10])[0]
    return rng.sample(pool, 7) if len(pool) > 7 else list(pool)


def _shiisan_puutaa_kinds(rng: random.Random) -> list[int] | None:
    """13 kinds, no two of a suit within two ranks, one of them doubled (14 tiles)."""
    kinds = list(range(27, 34))
    for s in range(3):
        rank_sets = [(0, 3, 6), (0, 3, 7), (0, 3, 8), (0, 4, 7), (0, 4, 8), (0, 5, 8), (1, 4, 7),
                     (1, 4, 8), (1, 5, 8), (2, 5, 8)]
        kinds += [9 * s + r for r in rng.choice(rank_sets)]
    kinds = rng.sample(kinds, 13) if len(kinds) > 13 else kinds
    return kinds if len(kinds) == 13 else None


def random_win(rng: random.Random) -> Win:
    """A random winning hand (occasionally a 13-unconnected first draw) in a consistent situation."""
    kind = rng.choices(['standard', 'chiitoitsu', 'kokushi', 'chuuren', 'shiisan'], [82, 9, 3, 3, 3])[0]
    melds: list[Meld] = []
    shiisan = False
    if kind == 'standard':
        groups = None
        while groups is None:
            groups = _standard_shape(rng)
        counts = counts_of(k for shape, k in groups for k in _kinds_of(shape, k))
        melds, concealed_groups = _melds_of(rng, groups, counts)
        hand = [k for shape, k in concealed_groups for k in _kinds_of(shape, k)]
    elif kind == 'chiitoitsu':
        hand = [k for k in _chiitoitsu_kinds(rng) for _ in range(2)]
    elif kind == 'kokushi':
        hand = list(YAOCHU) + [rng.choice(YAOCHU)]
    elif kind == 'chuuren':
        base = 9 * rng.randrange(3)
        hand = [base + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + [base + rng.randrange(9)]
    else:
        kinds = None
        while kinds is None:
            kinds = _shiisan_puutaa_kinds(rng)
        hand = kinds + [rng.choice(kinds)]
        shiisan = True
    win_tile = hand.pop(rng.randrange(len(hand)))
    return _situation(rng, sorted(hand), melds, win_tile, shiisan)


def _situation(rng: random.Random, concealed, melds, win_tile, shiisan: bool) -> Win:
    closed = not any(m.type != 'ankan' for m in melds)
    has_kan = any(m.type in ('minkan', 'kakan', 'ankan') for m in melds)
    others = concealed + [k for m in melds for k in m.kinds()]
    seat = rng.choice([27, 27, SOUTH, SOUTH, WEST])
    first = shiisan or (not melds and rng.random() < 0.04)
    tsumo = (seat == 27 or shiisan or rng.random() < 0.5) if first else rng.random() < 0.5
    riichi = 0 if first or not closed else rng.choices([0, 1, 2], [60, 32, 8])[0]
    rinshan = not first and has_kan and tsumo and rng.random() < 0.3
    chankan = not first and not tsumo and win_tile not in others and rng.random() < 0.08
    haitei = not first and tsumo and not rinshan and rng.random() < 0.06
    houtei = not first and not tsumo and not chankan and rng.random() < 0.06
    n_indicators = min(5, 1 + sum(m.type in ('minkan', 'kakan', 'ankan') for m in melds)
                       + rng.choice([0] * 6 + [1, 2]))
    tiles = others + [win_tile]
    dora = [_indicator_for(rng, tiles) for _ in range(n_indicators)]
    ura = [_indicator_for(rng, tiles) for _ in range(n_indicators)]
    counts = counts_of(tiles)
    red = sum(1 for s in range(3) if counts[9 * s + 4] == 4 or counts[9 * s + 4] and rng.random() < 0.35)
    return Win(concealed=concealed, melds=melds, win_tile=win_tile, tsumo=tsumo, riichi=riichi,
               ippatsu=riichi > 0 and rng.random() < 0.25, rinshan=rinshan, chankan=chankan,
               haitei=haitei, houtei=houtei, first=first, dealer=seat == 27, seat_wind=seat,
               round_wind=rng.choice([27, SOUTH]), dora_indicators=dora, ura_indicators=ura, red=red,
               honba=rng.choice([0] * 6 + list(range(1, 9))),
               streak=rng.choice([0] * 20 + [7, 8, 9]), shiisan_puutaa=shiisan)


def _indicator_for(rng: random.Random, tiles) -> int:
    """Mostly the indicator of a tile held (so dora count), otherwise any kind."""
    if rng.random() < 0.75:
        return rng.randrange(34)
    target = rng.choice(tiles)
    return next(i for i in range(34) if dora_of(i) == target)

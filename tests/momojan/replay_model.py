"""An independent replay checker for MOMOJAN games, written from the specification
(../shared/rules/momojan.md, beside the project) and the readings docs/momojan.md settled, not from
the engine's rule logic.

:func:`check_game` walks one recorded game (the event log and the batch of round and game records
of ``Simulator.replay_events``) event by event, keeping its own model of the hands, revealed sets,
discards, stock, dead wall, dora, riichi, ippatsu, furiten, scores, ante and pot, and raises
AssertionError naming the event index and the spec section on the first thing the rules do not
allow. Hand shapes and waits come from the pure-Python reference (simcore/momojan/reference.py);
the scoring of a win (yaku, bonuses, doubling, the best reading) is this module's own, written
from spec §8 and §10 (the reference has no scorer).

What is checked
---------------
- §3 set-up: the round's dealer (the first from the game record, then by the win/pass rule), two
  hands of ``hand_size`` cards and a dora indicator that the deck holds; the non-dealer's ante
  (base + per_repeat x repeats); an ante that cannot be paid ends the game (the non-dealer loses).
  Every card drawn (stock, three-card draw, kan replacement) is one the deck still holds unseen;
  the stock holds deck - 2 hands - dead wall cards and no draw takes more.
- §4 turns: a turn starts with ron, Pon/Chi (old: open kan) on the opponent's last discard, a
  draw, or (empty stock, no call) the exhaustive draw. Kai only after the turn's draw, three-card
  draw or kan replacement, one set per Kai, the set's cards in hand (catalogue row = a set by
  the reference's predicates), at least one card left to discard; Pon/Chi only on the last
  discard, the row's other two cards in hand, Pon a same-number/picture set, Chi a run;
  draw-three only right after Kai/Pon/Chi, when enabled and the stock holds ``min_stock``; a
  discard of a card in hand ends the turn; between turns a hand holds 7/4/1 cards (from
  ``hand_size``) and never more than before; ``kai_optional: false`` forbids a discard or
  draw-three where a Kai is allowed and the hand holds a set.
- §7 riichi: declared with a discard by a player not in riichi, with ``riichi.enabled``, the stock
  holding ``riichi.min_stock``, the hand tenpai after the discard (reference.waits: a wait with a
  copy not all in the player's hand and sets); after it the player only draws and tsumos or
  discards the drawn card (no Pon, Chi, Kai, draw-three, kan). Ippatsu lives from the riichi
  discard to the player's next discard, lost when that discard is called (option).
- §5/§6 wins: tsumo on the turn's drawn card (after a one-card draw or kan replacement; after a
  three-card draw only with ``tsumo_after_draw_three``; right after a Kai only with
  ``win_right_after_kai`` and a card drawn this turn; never after a bare Pon/Chi); ron on the
  opponent's last discard at the start of the turn. Shape (>= 3 sets + one head), at least one
  yaku, and for a ron not furiten (a wait in one's own discards, called ones included; momo
  exempt both ways under ``furiten.momo_exempt``; ``declined_ron: riichi_rest_of_round``: a riichi
  player who let a winning discard pass may ron only momo). The event's hand mask and card.
  Wins are never required: the spec does not oblige the bots to take one.
- §8 scoring: the win event's points, and the round record's points, subtotal, doubled, dora,
  ron_bonus, set_bonus, sets, concealed sets and yaku bits, equal a best reading of the hand by
  this module's scorer (every decomposition, every reading of rank-1 stand-ins, the win card's
  place in it for kibidango); payments (the loser pays, the winner takes the pot).
- §9: the exhaustive draw (tenpai per the [I] definition, ``tenpai_requires_yaku``; set points,
  the higher scorer takes rounding(diff / 2), the pot to the receiver, the dealer passes), the
  round_end event and record, dealer repeat and repeat count, the game end (dealerships, dealer
  streak, oshimai, bust, unpayable ante, the round limit), the winner (points, tie-break, komi
  at the end) and the leftover pot; the start bonuses and a komi paid at the start.
- §10 old edition: kans (closed, open, added, with rank-1 stand-ins when allowed; one replacement
  draw from the dead wall each, at most dead_wall - 1), rinshan, set-count yaku, rank-1 readings.

Readings this model takes where the spec leaves a choice
-------------------------------------------------------
- ``tenpai_requires_yaku``: some wait scores a yaku by ron or by tsumo, with riichi as
  declared, without the moment's yaku (ippatsu, haitei, houtei, rinshan).
- ``declined_ron``: the riichi player "passes a winning discard" when the discard on offer at
  its turn's start would complete its hand with a yaku and it does not ron.
- Ittsu, sanshoku, yonshoku: an all-momo run may count as a run of any fruit; the kan yaku
  counts once however many kans; a kan of the four rank-r number cards reads as the number kan
  (the engine's documented reading); an added kan counts as the kind it was added to for the
  draw settlement and kibidango (docs/momojan.md), and as a kan in the record's kan columns.
- A round meeting several game ends at once may name any of them (the spec ranks none), with
  that end's winner.
- ``pot.carry_over: false``: an unclaimed pot goes back to the non-dealer who paid it (the spec
  does not say; the engine's reading).
- The ante cannot be paid when the non-dealer holds fewer points than it.
- The yaku bits mark the set-count slot whenever 4+ sets are held (bonus or yaku): an
  encoding of the records, not a rule.

Not checked: the luck and reach columns of the round record (not rules); whether a bot should
have won (never required); which of several equally good readings the engine reports (any best
reading is accepted).
"""
from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from itertools import combinations

import numpy as np

from simcore.momojan import reference as ref
from simcore.momojan.cards import (
    N_KINDS, N_NUMBER_KINDS, FIRST_PICTURE_KIND, card_str, format_cards, kinds_from_mask,
    mask_from_kinds,
)
from simcore.momojan.engine import EV_TYPES, GAME_FIELDS, ROUND_FIELDS
from simcore.momojan.schema import PICTURES, SET_BONUS_NAMES, YAKU
from tests.replay_checks import describe_event

(EV_ROUND_START, EV_DEAL, EV_DRAW, EV_DRAW_THREE, EV_KAI, EV_PON, EV_CHI, EV_KAN, EV_DISCARD,
 EV_TSUMO, EV_RON, EV_EXHAUSTIVE, EV_ROUND_END, EV_REPLACEMENT, EV_GAME_END) = (
    EV_TYPES.index(n) for n in (
        "round_start", "deal", "draw", "draw_three", "kai", "pon", "chi", "kan", "discard",
        "tsumo", "ron", "exhaustive", "round_end", "replacement", "game_end"))
KAN_CLOSED_KIND, KAN_OPEN_KIND, KAN_ADDED_KIND = 0, 1, 2
OUT_TSUMO, OUT_RON, OUT_DRAW = 0, 1, 2
END_REASONS = ("four_dealerships", "dealer_streak", "oshimai", "bust", "ante_unpayable",
               "round_limit")
ROUND_LIMIT = 200          # docs/momojan.md: a game stops after 200 rounds

# phases of a turn
START, AFTER_DRAW, AFTER_REVEAL, AFTER_DRAW3 = "start", "after draw", "after reveal", \
    "after draw-three"
YAKU_KEYS = tuple(YAKU)
SLOT = {k: i for i, k in enumerate(YAKU_KEYS)}
SLOT_SET_COUNT = len(YAKU_KEYS)
SLOT_NEW = SLOT_SET_COUNT + len(SET_BONUS_NAMES)
CALL_ORIGINS = ("pon", "chi", "kan_open")
KAI_ORIGINS = ("kai", "kan_closed")


def _num(k):
    return k < N_NUMBER_KINDS


def _fruit(k):
    return k // 9


def _rank(k):
    return k % 9 + 1


def cards_text(kinds):
    return format_cards(list(kinds)) or "-"


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------

class Rules:
    """The options the replay reads, from the scenario's data."""

    def __init__(self, sc):
        d = sc.to_dict()
        self.d = d
        self.hr = sc.hand_rules
        self.deck = ref.deck_counts(self.hr)
        self.n_cards = sum(self.deck)
        self.hand_size = int(d["hand_size"])
        self.dead_wall = int(d["dead_wall"])
        self.stock0 = self.n_cards - 2 * self.hand_size - self.dead_wall
        self.ranks = int(d["deck"]["ranks"])
        self.momo_wild = d["deck"]["wild_fruit"] == "momo"
        self.subs = tuple(PICTURES.index(p) for p in d["deck"]["rank1_substitutes"])
        self.start = int(d["starting_points"])
        comp = d["compensation"]
        self.bonus_first = int(comp["start_bonus"]["first_dealer"])
        self.bonus_second = int(comp["start_bonus"]["second_dealer"])
        self.komi = int(comp["komi"])
        self.komi_at = comp["komi_at"]
        self.ante_base = int(d["ante"]["base"])
        self.ante_per = int(d["ante"]["per_repeat"])
        self.d3_enabled = bool(d["draw_three"]["enabled"])
        self.d3_min = int(d["draw_three"]["min_stock"])
        self.tsumo_after_d3 = bool(d["tsumo_after_draw_three"])
        self.win_after_kai = bool(d["win_right_after_kai"])
        self.kai_optional = bool(d["kai_optional"])
        r = d["riichi"]
        self.riichi_enabled = bool(r["enabled"])
        self.riichi_min_stock = int(r["min_stock"])
        self.ippatsu_lost_on_call = bool(r["ippatsu_lost_on_call"])
        f = d["furiten"]
        self.furiten = bool(f["enabled"])
        self.momo_exempt = bool(f["momo_exempt"])
        self.declined_ron = f["declined_ron"]
        x = d["exhaustive_draw"]
        self.kai_pts = int(x["kai_set_points"])
        self.call_pts = int(x["call_set_points"])
        self.rounding = x["rounding"]
        self.tenpai_yaku = bool(x["tenpai_requires_yaku"])
        g = d["game"]
        self.dealerships = int(g["dealerships_each"])
        self.streak_win = int(g["dealer_streak_win"])
        self.bust_below = int(g["bust_below"])
        self.tie_break = g["tie_break"]
        self.leftover = g["leftover_pot"]
        self.carry_over = bool(d["pot"]["carry_over"])
        s = d["scoring"]
        self.double_at = int(s["double_threshold"])
        self.double_factor = int(s["double_factor"])
        self.dora_per = int(s["dora_per_card"])
        self.ron_bonus = int(s["ron_bonus"])
        self.set_bonus = [int(s["set_count_bonus"][k]) for k in SET_BONUS_NAMES]
        self.set_is_yaku = bool(s["set_count_is_yaku"])
        y = s["yaku"]
        self.yaku = y
        self.on = {k: bool(y[k]["enabled"]) for k in YAKU_KEYS}
        self.pts = {k: int(y[k]["points"]) for k in YAKU_KEYS}
        self.kibi_kai = bool(y["kibidango"]["kai_counts_as_call"])
        self.kibi_ron_set = bool(y["kibidango"]["ron_may_complete_set"])
        self.oshimai_ends = bool(y["oshimai"].get("ends_game", True))
        # picture-set yaku (data): (slot, key, [(allowed pictures, kan only)])
        self.data_yaku = []
        new = [k for k in y if k not in YAKU]
        for slot, key in [(SLOT[k], k) for k in YAKU_KEYS] + [
                (SLOT_NEW + j, k) for j, k in enumerate(new)]:
            v = y[key]
            if "sets_of" not in v:
                continue
            reqs = []
            for lst, kan_only in ((v.get("sets_of"), False), (v.get("kans_of"), True)):
                for req in lst or ():
                    names = req if isinstance(req, list) else [req]
                    reqs.append((frozenset(PICTURES.index(n) for n in names), kan_only))
            self.data_yaku.append((slot, key, reqs, bool(v["enabled"]), int(v["points"])))
        k = d["kan"]
        self.kan = bool(k["enabled"])
        self.kan_closed, self.kan_open, self.kan_added = bool(k["closed"]), bool(k["open"]), \
            bool(k["added"])
        self.stand_ins = bool(k["rank1_stand_ins"])

    def dora_of(self, indicator):
        """(dora rank or None, dora picture or None) for an indicator card (spec §8)."""
        if _num(indicator):
            return _rank(indicator) % self.ranks + 1, None
        p = indicator - FIRST_PICTURE_KIND
        return None, {0: 1, 1: 2, 2: 0, 3: 4, 4: 3}[p]

    def stands_for(self, k, p):
        if not _num(k):
            return k - FIRST_PICTURE_KIND == p
        return _rank(k) == 1 and p in self.subs


# ---------------------------------------------------------------------------------------------
# Scoring (spec §8, §10), this module's own
# ---------------------------------------------------------------------------------------------

def _run_fruit(cards, momo_wild):
    """The fruit of a run: the one non-momo fruit, or None for an all-momo run (wild)."""
    fr = {_fruit(k) for k in cards}
    if momo_wild:
        fr.discard(0)
        return next(iter(fr)) if fr else None
    return next(iter(fr))


def set_readings(cards, rules: Rules):
    """Every reading of a 3-card set: ('run', fruit|None, low rank), ('same', rank),
    ('pic', p). Each with the card identities: ('n', kind) or ('p', p)."""
    out = []
    cards = tuple(sorted(cards))
    if ref.is_run(list(cards), rules.hr):
        out.append((("run", _run_fruit(cards, rules.momo_wild), min(_rank(k) for k in cards)),
                    tuple(("n", k) for k in cards)))
    if all(_num(k) for k in cards) and len({_rank(k) for k in cards}) == 1:
        out.append((("same", _rank(cards[0])), tuple(("n", k) for k in cards)))
    for p in range(5):
        if all(rules.stands_for(k, p) for k in cards):
            out.append((("pic", p), tuple(("p", p) for _ in cards)))
    return out


def head_readings(cards, rules: Rules):
    a, b = sorted(cards)
    out = []
    if _num(a) and _num(b) and _rank(a) == _rank(b):
        out.append((("nhead",), (("n", a), ("n", b))))
    for p in range(5):
        if rules.stands_for(a, p) and rules.stands_for(b, p):
            out.append((("phead", p), (("p", p), ("p", p))))
    return out


def kan_readings(cards, rules: Rules):
    """A kan's reading: four rank-r number cards are the number kan; else a picture kan of a
    picture it holds a real copy of, the rest standing in (docs/momojan.md, §10)."""
    cards = sorted(cards)
    if all(_num(k) for k in cards):
        if len({_rank(k) for k in cards}) == 1 and len(set(cards)) == 4:
            return [(("same", _rank(cards[0])), tuple(("n", k) for k in cards))]
        return []
    out = []
    for p in range(5):
        if any(k == FIRST_PICTURE_KIND + p for k in cards) and all(
                rules.stands_for(k, p) if _num(k) else k == FIRST_PICTURE_KIND + p
                for k in cards):
            if any(_num(k) for k in cards) and not rules.stand_ins:
                continue
            out.append((("pic", p), tuple(("p", p) for _ in cards)))
    return out


@lru_cache(maxsize=1 << 16)
def _decomps(cards: tuple, need_head: bool, hr) -> tuple:
    """Every split of the sorted cards into sets (and one head): tuples of groups, each a sorted
    tuple of kinds, the head first when there is one."""
    if not cards:
        return ((),) if not need_head else ()
    out = set()
    first, rest = cards[0], cards[1:]
    for i, j in combinations(range(len(rest)), 2):
        trip = (first, rest[i], rest[j])
        if ref.is_set(list(trip), hr):
            left = tuple(c for n, c in enumerate(rest) if n not in (i, j))
            for d in _decomps(left, need_head, hr):
                if need_head:
                    out.add((d[0],) + tuple(sorted(d[1:] + (trip,))))
                else:
                    out.add(tuple(sorted(d + (trip,))))
    if need_head:
        for i in range(len(rest)):
            if ref.is_head([first, rest[i]], hr):
                left = tuple(c for n, c in enumerate(rest) if n != i)
                for d in _decomps(left, False, hr):
                    out.add(((first, rest[i]),) + d)
    return tuple(sorted(out))


class Scorer:
    def __init__(self, rules: Rules):
        self.r = rules

    def best(self, concealed, win_card, revealed, ron, riichi, ippatsu, last, rinshan,
             indicator):
        """The best valid readings of a win: (best points, [result dicts of every reading that
        scores them]); (None, reason) when no reading is a valid win. ``concealed`` holds the
        win card; ``revealed`` is a list of (cards, origin)."""
        r = self.r
        cards = tuple(sorted(concealed))
        if len(cards) % 3 != 2:
            return None, f"{len(cards)} concealed cards with the win card cannot be sets + head"
        n_conc_sets = (len(cards) - 2) // 3
        n_sets = n_conc_sets + len(revealed)
        if n_sets < 3:
            return None, f"{n_sets} sets (at least 3, §5)"
        decs = _decomps(cards, True, r.hr)
        if not decs:
            return None, "not sets + one head (§5)"
        dora = r.dora_of(indicator)
        rev_readings = []
        for cs, origin in revealed:
            rd = kan_readings(cs, r) if len(cs) == 4 else set_readings(cs, r)
            assert rd, f"revealed group {cards_text(cs)} has no reading"
            rev_readings.append([(x, ids, origin, len(cs) == 4) for x, ids in rd])
        results = []
        for dec in decs:
            head, sets = dec[0], dec[1:]
            # where the win card sits (kibidango)
            places = [i for i, g in enumerate(dec) if win_card in g] if ron else [-1]
            for hrd in head_readings(head, r):
                for srd in _product([set_readings(s, r) for s in sets]):
                    for rvd in _product(rev_readings):
                        for place in places:
                            res = self._evaluate(hrd, srd, rvd, place, ron, riichi, ippatsu,
                                                 last, rinshan, dora, n_sets, n_conc_sets)
                            if res is not None:
                                results.append(res)
        if not results:
            return None, "no yaku (§5)"
        top = max(x["points"] for x in results)
        return top, [x for x in results if x["points"] == top]

    def _evaluate(self, hrd, srd, rvd, place, ron, riichi, ippatsu, last, rinshan, dora,
                  n_sets, n_conc_sets):
        r = self.r
        # the sets: (reading, origin, is_kan); the win card's place: 0 head, i>0 concealed set i-1
        sets = [(x, "concealed", False) for x, _ in srd] + \
            [(x, origin, kan) for x, _, origin, kan in rvd]
        ids = list(hrd[1]) + [c for _, cs in srd for c in cs] + [c for _, cs, _, _ in rvd
                                                                  for c in cs]
        yaku = {}

        def give(key, cond, slot=None):
            if cond and r.on[key]:
                yaku[SLOT[key] if slot is None else slot] = r.pts[key]

        give("riichi", riichi)
        give("ippatsu", ippatsu)
        runs = [x for x, _, _ in sets if x[0] == "run"]
        pic_sets = [(x[1], kan) for x, _, kan in sets if x[0] == "pic"]
        for slot, key, reqs, enabled, points in r.data_yaku:
            if enabled and _match(reqs, pic_sets):
                yaku[slot] = points
        give("ittsu", any(_ittsu_distinct(runs, f) for f in range(4)))
        if ron and r.on["kibidango"]:
            called = CALL_ORIGINS + (KAI_ORIGINS if r.kibi_kai else ())
            rev_ok = all(_base_origin(o) in called for _, _, o, _ in rvd)
            if n_conc_sets == 0:
                conc_ok = True
            else:
                conc_ok = r.kibi_ron_set and n_conc_sets == 1 and place >= 1
            give("kibidango", rev_ok and conc_ok)
        nums = [c for t, c in ids if t == "n"]
        all_num = len(nums) == len(ids)
        fruits = {_fruit(k) for k in nums}
        if r.momo_wild:
            fruits.discard(0)
        give("chinitsu", all_num and len(fruits) <= 1)
        give("tanyao", all_num and all(2 <= _rank(k) <= 8 for k in nums))
        give("toitoi", not runs)
        give("sanshoku", any(_fruit_match([x[1] for x in runs if x[2] == lo], 3)
                             for lo in range(1, 8)))
        give("honitsu", (not all_num) and len(fruits) <= 1 and bool(nums))
        give("haitei", last and not ron and not rinshan)
        give("houtei", last and ron)
        give("kan", any(kan for _, _, kan in sets))
        give("rinshan", rinshan)
        give("yonshoku", any(_fruit_match([x[1] for x in runs if x[2] == lo], 4)
                             for lo in range(1, 8)))
        sc_index = min(n_sets, 7) - 4
        set_bonus = 0
        if sc_index >= 0:
            if r.set_is_yaku:
                yaku[SLOT_SET_COUNT + sc_index] = r.set_bonus[sc_index]
            else:
                set_bonus = r.set_bonus[sc_index]
        if not yaku:
            return None
        drank, dpic = dora
        n_dora = sum(1 for t, c in ids if (t == "n" and _rank(c) == drank)
                     or (t == "p" and c == dpic))
        dora_bonus = n_dora * r.dora_per
        ron_bonus = r.ron_bonus if ron else 0
        subtotal = sum(yaku.values()) + dora_bonus + ron_bonus + set_bonus
        doubled = subtotal >= r.double_at
        points = subtotal * r.double_factor if doubled else subtotal
        bits = sum(1 << s for s in yaku)
        if sc_index >= 0:      # the records mark the set-count slot as scored, bonus or yaku
            bits |= 1 << (SLOT_SET_COUNT + sc_index)
        return {"points": points, "subtotal": subtotal, "doubled": int(doubled),
                "dora": dora_bonus, "ron_bonus": ron_bonus, "set_bonus": set_bonus,
                "bits": bits, "sets": n_sets, "concealed_sets": n_conc_sets,
                "oshimai": any(s == SLOT["oshimai"] for s in yaku)}


def _base_origin(origin):
    """An added kan counts as the kind of set it was added to (docs/momojan.md)."""
    return origin[len("added_"):] if origin.startswith("added_") else origin


def _product(lists):
    out = [()]
    for lst in lists:
        out = [o + (x,) for o in out for x in lst]
    return out


def _fruit_ok(run_fruit, f):
    return run_fruit is None or run_fruit == f


def _ittsu_distinct(runs, f):
    """Three distinct runs 123, 456, 789 of fruit f (an all-momo run fits any fruit)."""
    for lo in (1, 4, 7):
        if not any(x[2] == lo and _fruit_ok(x[1], f) for x in runs):
            return False
    return True


def _fruit_match(run_fruits, need):
    """``need`` runs of distinct fruits among these (an all-momo run takes any fruit)."""
    fixed = [f for f in run_fruits if f is not None]
    wild = len(run_fruits) - len(fixed)
    return len(set(fixed)) + wild >= need and len(run_fruits) >= need


def _match(reqs, pic_sets):
    """Each requirement met by a distinct picture set (kans_of: only by a kan)."""
    def go(i, used):
        if i == len(reqs):
            return True
        allowed, kan_only = reqs[i]
        for j, (p, kan) in enumerate(pic_sets):
            if j not in used and p in allowed and (kan or not kan_only):
                if go(i + 1, used | {j}):
                    return True
        return False
    return go(0, frozenset())


# ---------------------------------------------------------------------------------------------
# The replay
# ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def set_catalogue(hr):
    """The set rows of Kai/Pon/Chi events (an encoding, not a rule): every set (sorted kinds) of
    the 36 number cards and the deck's picture copies, sorted. That the row's cards are in the
    deck is checked where they are drawn."""
    copies = [1] * N_NUMBER_KINDS + list(hr.picture_copies)
    return [t for t in sorted(ref._sets_and_heads(hr)[0])
            if all(t.count(k) <= copies[k] for k in set(t))]


class Seat:
    def __init__(self, hand):
        self.hand = Counter(hand)
        self.rev = []            # [cards list, origin]
        self.discards = []       # kinds, in order (called ones included: §6)
        self.riichi = False
        self.ippatsu = False
        self.riichi_furiten = False
        self.draw3 = 0
        self.size_between = None

    def hand_list(self):
        return sorted(self.hand.elements())

    def n_hand(self):
        return sum(self.hand.values())

    def rev_cards(self):
        return [k for cs, _ in self.rev for k in cs]

    def revealed(self):
        return [(tuple(cs), o) for cs, o in self.rev]


class Replay:
    def __init__(self, sc, events, batch, game_index=None):
        self.r = Rules(sc)
        self.scorer = Scorer(self.r)
        self.events = np.asarray(events).astype(np.int64).tolist()
        self.rounds = np.asarray(batch.rounds)
        self.games = np.asarray(batch.games)
        self.game_row = 0 if game_index is None else game_index
        self.pos = 0
        self.cur = 0           # the index of the event being checked
        self.where = "game start"
        self.rows = set_catalogue(self.r.hr)
        self.stats = Counter()  # what the replay met (the tests show the checks were reached)

    # ---- the cursor ---------------------------------------------------------------------------
    def fail(self, msg):
        raise AssertionError(f"[{self.where}, event {self.cur}] {msg}")

    def check(self, cond, msg):
        if not cond:
            self.fail(msg)

    def peek(self):
        return self.events[self.pos] if self.pos < len(self.events) else None

    def describe(self, e):
        return describe_event(e, EV_TYPES)

    def take(self, types, what=""):
        e = self.peek()
        if e is None or e[0] not in types:
            self.fail(f"expected {'/'.join(EV_TYPES[t] for t in types)} {what}, got "
                      f"{self.describe(e)}")
        self.cur = self.pos
        self.pos += 1
        return e

    # ---- cards --------------------------------------------------------------------------------
    def fresh(self, k, what):
        """A card drawn from the stock or dead wall: the deck must still hold an unseen copy."""
        self.check(0 <= k < N_KINDS, f"{what}: {k} is no card (§1)")
        self.check(self.seen[k] < self.r.deck[k],
                   f"{what}: {card_str(k)}, but the deck's {self.r.deck[k]} cop(ies) are all "
                   f"in sight already (hands, sets, discards, indicator) (§1, §3)")
        self.seen[k] += 1

    def wins_of(self, seat: Seat, hand):
        """The reference's waits of a 7/4/1 hand (the [I] tenpai of §2)."""
        return ref.waits(hand, seat.rev_cards(), len(seat.rev), self.r.hr)

    def score(self, seat: Seat, concealed, win_card, ron, ippatsu, last, rinshan):
        return self.scorer.best(concealed, win_card, seat.revealed(), ron, seat.riichi, ippatsu,
                                last, rinshan, self.indicator)

    def furiten(self, seat: Seat, hand):
        """§6: a current winning card (momo apart, if exempt) in one's own discards."""
        if not self.r.furiten:
            return False
        ws = self.wins_of(seat, hand)
        return any(w in seat.discards and not (self.r.momo_exempt and _num(w) and _fruit(w) == 0)
                   for w in ws)

    def ron_legal(self, s, card):
        """(legal, why not, score) of seat s ronning ``card`` now."""
        seat = self.seats[s]
        hand = seat.hand_list()
        best = self.score(seat, hand + [card], card, True, seat.ippatsu, self.last_was_empty,
                          False)
        if best[0] is None:
            return False, best[1], best
        momo = self.r.momo_exempt and _num(card) and _fruit(card) == 0
        if not momo and self.furiten(seat, hand):
            return False, (f"furiten (§6): waits {cards_text(self.wins_of(seat, hand))}, own "
                           f"discards {cards_text(seat.discards)}"), best
        if not momo and self.r.furiten and seat.riichi_furiten:
            return False, ("furiten after a passed winning discard in riichi (§6 "
                           "declined_ron: riichi_rest_of_round)"), best
        return True, None, best

    def has_kai(self, seat: Seat):
        hand = seat.hand
        for t in self.rows:
            need = Counter(t)
            if all(hand[k] >= n for k, n in need.items()):
                return True
        return False

    # ---- the game -----------------------------------------------------------------------------
    def run(self):
        r = self.r
        self.check(self.games.ndim == 2 and self.games.shape[1] == len(GAME_FIELDS),
                   f"batch.games has shape {self.games.shape}")
        game = dict(zip(GAME_FIELDS, (int(v) for v in self.games[self.game_row])))
        self.check(self.rounds.ndim == 2 and self.rounds.shape[1] == len(ROUND_FIELDS),
                   f"batch.rounds has shape {self.rounds.shape}")
        rec_rows = [dict(zip(ROUND_FIELDS, (int(v) for v in row))) for row in self.rounds]
        first = self.peek()
        self.check(first is not None and first[0] == EV_ROUND_START,
                   f"the events start with {self.describe(first)}, not round_start")
        fd = first[1]
        self.check(fd in (0, 1), f"first dealer {fd} is no seat")
        self.check(game["first_dealer"] == fd,
                   f"game record first_dealer {game['first_dealer']}, first round_start {fd}")
        game_index = rec_rows[0]["game"] if rec_rows else None
        self.scores = [r.start, r.start]
        self.scores[fd] += r.bonus_first
        self.scores[1 - fd] += r.bonus_second
        if r.komi_at == "start":
            self.scores[fd] -= r.komi
            self.scores[1 - fd] += r.komi
        self.pot = 0
        dealer, repeat, passes, rnd = fd, 0, 0, 0
        while True:
            self.where = f"round {rnd} (dealer {dealer}, repeat {repeat})"
            ante = r.ante_base + r.ante_per * repeat
            if self.scores[1 - dealer] < ante:
                reason = "ante_unpayable"
                winner = dealer
            else:
                gap = self.scores[0] - self.scores[1]
                self.scores[1 - dealer] -= ante
                self.pot += ante
                out = self.play_round(dealer)
                self.check(rnd < len(rec_rows),
                           f"batch.rounds has {len(rec_rows)} rows, round {rnd} was played")
                self.check_round_record(rec_rows[rnd], out, game_index, rnd, dealer, repeat, gap)
                rnd += 1
                dealer_won = out["outcome"] != OUT_DRAW and out["winner"] == dealer
                if dealer_won:
                    repeat += 1
                else:
                    passes += 1
                    dealer, repeat = 1 - dealer, 0
                # §9 game end. A round may meet several conditions at once (a dealer's fifth
                # win that busts the opponent): the spec ranks none, so any that applies is
                # accepted, with that condition's winner.
                ends = []
                if dealer_won and r.streak_win and repeat >= r.streak_win:
                    ends.append(("dealer_streak", out["winner"]))
                if min(self.scores) < r.bust_below:
                    busted = [s for s in (0, 1) if self.scores[s] < r.bust_below]
                    ends.append(("bust", 1 - busted[0] if len(busted) == 1 else None))
                if out.get("oshimai") and r.oshimai_ends:
                    ends.append(("oshimai", None))
                if passes >= 2 * r.dealerships:
                    ends.append(("four_dealerships", None))
                if rnd >= ROUND_LIMIT:
                    ends.append(("round_limit", None))
                if not ends:
                    continue          # the next round_start is taken (or the ante is unpayable)
                nxt = self.peek()
                reason, winner = ends[0]
                if nxt is not None and nxt[0] == EV_GAME_END:
                    for reason_, winner_ in ends:
                        if 0 <= nxt[2] < len(END_REASONS) and END_REASONS[nxt[2]] == reason_:
                            reason, winner = reason_, winner_
            self.stats[f"game end {reason}"] += 1
            self.finish_game(game, reason, winner, rnd, fd)
            return

    def finish_game(self, game, reason, winner, rounds, fd):
        r = self.r
        self.where = f"game end ({reason})"
        e = self.take((EV_GAME_END,), f"(the game ends: {reason})")
        final = list(self.scores)
        if winner is None:
            pts = list(final)
            if r.komi_at == "end":
                pts[1 - fd] += r.komi
            if pts[0] != pts[1]:
                winner = 0 if pts[0] > pts[1] else 1
            else:
                winner = {"first_dealer": fd, "second_dealer": 1 - fd, "draw": -1}[r.tie_break]
        pot_left = self.pot
        if r.leftover == "winner" and winner >= 0:
            final[winner] += pot_left
        self.check(e[2] == END_REASONS.index(reason),
                   f"game_end reason {END_REASONS[e[2]] if 0 <= e[2] < 6 else e[2]}, expected "
                   f"{reason} (§9; scores {self.scores}, pot {self.pot})")
        self.check(e[1] == winner, f"game_end winner {e[1]}, expected {winner} (§9 winner; "
                                   f"reason {reason}, scores {self.scores}, pot {pot_left})")
        self.check([e[3], e[4]] == final, f"game_end scores {[e[3], e[4]]}, expected {final} "
                                          f"(§9: a pot left over goes to the winner)")
        self.check(e[5] == pot_left, f"game_end leftover pot {e[5]}, expected {pot_left}")
        self.check(self.pos == len(self.events),
                   f"{len(self.events) - self.pos} events after game_end")
        self.check(len(self.rounds) == rounds,
                   f"batch.rounds has {len(self.rounds)} rows, {rounds} rounds were played")
        want = {"winner": winner, "end_reason": END_REASONS.index(reason), "rounds": rounds,
                "score0": final[0], "score1": final[1], "first_dealer": fd,
                "pot_left": pot_left}
        for k, v in want.items():
            self.check(game[k] == v, f"game record {k} = {game[k]}, expected {v} "
                                     f"(record {game})")

    def check_round_record(self, rec, out, game_index, rnd, dealer, repeat, gap):
        win = out.get("win")
        want = {"game": game_index, "round": rnd, "dealer": dealer, "repeat": repeat,
                "outcome": out["outcome"], "winner": out["winner"],
                "turns": out["turns"], "stock_left": out["stock"],
                "pot": self.pot, "score0": self.scores[0], "score1": self.scores[1],
                "gap_before": gap, "draw_payment": out.get("draw_payment", 0)}
        for s in (0, 1):
            seat = self.seats[s]
            kinds = Counter("kan" if o.startswith(("kan", "added_")) else o for _, o in seat.rev)
            for key in ("kai", "pon", "chi", "kan"):
                want[f"{key}{s}"] = kinds[key]
            want[f"draw3_{s}"] = seat.draw3
            want[f"riichi{s}"] = int(seat.riichi)
            want[f"tenpai{s}"] = out.get("tenpai", [0, 0])[s]
        if win is None:
            want.update(points=0, subtotal=0, doubled=0, dora=0, ron_bonus=0, set_bonus=0,
                        sets=0, winner_concealed_sets=0, yaku_bits=0)
        for k, v in want.items():
            self.check(rec[k] == v, f"round record {k} = {rec[k]}, expected {v} (record {rec})")
        if win is not None:
            got = (rec["points"], rec["subtotal"], rec["doubled"], rec["dora"], rec["ron_bonus"],
                   rec["set_bonus"], rec["sets"], rec["winner_concealed_sets"], rec["yaku_bits"])
            options = [(x["points"], x["subtotal"], x["doubled"], x["dora"], x["ron_bonus"],
                        x["set_bonus"], x["sets"], x["concealed_sets"], x["bits"]) for x in win]
            self.check(got in options,
                       "round record (points, subtotal, doubled, dora, ron_bonus, set_bonus, "
                       f"sets, concealed sets, yaku_bits) = {got}, expected one of {options} "
                       "(§8)")

    # ---- a round ------------------------------------------------------------------------------
    def play_round(self, dealer):
        r = self.r
        base = self.where
        e = self.take((EV_ROUND_START,))
        self.check(e[1] == dealer, f"round_start dealer {e[1]}, expected {dealer} (§9)")
        self.indicator = ind = e[2]
        self.check(0 <= ind < N_KINDS and r.deck[ind] > 0, f"dora indicator {ind} not in the deck")
        hands = [kinds_from_mask(e[3]), kinds_from_mask(e[4])]
        self.seen = Counter()
        for k in hands[0] + hands[1] + [ind]:
            self.seen[k] += 1
        for k, n in self.seen.items():
            self.check(n <= r.deck[k], f"the deal holds {n} x {card_str(k)}, the deck "
                                       f"{r.deck[k]} (§1, §3)")
        for s in (0, 1):
            self.check(len(hands[s]) == r.hand_size,
                       f"seat {s} is dealt {len(hands[s])} cards, not {r.hand_size} (§3)")
        self.seats = [Seat(hands[0]), Seat(hands[1])]
        for seat in self.seats:
            seat.size_between = r.hand_size
        self.stock = r.stock0
        self.replacements = r.dead_wall - 1
        self.last_discard = None          # (kind, discarder) on offer to the next seat
        self.last_was_empty = False
        turns = 0
        s = dealer
        while True:
            self.where = f"{base}, turn {turns + 1} (seat {s})"
            seat, opp = self.seats[s], self.seats[1 - s]
            turns += 1
            e = self.take((EV_RON, EV_PON, EV_CHI, EV_KAN, EV_DRAW, EV_EXHAUSTIVE),
                          "at a turn's start (§4)")
            if e[0] != EV_EXHAUSTIVE:
                self.check(e[1] == s, f"seat {e[1]} acts, it is seat {s}'s turn (§4)")
            on_offer = self.last_discard is not None and self.last_discard[1] == 1 - s
            # declined ron in riichi (§6 [I])
            if (e[0] != EV_RON and on_offer and seat.riichi
                    and r.declined_ron == "riichi_rest_of_round"):
                legal_shape = self.score(seat, seat.hand_list() + [self.last_discard[0]],
                                         self.last_discard[0], True, seat.ippatsu,
                                         self.last_was_empty, False)[0] is not None
                if legal_shape:
                    self.stats["riichi player passes a winning discard"] += 1
                    seat.riichi_furiten = True
            if e[0] == EV_RON:
                self.check(on_offer, "ron with no opponent's discard on offer (§5)")
                card = self.last_discard[0]
                self.check(e[2] == card, f"ron card {card_str(e[2])}, the discard on offer is "
                                         f"{card_str(card)}")
                ok, why, best = self.ron_legal(s, card)
                self.check(ok, f"seat {s} rons {card_str(card)} with "
                               f"{cards_text(seat.hand_list())} + sets "
                               f"{[cards_text(c) for c, _ in seat.revealed()]}: {why}")
                self.check(e[4] == mask_from_kinds(seat.hand_list() + [card]),
                           f"ron hand mask {cards_text(kinds_from_mask(e[4]))}, the hand + card "
                           f"is {cards_text(seat.hand_list() + [card])}")
                self.stats["ron"] += 1
                if seat.ippatsu:
                    self.stats["ippatsu ron"] += 1
                if self.furiten(seat, seat.hand_list()) or seat.riichi_furiten:
                    self.stats["ron on momo while furiten"] += 1
                return self.settle_win(s, e, best, ron=True, turns=turns, dealer=dealer)
            if e[0] == EV_EXHAUSTIVE:
                self.check(self.stock == 0, f"exhaustive draw with {self.stock} cards in the "
                                            "stock (§9)")
                return self.settle_draw(e, dealer, turns)
            if e[0] in (EV_PON, EV_CHI):
                kind = "pon" if e[0] == EV_PON else "chi"
                self.check(on_offer, f"{kind} with no opponent's discard on offer (§4)")
                self.check(not seat.riichi, f"{kind} by seat {s} in riichi (§7)")
                card = self.last_discard[0]
                self.check(e[3] == card, f"{kind} of {card_str(e[3])}, the discard on offer is "
                                         f"{card_str(card)}")
                self.check(0 <= e[2] < len(self.rows), f"{kind} row {e[2]} is no set row")
                row = list(self.rows[e[2]])
                self.check(card in row, f"{kind} row {cards_text(row)} lacks the called card")
                is_run = ref.is_run(row, r.hr)
                self.check(is_run == (kind == "chi"),
                           f"{kind} of {cards_text(row)}: a {'run' if is_run else 'non-run'} "
                           "(§2: Pon same-number/picture, Chi a run)")
                rest = list(row)
                rest.remove(card)
                self.check(seat.n_hand() >= 3, f"{kind} from a hand of {seat.n_hand()} (§4: "
                                                "two cards and one to discard)")
                self.take_from_hand(seat, rest, kind)
                seat.rev.append([row, kind])
                self.called()
                self.last_reveal = kind
                phase, drawn = AFTER_REVEAL, None
            elif e[0] == EV_KAN:
                self.check(e[3] == KAN_OPEN_KIND, f"kan of kind {e[3]} at a turn's start: only "
                                                  "an open kan calls (§10)")
                self.check(r.kan and r.kan_open, "open kan while the scenario has none (§10)")
                self.check(on_offer, "open kan with no opponent's discard on offer (§10)")
                self.check(not seat.riichi, f"kan by seat {s} in riichi (docs: no kan in riichi)")
                card = self.last_discard[0]
                from_hand = kinds_from_mask(e[5])
                self.check(len(from_hand) == 3, f"open kan takes {len(from_hand)} hand cards")
                group = sorted(from_hand + [card])
                self.check(kan_readings(group, r),
                           f"open kan {cards_text(group)} is no kan group (§10)")
                self.check(e[4] == len(seat.rev), f"open kan group index {e[4]}, expected "
                                                  f"{len(seat.rev)}")
                self.take_from_hand(seat, from_hand, "open kan")
                seat.rev.append([group, "kan_open"])
                self.called()
                drawn = self.replacement(s)
                phase = AFTER_DRAW
                self.stats["kan open"] += 1
            else:   # draw
                self.check(self.stock > 0, "a draw from an empty stock (§9)")
                self.fresh(e[2], f"seat {s} draws")
                seat.hand[e[2]] += 1
                self.stock -= 1
                drawn = (e[2], "stock", self.stock == 0)
                phase = AFTER_DRAW
                self.last_reveal = None
            # ---- the rest of the turn
            while True:
                e = self.take((EV_TSUMO, EV_KAI, EV_KAN, EV_DRAW_THREE, EV_DISCARD),
                              f"within seat {s}'s turn ({phase})")
                self.check(e[1] == s, f"seat {e[1]} acts within seat {s}'s turn")
                if e[0] == EV_TSUMO:
                    self.check(drawn is not None, "tsumo with no card drawn this turn (§4)")
                    if phase == AFTER_DRAW3:
                        self.check(r.tsumo_after_d3, "tsumo after a three-card draw while "
                                                     "tsumo_after_draw_three is false (§4 [I])")
                    elif phase == AFTER_REVEAL:
                        self.check(r.win_after_kai and self.last_reveal == "kai",
                                   "tsumo right after a "
                                   f"{self.last_reveal} (§4 [I] win_right_after_kai "
                                   f"{r.win_after_kai})")
                    self.check(e[2] == drawn[0], f"tsumo card {card_str(e[2])}, the card drawn "
                                                 f"this turn is {card_str(drawn[0])}")
                    hand = seat.hand_list()
                    self.check(e[4] == mask_from_kinds(hand), f"tsumo hand mask "
                               f"{cards_text(kinds_from_mask(e[4]))}, the hand is "
                               f"{cards_text(hand)}")
                    best = self.score(seat, hand, drawn[0], False, seat.ippatsu,
                                      drawn[1] != "replacement" and drawn[2],
                                      drawn[1] == "replacement")
                    self.check(best[0] is not None, f"tsumo by seat {s} with {cards_text(hand)} "
                               f"+ sets {[cards_text(c) for c, _ in seat.revealed()]}: "
                               f"{best[1]}")
                    self.stats[f"tsumo {phase}"] += 1
                    if drawn[1] == "replacement":
                        self.stats["tsumo on a replacement"] += 1
                    if seat.ippatsu:
                        self.stats["ippatsu tsumo"] += 1
                    return self.settle_win(s, e, best, ron=False, turns=turns, dealer=dealer)
                if e[0] == EV_KAI:
                    self.check(phase in (AFTER_DRAW, AFTER_DRAW3),
                               f"Kai {phase}: only after the turn's draw, three-card draw or "
                               "replacement, one set per Kai (§4)")
                    self.check(not seat.riichi, "Kai in riichi (§7)")
                    self.check(0 <= e[2] < len(self.rows), f"Kai row {e[2]} is no set row")
                    row = list(self.rows[e[2]])
                    self.check(seat.n_hand() >= 4, f"Kai from a hand of {seat.n_hand()}: nothing "
                                                   "left to discard (§4)")
                    self.take_from_hand(seat, row, "Kai")
                    seat.rev.append([row, "kai"])
                    phase = AFTER_REVEAL
                    self.last_reveal = "kai"
                    if r.win_after_kai and drawn is not None:
                        self.note_tsumo_chance(seat, drawn, "after a Kai")
                    continue
                if e[0] == EV_DRAW_THREE:
                    self.check(phase == AFTER_REVEAL, f"draw-three {phase}: only right after "
                                                      "Kai/Pon/Chi (§4)")
                    self.check(r.d3_enabled, "draw-three while draw_three.enabled is false")
                    self.check(self.stock >= r.d3_min, f"draw-three with {self.stock} cards in "
                                                       f"the stock (min {r.d3_min}, §4)")
                    self.check(not seat.riichi, "draw-three in riichi (§7)")
                    self.kai_forced_check(seat, phase)
                    for k in e[2:5]:
                        self.fresh(k, f"seat {s} draws three")
                        seat.hand[k] += 1
                    self.stock -= 3
                    seat.draw3 += 1
                    drawn = (e[4], "stock", self.stock == 0)
                    phase = AFTER_DRAW3
                    if r.tsumo_after_d3:
                        self.note_tsumo_chance(seat, drawn, "after a three-card draw")
                    continue
                if e[0] == EV_KAN:
                    self.check(r.kan, "kan while kan.enabled is false (§10)")
                    self.check(phase in (AFTER_DRAW, AFTER_DRAW3),
                               f"kan {phase}: only where a Kai may be (§10)")
                    self.check(not seat.riichi, "kan in riichi (docs: no kan in riichi)")
                    if e[3] == KAN_CLOSED_KIND:
                        self.check(r.kan_closed, "closed kan while kan.closed is false")
                        group = sorted(kinds_from_mask(e[5]))
                        self.check(len(group) == 4 and kan_readings(group, r),
                                   f"closed kan {cards_text(group)} is no kan group (§10)")
                        self.check(e[4] == len(seat.rev), f"closed kan group index {e[4]}")
                        self.take_from_hand(seat, group, "closed kan")
                        seat.rev.append([group, "kan_closed"])
                    elif e[3] == KAN_ADDED_KIND:
                        self.check(r.kan_added, "added kan while kan.added is false")
                        g = e[4]
                        self.check(0 <= g < len(seat.rev) and len(seat.rev[g][0]) == 3,
                                   f"added kan onto group {g}, no revealed set")
                        added = kinds_from_mask(e[5])
                        self.check(len(added) == 1 and added[0] == e[2],
                                   f"added kan card {cards_text(added)} / kind {e[2]}")
                        group = sorted(seat.rev[g][0] + added)
                        self.check(bool(kan_readings(group, r)),
                                   f"added kan {cards_text(group)} is no kan group (§10)")
                        base_readings = {x[0] for x, _ in set_readings(seat.rev[g][0], r)}
                        self.check(any(x[0] in base_readings for x, _ in kan_readings(group, r)),
                                   f"added kan {cards_text(group)} onto a set not of its kind")
                        self.take_from_hand(seat, added, "added kan")
                        seat.rev[g] = [group, "added_" + seat.rev[g][1]]
                    else:
                        self.fail(f"an open kan within the turn (§10)")
                    drawn = self.replacement(s)
                    phase = AFTER_DRAW
                    self.stats[f"kan {('closed', 'open', 'added')[e[3]]}"] += 1
                    continue
                # the discard
                self.check(phase != START, "discard before drawing or calling")
                if phase in (AFTER_DRAW, AFTER_DRAW3):
                    self.kai_forced_check(seat, phase)
                k, riichi_now = e[2], e[3]
                self.check(seat.hand[k] > 0, f"seat {s} discards {card_str(k)}, not in its hand "
                                             f"{cards_text(seat.hand_list())}")
                if seat.riichi:
                    self.check(phase == AFTER_DRAW and drawn is not None and k == drawn[0],
                               f"seat {s} in riichi discards {card_str(k)}, not the card it "
                               f"drew (§7: the hand is frozen)")
                seat.hand[k] -= 1
                seat.ippatsu = False
                if riichi_now:
                    self.check(r.riichi_enabled, "riichi while riichi.enabled is false")
                    self.check(not seat.riichi, "riichi declared twice")
                    self.check(self.stock >= r.riichi_min_stock,
                               f"riichi with {self.stock} cards in the stock (min "
                               f"{r.riichi_min_stock}, §7 [I])")
                    ws = self.wins_of(seat, seat.hand_list())
                    self.check(bool(ws), f"riichi on a hand that is not tenpai: "
                                         f"{cards_text(seat.hand_list())} + sets "
                                         f"{[cards_text(c) for c, _ in seat.revealed()]} (§7)")
                    seat.riichi = True
                    seat.ippatsu = True
                    self.stats["riichi"] += 1
                n = seat.n_hand()
                self.check(n in (7, 4, 1) and n <= seat.size_between,
                           f"seat {s} ends its turn with {n} cards (before: "
                           f"{seat.size_between}; §4: 7, 4 or 1, never growing back)")
                seat.size_between = n
                seat.discards.append(k)
                self.last_discard = (k, s, bool(riichi_now))
                self.last_was_empty = self.stock == 0
                break
            s = 1 - s

    def note_tsumo_chance(self, seat, drawn, when):
        """Statistics only: a legal tsumo offered by an [I] option (the spec obliges no win)."""
        hand = seat.hand_list()
        if self.score(seat, hand, drawn[0], False, seat.ippatsu, drawn[2], False)[0] is not None:
            self.stats[f"tsumo possible {when}"] += 1
            nxt = self.peek()
            if nxt is not None and nxt[0] == EV_TSUMO:
                self.stats[f"tsumo taken {when}"] += 1

    def kai_forced_check(self, seat, phase):
        """kai_optional: false: where a Kai is allowed, a hand holding a set must Kai first."""
        if self.r.kai_optional or seat.riichi or phase not in (AFTER_DRAW, AFTER_DRAW3):
            return
        self.stats["forced Kai checked"] += 1
        if seat.n_hand() >= 4 and self.has_kai(seat):
            self.fail(f"no Kai before the discard, with a set in {cards_text(seat.hand_list())} "
                      "(§4 [I] kai_optional: false)")

    def take_from_hand(self, seat, cards, what):
        need = Counter(cards)
        for k, n in need.items():
            self.check(seat.hand[k] >= n, f"{what} of {cards_text(cards)}: the hand "
                                          f"{cards_text(seat.hand_list())} lacks {card_str(k)}")
        for k, n in need.items():
            seat.hand[k] -= n

    def called(self):
        """The opponent's last discard was called: ippatsu lost on a called riichi discard."""
        k, discarder, was_riichi = self.last_discard
        self.stats["riichi discard called"] += int(was_riichi)
        if was_riichi and self.r.ippatsu_lost_on_call:
            self.seats[discarder].ippatsu = False
        self.last_discard = None

    def replacement(self, s):
        e = self.take((EV_REPLACEMENT,), "(a kan draws from the dead wall, §10)")
        self.check(e[1] == s, f"replacement to seat {e[1]}, the kan was seat {s}'s")
        self.check(self.replacements > 0, "a replacement draw with no dead-wall card left (§10)")
        self.replacements -= 1
        self.fresh(e[2], f"seat {s}'s replacement draw")
        self.seats[s].hand[e[2]] += 1
        self.last_reveal = "kan"
        return (e[2], "replacement", False)

    # ---- settlements --------------------------------------------------------------------------
    def settle_win(self, s, e, best, ron, turns, dealer):
        points, results = best
        self.check(e[3] == points, f"{'ron' if ron else 'tsumo'} by seat {s} worth {points} "
                                   f"(§8), the event says {e[3]}; best readings {results}")
        bits = {x["bits"] for x in results}
        self.check(e[5] in bits, f"win yaku bits {e[5]:#b}, expected one of "
                                 f"{[bin(b) for b in bits]}")
        loser = 1 - s
        self.scores[loser] -= points
        self.scores[s] += points + self.pot
        self.pot = 0
        self.round_end(s, OUT_RON if ron else OUT_TSUMO)
        return {"outcome": OUT_RON if ron else OUT_TSUMO, "winner": s, "turns": turns,
                "stock": self.stock, "win": results,
                "oshimai": all(x["oshimai"] for x in results)}

    def settle_draw(self, e, dealer, turns):
        r = self.r
        tenpai, set_pts = [0, 0], [0, 0]
        for s in (0, 1):
            seat = self.seats[s]
            hand = seat.hand_list()
            ws = self.wins_of(seat, hand)
            if ws and r.tenpai_yaku:
                n_shape = len(ws)
                ws = [w for w in ws if any(
                    self.score(seat, hand + [w], w, ron, False, False, False)[0] is not None
                    for ron in (True, False))]
                if n_shape and not ws:
                    self.stats["tenpai by shape, no yaku"] += 1
            self.stats[f"exhaustive draw, tenpai {bool(ws)}"] += 1
            tenpai[s] = int(bool(ws))
            if ws:
                set_pts[s] = sum(r.kai_pts if _base_origin(o) in KAI_ORIGINS else r.call_pts
                                 for _, o in seat.rev)
        diff = abs(set_pts[0] - set_pts[1])
        pay = math.ceil(diff / 2) if r.rounding == "ceil" else diff // 2
        receiver = -1
        if pay > 0:
            receiver = 0 if set_pts[0] > set_pts[1] else 1
        self.check(e[1] == receiver and e[2] == pay,
                   f"exhaustive draw: receiver {e[1]} paid {e[2]}, expected {receiver} paid "
                   f"{pay} (§9: set points {set_pts}, tenpai {tenpai}, hands "
                   f"{[cards_text(x.hand_list()) for x in self.seats]})")
        self.check([e[3], e[4]] == set_pts, f"exhaustive set points {[e[3], e[4]]}, expected "
                                            f"{set_pts} (§9)")
        self.check(e[5] == tenpai[0] + 2 * tenpai[1], f"exhaustive tenpai bits {e[5]}, expected "
                                                      f"{tenpai} (§2 [I], §9)")
        if receiver >= 0:
            self.scores[1 - receiver] -= pay
            self.scores[receiver] += pay + self.pot
            self.pot = 0
        elif not r.carry_over:
            self.pot_unclaimed(dealer)
        self.round_end(receiver, OUT_DRAW)
        return {"outcome": OUT_DRAW, "winner": receiver, "turns": turns, "stock": self.stock,
                "tenpai": tenpai, "draw_payment": pay}

    def pot_unclaimed(self, dealer):
        """pot.carry_over: false: the spec does not say where an unclaimed pot goes; the engine
        returns it to the non-dealer, who paid it (the only ante in it): that reading."""
        self.stats["unclaimed pot returned"] += int(self.pot > 0)
        self.scores[1 - dealer] += self.pot
        self.pot = 0

    def round_end(self, winner, outcome):
        e = self.take((EV_ROUND_END,), "(the round is over)")
        want = [winner, self.scores[0], self.scores[1], self.pot, outcome]
        self.check(list(e[1:6]) == want, f"round_end {list(e[1:6])}, expected {want} "
                                         "(winner, score0, score1, pot, outcome; §8, §9)")


def check_game(sc, events, batch, game_row_index=None, stats=None) -> None:
    """Replay one recorded game; AssertionError naming the event and the rule on the first thing
    the rules do not allow. ``batch`` holds this game's rounds (and its game record at
    ``game_row_index``, default 0). ``stats``, a Counter, gathers what the replay met."""
    rp = Replay(sc, events, batch, game_row_index)
    try:
        rp.run()
    finally:
        if stats is not None:
            stats.update(rp.stats)

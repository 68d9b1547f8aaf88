"""An independent replay checker for P-style trump mahjong matches, written from the
specification (../shared/rules/ptrump.md, beside the project) and docs/ptrump.md alone; the engine
was read only for its event and record formats (EV_TYPES, ROUND_FIELDS, GAME_FIELDS, card ids).

:func:`check_game` walks one recorded match (the event log and the batch of round / match records
of ``sim.replay_events(seed, game)``) event by event, keeping its own hands, revealed sets, nukidora,
discards, stock and reserve counts, indicators, riichi, furiten, deposits and scores, and raises
AssertionError naming the event index and the spec section on the first thing the rules do not
allow. Hand shapes and win values come from the independent model tests/ptrump_model.py.

What is checked
---------------
- §1/§3 cards: ids 0..53, every dealt / drawn card unseen so far in the round (the indicators
  included, unless ``indicators_in_stock``: then they are the last two ordinary draws, ura first);
  deals of 7 to every seat; the dora indicator is no joker; ordinary draws never exceed the stock
  (54 - 7n - 2 - reserve, + 2 with the indicators in the stock), replacements come from the
  reserve while it lasts, then the stock.
- §4 turns: the dealer draws first; a seat draws, then (decision point 1) tsumo / ankan / kakan /
  nukidora, each kan or nukidora followed by its replacement draw, then one discard of a card it
  holds; the next seat draws unless a call moved the turn. Pon (two equal non-joker cards, not in
  riichi, not on the houtei discard unless ``call_last_discard``) is followed by a discard only,
  never of the ponned rank unless ``kuikae``; play goes on from the caller. Open kan (three in
  hand, ``open_kan_from``), ankan (four in hand, own turn after a draw; after a pon only with
  ``kan_after_pon``), kakan (own pon + the fourth, ``added_kan``); at most ``kan.max_per_round``
  kans a round; kans and nukidora need a stock card (``replacement_needs_stock``). Hand sizes
  7/4/1 between turns follow.
- §7 riichi: menzen (``requires_menzen``), not yet in riichi, tenpai after the declaring discard
  (§2 tenpai, live waits per ``tenpai.needs_live_wait``), stock >= n (``min_stock: players``) or
  >= 1, score >= deposit unless ``allow_negative_score``; double riichi exactly on a seat's first
  discard with no pon/kan before; the deposit event follows unless the declaring discard is
  ronned; the frozen hand (discard the drawn card, no pon/kan; nukidora of the drawn joker only).
- §5/§6 wins: a win event's card completes the hand (model shapes, colour rules included), has a
  yaku unless not required, is not forbidden by ``negative_win``; a ron is not furiten (``full``:
  own discards, temporary after letting a winning card pass, permanent in riichi; ``discard_only``;
  ``none``); robbing only as §4 allows (chankan on a kakan, kokushi on an ankan, a joker being set
  aside per ``nukidora.rob``); head bump: one winner; ``all``: winners in seat order from the
  discarder; with ``may_decline_win: false`` a legal tsumo or ron may not be skipped.
- §8 the win's value (model score with the context tracked here: tsumo, riichi / double,
  ippatsu window, rinshan, haitei / houtei, tenhou / chiihou / renhou, nagashi, dealer, dora, ura),
  has_yaku, the breakdown bits of the context items, the counted dora / ura / nukidora / pon.
- §9 settlement: winner + value (+ deposits: all to the first winner after the discarder);
  exhaustive draw exactly when the stock is empty after an unronned discard, tenpai per seat,
  noten penalties (``noten_to_tenpai``), nagashi at_draw, deposits carried or lost; pon penalty
  ``always``; dealer rotation (``next_dealer``); match end at the target (tie rule), the round cap.
- Records: every round row (all columns but ``turns``, ``reach*``, the yakuhai count of
  ``counted*`` and the ``yaku_bits`` of reading-dependent yaku) and the match row.

Readings taken where the spec does not decide (the engine's, where it documents one)
-------------------------------------------------------------------------------------
- A robbed kan or nukidora is not made: the robbed seat's ``kans*`` / ``nuki*`` do not count it
  (no kan / nuki event is logged for it either; the win's robbed kind names it).
- With a replacement reserve the indicators are never drawn, even with ``indicators_in_stock``
  (§3.3: the reserve is "the 4 cards above them" and ordinary draws end there); without one, the
  indicators are the last two ordinary draws, ura first (the bottom two cards).
- ``replacement_needs_stock`` reads "stock" as the ordinary stock; a haitei needs the last
  ordinary-stock card (a reserve card is none).
- ``renhou.window: first_go_around``: a ron on one of the round's first n discards with no
  pon/kan yet (the winner may have discarded already).
- A declined tsumo makes no furiten (only a passed ron / robbable card does, §6); in riichi it
  is discarded at once anyway.
- ``tenpai.needs_live_wait``: "holds" counts the concealed hand, own revealed sets and nukidora.
- The riichi deposit event follows the ron window of the declaring discard (none when ronned),
  before any pon on it.

What it leaves out
------------------
- Declines are not logged, so with ``may_decline_win: true`` a skipped win cannot be told apart
  from a declined one; it still makes the seat furiten as §6 says.
- Which decomposition's yaku bits the engine records when several readings tie (only the value is
  compared, and the bits of the items that do not depend on the reading).
- ``reach*`` columns; chombo (not modelled by the engine); ``tenpai.needs_yaku: true``.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from simcore.ptrump.engine import EV_TYPES, GAME_FIELDS, ROUND_FIELDS
from simcore.ptrump.rules_array import SLOTS
from tests.replay_checks import describe_event
try:
    import ptrump_model as model            # tests/ on the path (conftest)
except ImportError:                         # pragma: no cover
    from tests import ptrump_model as model

(EV_ROUND_START, EV_DEAL, EV_DRAW, EV_DISCARD, EV_PON, EV_KAN, EV_NUKI, EV_DEPOSIT, EV_WIN,
 EV_WIN_DETAIL, EV_EXHAUSTIVE, EV_ROUND_END, EV_GAME_END) = (EV_TYPES.index(n) for n in (
    "round_start", "deal", "draw", "discard", "pon", "kan", "nuki", "deposit", "win",
    "win_detail", "exhaustive", "round_end", "game_end"))
DK_ORDINARY, DK_KAN, DK_NUKI = 1, 2, 3
SK_PON, SK_KAN, SK_KAKAN, SK_ANKAN = 0, 1, 2, 3
KIND_NAME = ("pon", "kan", "kakan", "ankan")
ROB_DISCARD, ROB_KAKAN, ROB_ANKAN, ROB_NUKI = 0, 1, 2, 3
JOKER = 13
RANKS = "A23456789TJQKX"
SUITS = "shdc"
SCORE_OFFSET = 1 << 19
SLOT = {name: i for i, name in enumerate(SLOTS)}
# breakdown items that do not depend on the hand's reading: their bits must match exactly
CONTEXT_ITEMS = ("tsumo", "tanyao", "ryankantsu", "rinshan", "riichi", "double_riichi",
                 "open_riichi", "ippatsu", "chinitsu", "renhou", "jqk", "nagashi", "haitei",
                 "houtei", "tenhou", "chiihou", "dora", "ura", "ura_joker", "nukidora", "pon")
YAKUMAN = ("paaren", "chinroutou", "kokushi", "kokushi_double")


def rank(c):
    return int(c) // 4


def cs(c):
    c = int(c)
    return "X" if c >= 52 else RANKS[c // 4] + SUITS[c % 4]


def mask_ids(m):
    m = int(m)
    return [i for i in range(54) if (m >> i) & 1]


def unpack_scores(p, n):
    return [((int(p) >> (20 * s)) & ((1 << 20) - 1)) - SCORE_OFFSET for s in range(n)]


class Rules:
    def __init__(self, sc):
        d = sc.to_dict()
        self.d = d
        self.n = len(d["players"])
        st = d["stock"]
        self.ind_in_stock = bool(st["indicators_in_stock"])
        self.reserve = int(st["replacement_reserve"])
        c = d["calls"]
        self.kan_after_pon = bool(c["kan_after_pon"])
        self.kuikae = bool(c["kuikae"])
        self.call_last = bool(c["call_last_discard"])
        self.multiple_ron = c["multiple_ron"]
        self.may_decline = bool(c["may_decline_win"])
        k = d["kan"]
        self.max_kans = int(k["max_per_round"])
        self.open_kan_from = k["open_kan_from"]
        self.added_kan = bool(k["added_kan"])
        self.repl_needs_stock = bool(k["replacement_needs_stock"])
        self.chankan = bool(k["chankan_added_kan"])
        self.kokushi_robs_ankan = bool(k["kokushi_robs_ankan"])
        nk = d["nukidora"]
        self.nuki_mode = nk["mode"]
        self.rob_nuki = nk["rob"]
        self.nuki_interrupts = bool(nk["interrupts"])
        self.furiten = d["furiten"]
        r = d["riichi"]
        self.riichi_menzen = bool(r["requires_menzen"])
        self.riichi_min_stock = r["min_stock"]
        self.riichi_ankan = bool(r["ankan"])
        self.deposit = int(r["deposit"])
        self.deposits = r["deposits"]
        self.allow_negative = bool(r["allow_negative_score"])
        self.open_riichi = r["open_riichi"] == "on"
        self.live_wait = bool(d["tenpai"]["needs_live_wait"])
        self.tenpai_needs_yaku = bool(d["tenpai"]["needs_yaku"])
        s = d["scoring"]
        self.renhou_window = s["additive"]["renhou"]["window"]
        self.nagashi_when = s["additive"]["nagashi"]["when"] if s["additive"]["nagashi"]["enabled"] \
            else "off"
        self.nagashi_points = int(s["additive"]["nagashi"]["points"])
        self.pon_penalty = s["deductions"]["pon_penalty"]
        self.pon_points = int(s["deductions"]["pon"])
        self.kakan_keeps_pon = bool(s["deductions"]["kakan_keeps_pon_penalty"])
        self.noten = int(s["deductions"]["noten"])
        self.yaochu_honours = bool(d["cards"]["yaochu_honours"])
        self.open_kan_breaks_menzen = bool(d["hand"]["open_kan_breaks_menzen"])
        ex = d["exhaustive_draw"]
        self.noten_to_tenpai = bool(ex["noten_to_tenpai"])
        self.nagashi_keeps_noten = bool(ex["nagashi_keeps_noten"])
        m = d["match"]
        self.start = int(m["start_score"])
        self.bonus = [int(m["start_bonus"][k]) for k in ("first_dealer", "second", "third")]
        self.target = int(m["target_score"])
        self.tie = m["target_tie"]
        self.max_rounds = int(m["max_rounds"])
        self.first_dealer = m["first_dealer"]
        self.next_dealer = m["next_dealer"]
        # §3.3: the reserve is "the 4 cards above" the indicators and ordinary draws end there,
        # so with a reserve the indicators are out of reach even when "in the stock"
        if self.reserve:
            self.ind_in_stock = False
        self.stock0 = 54 - 7 * self.n - self.reserve - (0 if self.ind_in_stock else 2)
        self.opts = self._model_options(d)
        self.shape = dict(sutoitsu_same_pairs=self.opts["sutoitsu_same_pairs"],
                          sutoitsu=self.opts["sutoitsu"], paaren=self.opts["paaren"],
                          kokushi=self.opts["kokushi"])

    @staticmethod
    def _model_options(d):
        from simcore.ptrump import schema
        paths = dict(schema.SPEC_OPTIONS)
        paths.update(sutoitsu="scoring.yaku.sutoitsu.enabled",
                     paaren="scoring.yakuman.paaren.enabled",
                     renhou="scoring.additive.renhou.enabled")
        o = {}
        for name in model.DEFAULTS:
            if name not in paths:
                continue
            node = d
            for part in paths[name].split("."):
                node = node[part]
            o[name] = node
        o["open_riichi"] = o["open_riichi"] == "on"
        o["beginner"] = bool(o["beginner"])
        return model.options(**o)


@lru_cache(maxsize=200000)
def _score(text, opts_key):
    return model.score(text, **dict(opts_key))


class Replay:
    def __init__(self, sc, events, batch):
        self.R = Rules(sc)
        self.okey = tuple(sorted(self.R.opts.items()))
        self.ev = np.asarray(events).astype(np.int64).tolist()
        self.pos = 0
        self.rounds = np.asarray(batch.rounds)
        self.games = np.asarray(batch.games)
        self.where = "match start"

    # ---- cursor ---------------------------------------------------------------------------
    def fail(self, msg):
        # the event index: the last event taken (the one being judged)
        raise AssertionError(f"[{self.where}, event {max(self.pos - 1, 0)}] {msg}")

    def check(self, cond, msg):
        if not cond:
            self.fail(msg)

    def peek(self):
        return self.ev[self.pos] if self.pos < len(self.ev) else None

    def ptype(self):
        e = self.peek()
        return None if e is None else e[0]

    def take(self, t, what=""):
        e = self.peek()
        if e is None:
            self.fail(f"the events end where a {EV_TYPES[t]} {what} was due")
        if e[0] != t:
            self.fail(f"expected {EV_TYPES[t]} {what}, got {self.describe(e)}")
        self.pos += 1
        return e

    @staticmethod
    def describe(e):
        return describe_event(e, EV_TYPES)

    # ---- hand analysis ----------------------------------------------------------------------
    def text(self, s, win_card, flags=(), indicators=True, hand=None):
        hand = self.hand[s] if hand is None else hand
        parts = [cs(c) for c in sorted(hand)]
        for kind, ids in self.sets[s]:
            parts.append(KIND_NAME[kind] + ":" + "".join(cs(c) for c in sorted(ids)))
        if self.nuki[s]:
            parts.append("nuki:" + "X" * len(self.nuki[s]))
        parts.append("+" + cs(win_card))
        parts.extend(flags)
        if indicators:
            parts.append("dora:" + cs(self.dora_ind))
            parts.append("ura:" + cs(self.ura_ind))
        return " ".join(parts)

    def score(self, s, card, flags=(), hand=None):
        try:
            return _score(self.text(s, card, flags, True, hand), self.okey)
        except ValueError as e:
            if "too many copies" not in str(e) and "duplicate" not in str(e):
                raise
            # an indicator drawn into a hand (indicators_in_stock): score without the
            # indicators and add their items here
            r = dict(_score(self.text(s, card, flags, False, hand), self.okey))
            if r["complete"] and not r["yakuman"] or not self.R.opts["yakuman_exclusive"]:
                items = dict(r["items"])
                seen = list(hand if hand is not None else self.hand[s]) + [card] + \
                    [c for _, ids in self.sets[s] for c in ids]
                dv = self.R.opts["dora_value"]
                riichi = any(f in flags for f in ("riichi", "wriichi"))
                add = {}
                add["dora"] = dv * sum(rank(c) == model.next_rank(rank(self.dora_ind)) for c in seen)
                if rank(self.ura_ind) == JOKER:
                    if riichi or self.R.opts["ura_joker"] == "any_win":
                        add["ura_joker"] = 1
                elif riichi:
                    add["ura"] = dv * sum(rank(c) == model.next_rank(rank(self.ura_ind))
                                          for c in seen)
                for k, v in add.items():
                    if v:
                        items[k] = items.get(k, 0) + v
                raw = sum(items.values())
                r.update(items=items, raw=raw,
                         total=max(raw, 0) if self.R.opts["negative_win"] == "floor_zero" else raw)
                if self.R.opts["negative_win"] == "forbidden" and raw < 0:
                    r["legal"] = False
            return r

    def completes(self, s, card, hand=None):
        """Does ``card`` complete seat s's hand into a winning shape (colour rules included)?"""
        hand = self.hand[s] if hand is None else hand
        cnt = [0] * 14
        for c in hand:
            cnt[rank(c)] += 1
        cnt[rank(card)] += 1
        k = len(self.sets[s])
        if not model.is_complete(cnt, k, **self.R.shape):
            return False
        return bool(self.score(s, card, (), hand)["complete"])

    def wait_ranks(self, s, hand=None):
        """Ranks some card of which completes a winning shape (§2), by shape and colour."""
        hand = self.hand[s] if hand is None else hand
        cnt = [0] * 14
        for c in hand:
            cnt[rank(c)] += 1
        k = len(self.sets[s])
        out = set()
        for r in model.waits(cnt, k, **self.R.shape):
            cands = [52, 53] if r == JOKER else [r * 4 + u for u in range(4)]
            for c in cands:
                if c in hand:
                    continue
                try:
                    if _score(self.text(s, c, (), False, hand), self.okey)["complete"]:
                        out.add(r)
                        break
                except ValueError:
                    continue
        return out

    def held(self, s, r):
        n = sum(rank(c) == r for c in self.hand[s])
        n += sum(rank(c) == r for _, ids in self.sets[s] for c in ids)
        n += sum(rank(c) == r for c in self.nuki[s])
        return n

    def tenpai(self, s, hand=None):
        w = self.wait_ranks(s, hand)
        if self.R.live_wait:
            hand_ = self.hand[s] if hand is None else hand
            saved = self.hand[s]
            self.hand[s] = set(hand_)
            w = {r for r in w if self.held(s, r) < (2 if r == JOKER else 4)}
            self.hand[s] = saved
        return bool(w)

    def menzen(self, s):
        for kind, _ in self.sets[s]:
            if kind in (SK_PON, SK_KAKAN):
                return False
            if kind == SK_KAN and self.R.open_kan_breaks_menzen:
                return False
        return True

    def is_yaochu(self, c):
        r = rank(c)
        return r in (0, 8) or (self.R.yaochu_honours and r >= 9)

    def nagashi_ok(self, s):
        return bool(self.disc[s]) and all(self.is_yaochu(c) and not called
                                          for c, called in self.disc[s])

    def furiten_discards(self, s):
        if self.R.furiten == "none":
            return False
        w = self.wait_ranks(s)
        return any(rank(c) in w for c, _ in self.disc[s])

    def stock_left(self):
        return self.R.stock0 - self.ordinary_from_stock - self.repl_from_stock

    # ---- the match --------------------------------------------------------------------------
    def run(self):
        R = self.R
        n = R.n
        g = self.games[0]
        G = {f: int(g[i]) for i, f in enumerate(GAME_FIELDS)}
        first = G["first_dealer"]
        self.check(0 <= first < n, f"game record first_dealer {first} (§3)")
        if R.first_dealer != "random":
            self.check(first == int(R.first_dealer),
                       f"game record first_dealer {first}, scenario says {R.first_dealer} (§3)")
        self.scores = [R.start] * n
        for i in range(min(n, 3)):
            self.scores[(first + i) % n] += R.bonus[i]
        self.pool = 0
        dealer = first
        rnd = 0
        while True:
            self.where = f"round {rnd}"
            winners = self.play_round(rnd, dealer)
            rnd += 1
            # match end (§9)
            top = max(self.scores)
            tops = [s for s in range(n) if self.scores[s] == top]
            end = None
            if top >= R.target and (len(tops) == 1 or R.tie == "shared"):
                end = 0
            elif rnd >= R.max_rounds:
                end = 1
            if end is not None:
                e = self.take(EV_GAME_END, "(§9 match end)")
                bits = sum(1 << s for s in tops)
                self.check(e[1] == (tops[0] if len(tops) == 1 else -1) and e[2] == bits
                           and e[3] == end and e[4] == rnd and e[5] == self.pool,
                           f"game_end {self.describe(e)}, expected winner bits {bits}, reason "
                           f"{end}, rounds {rnd}, pool left {self.pool} (§9)")
                exp = dict(winner=tops[0] if len(tops) == 1 else -1, winners=bits,
                           n_winners=len(tops), n_seats=n, end_reason=end, rounds=rnd,
                           first_dealer=first, pool_left=self.pool)
                for s in range(3):
                    exp[f"score{s}"] = self.scores[s] if s < n else 0
                for k, v in exp.items():
                    self.check(G[k] == v, f"game record {k} = {G[k]}, expected {v}")
                self.check(self.pos == len(self.ev), "events after game_end")
                self.check(len(self.rounds) == rnd, f"{len(self.rounds)} round records, "
                           f"{rnd} rounds played")
                return
            self.check(self.ptype() == EV_ROUND_START,
                       f"the match goes on (no seat at the target {R.target} with a sole/shared "
                       f"top, {rnd} < {R.max_rounds} rounds) but got {self.describe(self.peek())} (§9)")
            if R.next_dealer == "winner" and winners:
                dealer = winners[0]
            else:
                dealer = (dealer + 1) % n

    def play_round(self, rnd, dealer):
        R = self.R
        n = R.n
        e = self.take(EV_ROUND_START)
        self.check(e[1] == dealer, f"round_start dealer {e[1]}, expected {dealer} (§9 next_dealer "
                   f"{R.next_dealer})")
        self.check(e[5] == rnd, f"round_start index {e[5]}, expected {rnd}")
        self.dora_ind, self.ura_ind = e[2], e[3]
        self.reshuffles = e[4]
        self.check(0 <= self.dora_ind < 54 and 0 <= self.ura_ind < 54
                   and self.dora_ind != self.ura_ind, "bad indicators (§3)")
        self.check(rank(self.dora_ind) != JOKER, "a joker dora indicator stands (§3.4: reshuffle)")
        self.seen = set() if R.ind_in_stock else {self.dora_ind, self.ura_ind}
        self.hand = [set() for _ in range(n)]
        self.sets = [[] for _ in range(n)]
        self.nuki = [[] for _ in range(n)]
        self.disc = [[] for _ in range(n)]
        self.riichi = [0] * n
        self.riichi_voided = [False] * n
        self.ippatsu = [False] * n
        self.temp_fur = [False] * n
        self.riichi_fur = [False] * n
        self.n_draws = [0] * n          # ordinary draws
        self.pons = [0] * n
        self.kans_of = [0] * n
        self.kans = 0
        self.calls = 0                  # pon / kan (and nuki when it interrupts) this round
        self.ordinary_from_stock = 0
        self.repl_from_stock = 0
        self.reserve_used = 0
        self.n_discards = 0
        self.call_turns = 0             # turns begun by a pon or an open kan
        self.declaring = None
        for _ in range(n):
            e = self.take(EV_DEAL, "(§3.2 deal 7 each)")
            s = e[1]
            self.check(0 <= s < n and not self.hand[s], f"deal to seat {s} twice or out of range")
            ids = mask_ids(e[2])
            self.check(len(ids) == 7, f"seat {s} dealt {len(ids)} cards (§3.2)")
            for c in ids:
                self.check(c not in self.seen, f"dealt card {cs(c)} already seen (§1)")
                self.seen.add(c)
            self.hand[s] = set(ids)
        return self.play_turns(rnd, dealer)

    # -- draws ---
    def draw(self, s, kind_expected):
        R = self.R
        e = self.take(EV_DRAW, f"by seat {s}")
        self.check(e[1] == s, f"draw by seat {e[1]}, seat {s}'s turn (§4)")
        c, kind = e[2], e[3]
        self.last_repl_from_stock = False
        if kind_expected == DK_ORDINARY:
            self.check(kind == DK_ORDINARY, f"draw kind {kind}, expected an ordinary draw (§4)")
            self.check(self.stock_left() > 0, "an ordinary draw from an empty stock (§9)")
            left_before = self.stock_left()
            self.ordinary_from_stock += 1
            self.n_draws[s] += 1
            if R.ind_in_stock:
                if c in (self.dora_ind, self.ura_ind):
                    want = self.ura_ind if left_before == 2 else self.dora_ind
                    self.check(left_before <= 2 and c == want,
                               f"indicator {cs(c)} drawn with {left_before} stock cards left "
                               "(§3.3: the bottom two cards, ura then dora)")
                else:
                    self.check(left_before > 2, f"{cs(c)} drawn where an indicator is the next "
                               "stock card (§3.3)")
        else:
            self.check(kind == kind_expected, f"draw kind {kind}, expected replacement "
                       f"{kind_expected} (§4)")
            if self.reserve_used < R.reserve:
                self.reserve_used += 1
            else:
                self.check(self.stock_left() > 0, "a replacement from an empty stock (§4)")
                self.repl_from_stock += 1
                self.last_repl_from_stock = True
        self.check(0 <= c < 54 and c not in self.seen, f"drawn card {c} already dealt, drawn or "
                   "shown (§1)")
        self.seen.add(c)
        self.hand[s].add(c)
        self.last_draw = (c, kind)
        return c, kind

    # -- a seat's turn, after its draw(s) ---
    def tsumo_flags(self, s, kind):
        R = self.R
        f = ["tsumo"]
        self.add_riichi_flags(s, f)
        repl = kind != DK_ORDINARY
        if kind == DK_KAN or (kind == DK_NUKI and R.opts["rinshan_on_nukidora"]):
            f.append("rinshan")
        # haitei: tsumo on the last stock card (a reserve card is none)
        if self.stock_left() == 0 and (not repl or self.last_repl_from_stock):
            if not repl or R.opts["haitei_on_replacement"]:
                f.append("last")
        # tenhou / chiihou: the first own draw, no pon/kan before in the round (§8)
        if self.calls == 0 and self.n_draws[s] == 1 and not self.disc[s]:
            if not repl or not R.opts["first_draw_excludes_replacement"]:
                f.append("first")
        if s == self.dealer:
            f.append("dealer")
        if self.nagashi_ok(s):
            f.append("nagashi")
        return tuple(f)

    def add_riichi_flags(self, s, f):
        if self.riichi[s] == 2:
            f.append("wriichi")
        elif self.riichi[s] == 1:
            f.append("riichi")
        if self.riichi[s] and self.ippatsu[s]:
            f.append("ippatsu")

    def tsumo_legal(self, s, c, kind):
        hand = set(self.hand[s])
        hand.discard(c)
        if not self.completes(s, c, hand):
            return None
        r = self.score(s, c, self.tsumo_flags(s, kind), hand)
        return r if r["legal"] else None

    def play_turns(self, rnd, dealer):
        R = self.R
        n = R.n
        self.dealer = dealer
        s, mode = dealer, "draw"
        while True:
            if mode == "draw":
                c, kind = self.draw(s, DK_ORDINARY)
                res = self.after_draw(s, c, kind)
            elif mode == "kan":     # open kan: the replacement, then as after a draw (§4)
                c, kind = self.draw(s, DK_KAN)
                res = self.after_draw(s, c, kind)
            else:                   # after a pon: discard only (§4 decision point 2)
                res = self.after_pon(s)
            if res[0] == "end":
                return res[1]
            if res[1] is None:
                if self.stock_left() == 0:
                    return self.exhaustive(rnd)
                s, mode = (s + 1) % n, "draw"
            else:
                s, mode = res[1], ("after_pon" if res[2] == "pon" else "kan")

    def after_draw(self, s, c, kind):
        """Decision point 1 for seat s holding its drawn card c; returns ("end", winners) or
        ("next", caller or None, call kind)."""
        R = self.R
        while True:
            legal = self.tsumo_legal(s, c, kind)
            t = self.ptype()
            e = self.peek()
            if t == EV_WIN and e[1] == s:
                self.check(e[4] == 0, f"{self.describe(e)}: a ron in its own turn (§4)")
                self.check(e[2] == c, f"tsumo on {cs(e[2])}, the drawn card is {cs(c)} (§5)")
                self.check(legal is not None, f"tsumo on {cs(c)} by seat {s} is not a legal win "
                           f"(§5: shape/yaku): {self.text(s, c)}")
                self.pos += 1
                hand = set(self.hand[s])
                hand.discard(c)
                detail = self.take(EV_WIN_DETAIL, "(after a win)")
                return ("end", self.settle_win([(s, e, legal, hand, detail)], None, c, 0))
            if legal is not None and not R.may_decline:
                self.fail(f"seat {s} skips a legal tsumo on {cs(c)} (§4 may_decline_win false): "
                          f"{self.text(s, c)}")
            if t == EV_WIN:
                # a rob with no kan / nuki event before it: the engine logs the robbed action
                # only through the win (robbed kind)
                rob = e[5]
                self.check(rob in (ROB_KAKAN, ROB_ANKAN, ROB_NUKI), f"{self.describe(e)} in seat "
                           f"{s}'s turn, not a rob (§4)")
                w = e[2]
                if rob == ROB_NUKI:
                    out = self.do_nuki(s, w, c)
                else:
                    r = rank(w)
                    if rob == ROB_ANKAN:
                        ids = sorted(x for x in self.hand[s] if rank(x) == r)
                        kind_ = SK_ANKAN
                    else:
                        st = [st for k_, st in self.sets[s] if k_ == SK_PON and
                              rank(next(iter(st))) == r]
                        self.check(st, f"robbed kakan of rank {r} without a pon (§4)")
                        ids = sorted(st[0] | {w})
                        kind_ = SK_KAKAN
                    m = sum(1 << x for x in ids)
                    out = self.own_kan(s, [EV_KAN, s, kind_, r, m, -1], robbed_card=w)
                self.check(out is not None, f"{self.describe(e)} not taken as a rob")
                return ("end", out)
            if t == EV_KAN:
                e = self.take(EV_KAN)
                self.check(e[1] == s, f"kan by seat {e[1]} in seat {s}'s turn (§4)")
                out = self.own_kan(s, e)
                if out is not None:
                    return ("end", out)
                c, kind = self.draw(s, DK_KAN)
                continue
            if t == EV_NUKI:
                e = self.take(EV_NUKI)
                self.check(e[1] == s, f"nuki by seat {e[1]} in seat {s}'s turn (§4)")
                out = self.do_nuki(s, e[2], c)
                if out is not None:
                    return ("end", out)
                if R.nuki_mode == "instead_of_discard":
                    return ("next", None, None)
                c, kind = self.draw(s, DK_NUKI)
                continue
            return self.discard(s, c)

    def own_kan(self, s, e, robbed_card=None):
        R = self.R
        kind, r, ids = e[2], e[3], mask_ids(e[4])
        self.check(kind in (SK_KAKAN, SK_ANKAN), f"kan kind {kind} in own turn (§4)")
        self.check(self.kans < R.max_kans, f"a kan beyond {R.max_kans} per round (§4)")
        if R.repl_needs_stock:
            self.check(self.stock_left() >= 1, "a kan with an empty stock (§4 "
                       "replacement_needs_stock)")
        self.check(r != JOKER and all(rank(c) == r for c in ids) and len(ids) == 4,
                   f"kan set {[cs(c) for c in ids]} of rank {r}")
        if self.riichi[s]:
            self.check(kind == SK_ANKAN and R.riichi_ankan, "a kan in riichi (§4 point 5)")
            before = self.wait_ranks(s, self.hand[s] - {self.last_draw[0]})
        if kind == SK_ANKAN:
            self.check(all(c in self.hand[s] for c in ids), f"ankan of cards not in hand (§4)")
            for c in ids:
                self.hand[s].discard(c)
            self.sets[s].append((SK_ANKAN, set(ids)))
            if self.riichi[s]:
                self.check(self.wait_ranks(s) == before, "an ankan in riichi changes the wait")
        else:
            self.check(R.added_kan, "kakan with added_kan false (§4)")
            idx = [i for i, (k, st) in enumerate(self.sets[s]) if k == SK_PON and
                   rank(next(iter(st))) == r]
            self.check(idx, f"kakan of rank {r} without a pon of it (§4)")
            st = self.sets[s][idx[0]][1]
            add = [c for c in ids if c not in st]
            self.check(len(add) == 1 and add[0] in self.hand[s] and st <= set(ids),
                       "kakan card not in hand / set mismatch (§4)")
            self.hand[s].discard(add[0])
            self.sets[s][idx[0]] = (SK_KAKAN, set(ids))
        self.kans += 1
        self.kans_of[s] += 1
        self.calls += 1
        self.break_ippatsu()
        # robbing (§4): chankan on a kakan, kokushi on an ankan
        if kind == SK_KAKAN:
            return self.ron_window(s, add[0], ROB_KAKAN)
        return self.ron_window(s, robbed_card if robbed_card is not None else ids[-1], ROB_ANKAN,
                               ankan_ids=ids)

    def break_ippatsu(self):
        self.ippatsu = [False] * self.R.n

    def do_nuki(self, s, c, drawn):
        R = self.R
        self.check(c in self.hand[s] and rank(c) == JOKER, f"nuki of {cs(c)} not a joker in hand "
                   "(§4)")
        if R.repl_needs_stock and R.nuki_mode == "replace":
            self.check(self.stock_left() >= 1, "nukidora with an empty stock (§4 "
                       "replacement_needs_stock)")
        if self.riichi[s]:
            self.check(c == drawn, "nukidora in riichi of a joker other than the drawn one (§4.5)")
        self.hand[s].discard(c)
        self.nuki[s].append(c)
        if R.nuki_interrupts:
            self.calls += 1
            self.break_ippatsu()
        out = self.ron_window(s, c, ROB_NUKI)
        if out is not None:   # a robbed joker was never set aside (it is the winner's card)
            pass
        return out

    # -- ron windows ---
    def ron_flags(self, t, discarder, rob):
        R = self.R
        f = ["ron"]
        self.add_riichi_flags(t, f)
        if rob == ROB_DISCARD and self.stock_left() == 0:
            f.append("last")
        if self.calls == 0:
            if R.renhou_window == "own_first_draw":
                if self.n_draws[t] == 0:
                    f.append("first")
            elif self.n_discards <= R.n:    # the engine's reading: within the first n discards
                f.append("first")
        if t == self.dealer:
            f.append("dealer")
        if self.nagashi_ok(t):
            f.append("nagashi")
        return tuple(f)

    def can_ron(self, t, discarder, card, rob):
        """(the card may be robbed / ronned by shape, the legal score or None)."""
        R = self.R
        if rob == ROB_KAKAN and not R.chankan:
            return False, None
        if rob == ROB_ANKAN and not R.kokushi_robs_ankan:
            return False, None
        if not self.completes(t, card):
            return False, None
        r = self.score(t, card, self.ron_flags(t, discarder, rob))
        if rob == ROB_ANKAN or (rob == ROB_NUKI and R.rob_nuki == "kokushi_only"):
            cnt = [0] * 14
            for c in list(self.hand[t]) + [card]:
                cnt[rank(c)] += 1
            if self.sets[t] or not model.is_kokushi(cnt) or not R.opts["kokushi"]:
                return False, None
        if not r["legal"]:
            return True, None
        if R.furiten != "none":
            if self.furiten_discards(t):
                return True, None
            if R.furiten == "full" and (self.temp_fur[t] or self.riichi_fur[t]):
                return True, None
        return True, r

    def ron_window(self, d, card, rob, ankan_ids=None):
        """Others may ron ``card`` (a discard, the kakan card, an ankan card, the joker being set
        aside); returns the round's winners or None."""
        R = self.R
        n = R.n
        order = [(d + i) % n for i in range(1, n)]
        cards = ankan_ids if rob == ROB_ANKAN else [card]
        cand = {}
        for t in order:
            best = (False, None)
            for c in cards:
                got = self.can_ron(t, d, c, rob)
                if got[1] is not None:
                    best = got
                    break
                best = (best[0] or got[0], None)
            cand[t] = best
        winners = []
        while self.ptype() == EV_WIN:
            e = self.peek()
            t = e[1]
            self.check(t in cand, f"{self.describe(e)}: a win by the seat whose card it is (§5)")
            self.check(e[4] == 1, f"{self.describe(e)}: a tsumo out of turn (§4)")
            self.check(e[5] == rob, f"win robbed kind {e[5]}, expected {rob} (§4)")
            c = e[2]
            self.check(c in cards, f"ron card {cs(c)}, offered {[cs(x) for x in cards]} (§5)")
            shape, legal = self.can_ron(t, d, c, rob)
            why = ""
            if shape and legal is None:
                why = (" (furiten: own discards)" if self.furiten_discards(t) else
                       " (furiten: temporary / riichi)" if (self.temp_fur[t] or self.riichi_fur[t])
                       else " (no yaku / forbidden)")
            self.check(legal is not None, f"ron by seat {t} on {cs(c)} is not allowed (§4/§5/§6)"
                       f"{why}: {self.text(t, c)} furiten state temp={self.temp_fur[t]} "
                       f"riichi={self.riichi_fur[t]} discards={[cs(x) for x, _ in self.disc[t]]}")
            if winners:
                self.check(R.multiple_ron == "all", "a second ron under head_bump (§4)")
                self.check(order.index(t) > order.index(winners[-1][0]),
                           "rons out of seat order (§4)")
            if not R.may_decline:
                lo = order.index(winners[-1][0]) + 1 if winners else 0
                for u in order[lo:order.index(t)]:
                    self.check(cand[u][1] is None, f"seat {u} skips a legal ron on {cs(c)} "
                               "(§4 may_decline_win false)")
            self.pos += 1
            detail = self.take(EV_WIN_DETAIL, "(after a win)")
            winners.append((t, e, legal, set(self.hand[t]), detail))
            if R.multiple_ron == "head_bump":
                break
        if winners:
            if not R.may_decline and R.multiple_ron == "all":
                for u in order[order.index(winners[-1][0]) + 1:]:
                    self.check(cand[u][1] is None, f"seat {u} skips a legal ron (§4)")
            return self.settle_win(winners, d, winners[0][1][2], rob)
        if not R.may_decline:
            for u in order:
                self.check(cand[u][1] is None, f"seat {u} skips a legal ron on "
                           f"{[cs(x) for x in cards]} (§4 may_decline_win false)")
        # everyone passed: a passed winning card makes furiten (§6)
        if R.furiten == "full":
            for u in order:
                if cand[u][0]:
                    self.temp_fur[u] = True
                    if self.riichi[u]:
                        self.riichi_fur[u] = True
        return None

    # -- discards ---
    def discard(self, s, drawn, after_pon_rank=None):
        R = self.R
        n = R.n
        e = self.take(EV_DISCARD, f"by seat {s}")
        self.check(e[1] == s, f"discard by seat {e[1]}, seat {s}'s turn (§4)")
        c, ri = e[2], e[3]
        self.check(c in self.hand[s], f"seat {s} discards {cs(c)}, not in its hand (§4)")
        if self.riichi[s]:
            self.check(c == drawn, f"seat {s} in riichi discards {cs(c)}, not the drawn "
                       f"{cs(drawn) if drawn is not None else None} (§7 frozen hand)")
            self.check(ri == 0, "riichi declared twice (§7)")
        if after_pon_rank is not None and not R.kuikae:
            self.check(rank(c) != after_pon_rank, f"kuikae: {cs(c)} of the ponned rank (§4)")
        self.hand[s].discard(c)
        if ri:
            self.check(ri in (1, 2), f"riichi kind {ri} (§7)")
            if after_pon_rank is not None:   # (found by this model in the engine; fixed there)
                self.fail(f"seat {s} declares riichi on the discard after a pon (§4 decision "
                          "point 2: after a pon, discard only)")
            if R.riichi_menzen:
                self.check(self.menzen(s), "riichi without menzen (§7)")
            need = n if R.riichi_min_stock == "players" else 1
            self.check(self.stock_left() >= need, f"riichi with {self.stock_left()} stock cards, "
                       f"needs {need} (§7 min_stock)")
            if not R.allow_negative:
                self.check(self.scores[s] >= R.deposit, "riichi without the deposit (§7)")
            self.check(self.tenpai(s), f"riichi declared noten: {self.hand_text(s)} (§7, §2)")
            first = not self.disc[s] and self.calls == 0
            self.check(ri == (2 if first else 1), f"riichi kind {ri}, expected "
                       f"{2 if first else 1} (§7 double riichi: first own discard, no call)")
        self.disc[s].append([c, False])
        self.n_discards += 1
        self.temp_fur[s] = False
        if self.riichi[s]:
            self.ippatsu[s] = False
        last = self.stock_left() == 0
        if ri:
            self.riichi[s] = ri
            self.ippatsu[s] = True
        self.declaring = s if ri else None     # §7: a ronned declaring discard voids riichi
        out = self.ron_window(s, c, ROB_DISCARD)
        self.declaring = None
        if out is not None:
            return ("end", out)
        if ri:
            e = self.take(EV_DEPOSIT, "(§7 riichi deposit)")
            self.check(e[1] == s and e[2] == R.deposit and e[3] == self.pool + R.deposit,
                       f"deposit {self.describe(e)}, expected seat {s} {R.deposit} pool "
                       f"{self.pool + R.deposit} (§7)")
            self.scores[s] -= R.deposit
            self.pool += R.deposit
        t = self.ptype()
        if t in (EV_PON, EV_KAN):
            e = self.take(t)
            u = e[1]
            self.check(u != s and 0 <= u < n, f"call by seat {u} on its own discard (§4)")
            self.check(not last or R.call_last, "a call on the last discard (§4 "
                       "call_last_discard false)")
            self.check(not self.riichi[u], f"a call by seat {u} in riichi (§4.5)")
            if t == EV_PON:
                self.check(e[2] == c and e[3] == s, f"pon {self.describe(e)} of {cs(c)} from {s}")
                ids = mask_ids(e[4])
                self.check(len(ids) == 3 and c in ids and rank(c) != JOKER and
                           all(rank(x) == rank(c) for x in ids), "pon set (§4)")
                mine = [x for x in ids if x != c]
                self.check(all(x in self.hand[u] for x in mine), "pon cards not in hand (§4)")
                self.check(len(self.sets[u]) < 2, "a third pon/kan (§4)")
                for x in mine:
                    self.hand[u].discard(x)
                self.sets[u].append((SK_PON, set(ids)))
                self.pons[u] += 1
            else:
                self.check(e[2] == SK_KAN and e[5] == s, f"open kan {self.describe(e)} (§4)")
                ids = mask_ids(e[4])
                self.check(len(ids) == 4 and c in ids and rank(c) != JOKER and e[3] == rank(c) and
                           all(rank(x) == rank(c) for x in ids), "open kan set (§4)")
                if R.open_kan_from == "previous_only":
                    self.check(u == (s + 1) % n, "open kan from a seat other than the previous "
                               "(§4 open_kan_from previous_only)")
                self.check(self.kans < R.max_kans, "a kan beyond the limit (§4)")
                if R.repl_needs_stock:
                    self.check(self.stock_left() >= 1, "open kan with an empty stock (§4)")
                mine = [x for x in ids if x != c]
                self.check(all(x in self.hand[u] for x in mine), "kan cards not in hand (§4)")
                for x in mine:
                    self.hand[u].discard(x)
                self.sets[u].append((SK_KAN, set(ids)))
                self.kans += 1
                self.kans_of[u] += 1
            self.disc[s][-1][1] = True
            self.calls += 1
            self.call_turns += 1
            self.break_ippatsu()
            return ("next", u, "pon" if t == EV_PON else "kan")
        return ("next", None, None)

    def after_pon(self, s):
        R = self.R
        r = rank(next(iter(self.sets[s][-1][1])))
        while R.kan_after_pon and self.ptype() == EV_KAN:
            e = self.take(EV_KAN)
            self.check(e[1] == s, "kan out of turn (§4)")
            out = self.own_kan(s, e)
            if out is not None:
                return ("end", out)
            c, kind = self.draw(s, DK_KAN)
            return self.after_draw(s, c, kind)
        return self.discard(s, None, after_pon_rank=r)

    def hand_text(self, s):
        return " ".join(cs(c) for c in sorted(self.hand[s]))

    # -- settlements ---
    def settle_win(self, winners, discarder, card, rob):
        R = self.R
        n = R.n
        values = [0] * n
        details = {}
        for i, (t, e, legal, hand, d) in enumerate(winners):
            v = legal["total"]
            self.check(e[3] == v, f"seat {t}'s win on {cs(card)} is worth {e[3]}, the model says "
                       f"{v} {legal['items']} (§8): {self.text(t, card)}")
            self.check(d[1] == t, "win_detail seat")
            if discarder is None:
                hand = set(hand) | {card}     # a tsumo: the concealed hand with the win card
            self.check(sorted(mask_ids(d[3])) == sorted(hand),
                       f"win_detail hand {[cs(c) for c in mask_ids(d[3])]} vs "
                       f"{[cs(c) for c in sorted(hand)]}")
            self.check(d[4] == (-1 if discarder is None else discarder), "win_detail discarder")
            self.check(d[5] == int(legal["has_yaku"]), f"win_detail has_yaku {d[5]}, model "
                       f"{legal['has_yaku']} (§5)")
            bits = d[2]
            for item in CONTEXT_ITEMS:
                want = bool(legal["items"].get(item, 0))
                got = bool((bits >> SLOT[item]) & 1)
                self.check(want == got, f"yaku bit {item} = {got}, model {want} "
                           f"{legal['items']} (§8)")
            for item in YAKUMAN:
                want = bool(legal["items"].get(item, 0))
                got = bool((bits >> SLOT[item]) & 1)
                self.check(want == got, f"yakuman bit {item} = {got}, model {want} (§8)")
            values[t] = v
            details[t] = (bits, d[5], legal)
        if rob == ROB_NUKI:     # the robbed joker is not set aside: no nukidora
            self.nuki[discarder].remove(card)
        if rob in (ROB_KAKAN, ROB_ANKAN):   # a robbed kan is not made (the records' reading)
            self.kans_of[discarder] -= 1
            self.kans -= 1
        if discarder is not None and discarder == getattr(self, "declaring", None):
            self.riichi_voided[discarder] = True
        # deposits to the first winner after the discarder (§7), pon penalty (§8)
        first = winners[0][0]
        taken = self.pool
        for t in values:
            pass
        for s in range(n):
            self.scores[s] += values[s]
        self.scores[first] += self.pool
        self.pool = 0
        pon_pen = self.charge_pon_penalty()
        bits = sum(1 << t for t, *_ in winners)
        out = dict(outcome=0 if discarder is None else 1, winners=bits, winner=first,
                   discarder=-1 if discarder is None else discarder, robbed=rob,
                   win_card=card, value=sum(values), deposits_taken=taken, deposits_lost=0,
                   noten_penalty=0, noten_paid=0, nagashi_bonus=0, pon_penalty=pon_pen)
        for s in range(3):
            out[f"value{s}"] = values[s] if s < n else 0
            out[f"has_yaku{s}"] = details[s][1] if s in details else 0
            out[f"tenpai{s}"] = 0
        self.details = details
        self.end_round(out)
        return [t for t, *_ in winners]

    def charge_pon_penalty(self):
        """Under ``pon_penalty: always``, each seat pays its pons' points at the round's end
        (§9); the total paid."""
        R = self.R
        total = 0
        if R.pon_penalty == "always":
            for s in range(R.n):
                p = self.pons_charged(s) * R.pon_points
                self.scores[s] -= p
                total += p
        return total

    def pons_charged(self, s):
        return sum(1 for k, _ in self.sets[s] if k == SK_PON or (k == SK_KAKAN and
                                                               self.R.kakan_keeps_pon))

    def exhaustive(self, rnd):
        R = self.R
        n = R.n
        e = self.take(EV_EXHAUSTIVE, "(§9: the stock is empty and the last discard not ronned)")
        tenpai = [self.tenpai(s) for s in range(n)]
        tbits = sum(1 << s for s in range(n) if tenpai[s])
        nag = [R.nagashi_when == "at_draw" and self.nagashi_ok(s) for s in range(n)]
        nbits = sum(1 << s for s in range(n) if nag[s])
        payers = [s for s in range(n) if not tenpai[s] and (R.nagashi_keeps_noten or not nag[s])]
        penalty = R.noten * len(payers)
        paid = 0
        for s in payers:
            self.scores[s] -= R.noten
        if R.noten_to_tenpai and any(tenpai) and payers:
            share = penalty // sum(tenpai)
            for s in range(n):
                if tenpai[s]:
                    self.scores[s] += share
                    paid += share
        bonus = 0
        for s in range(n):
            if nag[s]:
                self.scores[s] += R.nagashi_points
                bonus += R.nagashi_points
        self.check(e[2] == tbits, f"exhaustive tenpai bits {e[2]}, model {tbits} "
                   f"({[self.hand_text(s) for s in range(n)]}) (§2, §9)")
        self.check(e[3] == penalty and e[4] == nbits and e[5] == paid,
                   f"exhaustive {self.describe(e)}, expected penalty {penalty}, nagashi bits "
                   f"{nbits}, paid {paid} (§9)")
        lost = 0
        if R.deposits == "lost_at_draw":
            lost = self.pool
            self.pool = 0
        pon_pen = self.charge_pon_penalty()
        out = dict(outcome=2, winners=0, winner=-1, discarder=-1, robbed=0, win_card=-1, value=0,
                   deposits_taken=0, deposits_lost=lost, noten_penalty=penalty, noten_paid=paid,
                   nagashi_bonus=bonus, pon_penalty=pon_pen)
        for s in range(3):
            out[f"value{s}"] = 0
            out[f"has_yaku{s}"] = 0
            out[f"tenpai{s}"] = int(tenpai[s]) if s < n else 0
        self.details = {}
        self.end_round(out)
        return []

    def end_round(self, out):
        R = self.R
        n = R.n
        rnd = int(self.where.split()[-1])
        e = self.take(EV_ROUND_END)
        sc = unpack_scores(e[4], n)
        self.check(e[1] == out["winner"] and e[2] == out["winners"] and e[3] == self.pool
                   and e[5] == rnd, f"round_end {self.describe(e)}, expected winner "
                   f"{out['winner']} bits {out['winners']} pool {self.pool} (§8, §9)")
        self.check(sc == self.scores, f"round_end scores {sc}, model {self.scores} (§8, §9)")
        self.check(rnd < len(self.rounds), "no round record")
        row = self.rounds[rnd]
        F = {f: int(row[i]) for i, f in enumerate(ROUND_FIELDS)}
        exp = dict(out)
        exp.update(game=int(F["game"]), round=rnd, dealer=self.dealer, n_seats=n,
                   stock_left=self.stock_left(), reshuffles=self.reshuffles, pool=self.pool)
        # ``turns`` is not defined by the spec: not checked
        for s in range(3):
            ins = s < n
            exp[f"pons{s}"] = self.pons[s] if ins else 0
            exp[f"kans{s}"] = self.kans_of[s] if ins else 0
            exp[f"nuki{s}"] = len(self.nuki[s]) if ins else 0
            exp[f"riichi{s}"] = (self.riichi[s] if ins and not self.riichi_voided[s] else 0)
            exp[f"score{s}"] = self.scores[s] if ins else 0
            if s in self.details:
                bits, _, legal = self.details[s]
                exp[f"yaku_bits{s}"] = bits
                if not legal["yakuman"]:
                    it = legal["items"]
                    dv = max(1, R.opts["dora_value"])
                    cnt = [it.get("dora", 0) // dv, it.get("ura", 0) // dv, None,
                           it.get("nukidora", 0), -it.get("pon", 0)]
                    got = [(F[f"counted{s}"] >> (4 * i)) & 15 for i in range(5)]
                    for i, name in enumerate(("dora", "ura", "yakuhai", "nukidora", "pon")):
                        if cnt[i] is not None:
                            self.check(got[i] == cnt[i], f"round record counted{s} {name} "
                                       f"{got[i]}, model {cnt[i]} (§8)")
            else:
                exp[f"yaku_bits{s}"] = 0
                exp[f"counted{s}"] = 0
        for k, v in exp.items():
            self.check(F[k] == v, f"round record {k} = {F[k]}, expected {v}")


def check_game(sc, events, batch):
    """Replay one recorded match; AssertionError on the first event or record the spec does not
    allow (its message names the round, the event index and the spec section)."""
    Replay(sc, events, batch).run()

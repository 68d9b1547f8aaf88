"""An independent replay checker for emoji mahjong games, written from the specification
(shared/rules/emoji.md, beside the project, cited as §n) and the readings of docs/emoji.md alone,
not from the engine's rule logic.

:func:`check_game` walks one recorded game (its event log and its batch of round and game
records, ``Simulator.replay_events``) event by event, keeping its own model of the hands, the
discards, the tiles seen, riichi and deposits, the chips and the pot, and raises AssertionError
naming the event index and the spec section on the first thing the rules do not allow. Hand
analysis: a small win test of its own; the value of a win and its yaku come from the pure-Python
reference (simcore/emoji/reference.py: decompositions, shape yaku, rounding), with the situation
yaku (machibuse, debana, tsumo, last_tile, tenhou) decided here.

What is checked
---------------
- Set-up (§3): round r's dealer is (first dealer + r) mod 4 (the first dealer 0 under
  ``first_dealer: seat0``); the dora is the next kind of the indicator under ``dora_next`` and
  ``honor_cycle`` (§3.5); each seat antes ``chips.ante``; each seat is dealt 7 tiles; no kind is
  seen more than 3 times in a round (deal + draws, + the indicator under ``removed``; under
  ``in_wall`` the indicator is a live tile, so the deal holds at most 2 of its kind).
- Each turn t = 1..N (N = ``wall.turns``, 15 for auto; §3.6, §4.1, §16): four draws, one per
  seat, in dealer order; the tsumo check (every seat whose 8 tiles win, a win ``require_yaku``
  allows); then, unless a tsumo ended the turn, one discard per seat (except the tsumo winners
  under ``tsumo_ends_turn: false``) in seat order 0-3, each of a kind the seat holds; a seat in
  riichi discards its drawn tile without a flag; a riichi declaration only by a seat not in
  riichi, leaving 7 tenpai tiles by shape (§6), with ``riichi.min_chips`` (its balance at the
  choice), not on the last turn under ``riichi.last_turn: false`` (§7); its deposit at the
  reveal; then the ron check against this turn's discards (furiten under ``furiten: discards``).
  Any completion the rules make a win must appear and no other (§4.1: wins are automatic), under
  ``simultaneous_wins`` (§9.1).
- Settlement (§9): each win's value and yaku mask (reference scoring with this model's
  situation), the ron payer(s) by ``ron_source``, the tsumo payments (``tsumo_payment``,
  ``tsumo_split_rounding``, ``tsumo_winners_pay_each_other``), ``payments: cap_at_balance``
  (§16), ``riichi_if_ronned: void`` (§7, §16: refund, no machibuse), the pot split among the
  winners (``multi_winner_pot``, ``pot_remainder``), the exhaustive draw (tenpai by ``tenpai``,
  a riichi seat always tenpai, ``draw_no_tenpai_pot``); the payment and pot-share events are
  exactly these, and the ledger (antes, deposits, refunds, payments, pot shares, discarded pot)
  keeps Σ chips + pot + discarded constant (§9.6).
- The game (§10): E1-S4, the West extension under ``west_gap``/``west_mode``, the bust rule
  under ``bust_check``, the pot at game end (``pot_at_game_end``), the ranking (``rank_ties``).
- Records: every column of each round record (reach0..3 in the games that measure it, as
  docs/emoji.md defines it) and of the game record.

Left out: the wall order (the log does not carry it, so which wall position each tile came from,
and the uniformity of the shuffle and of the ``in_wall`` indicator, cannot be checked); the
bots' choices beyond their legality (``wait_count_info`` and ``invalid_action`` only change
which legal action is picked); ``carry_chips`` (not offered).

Readings this model takes where the spec does not decide (see the test module's notes):
- the order of events inside a settlement is free (§9: applied at once); payments are compared
  summed per (payer, receiver);
- under ``ron_source: split`` the remainder is the exact one of §9.2 whatever
  ``tsumo_split_rounding`` says; the ron event names the tile ``best_for_winner`` would pick;
- ``furiten: discards`` reads the discard list after this turn's reveal (§4.1 step 4 appends
  before the step 5 check) and waits by shape (§2);
- ``cap_at_balance``: the remainder of a capped total goes wholly to the first payee in turn
  order from the payer (§16, "the payee", singular); the balance is the one after the antes,
  deposits and refunds of the round;
- ``riichi_min_chips`` is compared with the balance at the choice (after the ante and earlier
  deposits); 0 needs no balance at all, a negative one included (§7);
- ``simultaneous_wins: first_from_dealer`` with ``tsumo_ends_turn: false``: one winner among
  every seat completing in the turn, tsumo or ron (§9.1 "such seat" = a seat completing in
  the turn); a later tsumo completer is ignored at step 2 and discards;
- ``tsumo_winners_pay_each_other: false``: only the tsumo winners are exempt; a ron winner of
  the same turn (``tsumo_ends_turn: false``) pays them;
- ``riichi_if_ronned: void``: "completes the hand" means a win the rules allow (require_yaku,
  furiten); a voided declarer's own ron is valued again without machibuse and falls away if
  nothing is left (docs/emoji.md), with no second round of voiding;
- the game's end: the ranking is read before the pot goes ``to_top``; on a tie the pot is
  split evenly, the remainder to the first tied seat in E1's dealer order; when bust and the
  last round coincide the reason is ``bust``; a game that reaches 12 rounds before its West
  rounds end (regular_rounds + west_rounds > 12) ends with ``round_limit``.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np

from simcore.emoji import reference as ref
from simcore.emoji.engine import EV_TYPES, GAME_FIELDS, ROUND_FIELDS, END_REASON_NAMES
from tests.replay_checks import describe_event

N_SEATS = 4
N_KINDS = 30
COPIES = 3
HAND = 7
REACH_EVERY = 8
MAX_ROUNDS = 12
OUT_TSUMO, OUT_RON, OUT_DRAW = 0, 1, 2
YAKU = ref.YAKU_KEYS
YBIT = {name: 1 << i for i, name in enumerate(YAKU)}
HONOUR_NAMES = ("cat", "fish", "bird")

(EV_ROUND_START, EV_DEAL, EV_DRAW, EV_DISCARD, EV_TSUMO, EV_RON, EV_PAYMENT, EV_POT_SHARE,
 EV_EXHAUSTIVE, EV_ROUND_END, EV_GAME_END, EV_ANTE, EV_DEPOSIT, EV_REFUND,
 EV_POT_DISCARDED) = (EV_TYPES.index(n) for n in (
    "round_start", "deal", "draw", "discard", "tsumo", "ron", "payment", "pot_share",
    "exhaustive", "round_end", "game_end", "ante", "deposit", "refund", "pot_discarded"))
SETTLE_TYPES = (EV_TSUMO, EV_RON, EV_PAYMENT, EV_POT_SHARE, EV_REFUND, EV_EXHAUSTIVE,
                EV_POT_DISCARDED)


def tile(k: int) -> str:
    if not 0 <= k < N_KINDS:
        return f"<kind {k}>"
    return f"{k - 26}z" if k >= 27 else f"{k % 9 + 1}{'kmh'[k // 9]}"


def hand_text(c) -> str:
    return " ".join(tile(k) for k in range(N_KINDS) for _ in range(c[k]))


def mask_names(m: int) -> list:
    return [n for n, b in YBIT.items() if m & b]


# ---- the win test (§2, §6), independent of the reference's enumeration --------------------

def _sets(c, wrap) -> bool:
    """Do the counts ``c`` (a list, changed and restored) split into sets?"""
    k = next((i for i in range(N_KINDS) if c[i]), -1)
    if k < 0:
        return True
    if c[k] >= 3:
        c[k] -= 3
        ok = _sets(c, wrap)
        c[k] += 3
        if ok:
            return True
    if k < 27:
        r = k % 9
        runs = []
        if r <= 6:
            runs.append((k, k + 1, k + 2))
        if wrap and r == 0:          # 1 is the lowest tile left: 8-9-1 and 9-1-2
            runs += [(k, k + 7, k + 8), (k, k + 1, k + 8)]
        for run in runs:
            if all(c[x] for x in run):
                for x in run:
                    c[x] -= 1
                ok = _sets(c, wrap)
                for x in run:
                    c[x] += 1
                if ok:
                    return True
    return False


@lru_cache(maxsize=200_000)
def is_win(c8: tuple, wrap: bool) -> bool:
    """§6: 8 tiles in the basic shape (2 sets + a pair) or four pairs."""
    held = [k for k in range(N_KINDS) if c8[k]]
    if len(held) == 4 and all(c8[k] == 2 for k in held):
        return True
    c = list(c8)
    for p in held:
        if c[p] >= 2:
            c[p] -= 2
            ok = _sets(c, wrap)
            c[p] += 2
            if ok:
                return True
    return False


@lru_cache(maxsize=100_000)
def waits(c7: tuple, wrap: bool) -> tuple:
    """§6: the kinds held at most twice that complete the 7 tiles."""
    out = []
    c = list(c7)
    for k in range(N_KINDS):
        if c[k] <= COPIES - 1:
            c[k] += 1
            if is_win(tuple(c), wrap):
                out.append(k)
            c[k] -= 1
    return tuple(out)


class Rules:
    """The options the replay needs, read from the scenario."""

    def __init__(self, sc):
        g = sc.get
        self.start = int(g("chips.start"))
        self.ante = int(g("chips.ante"))
        self.deposit = int(g("chips.riichi_deposit"))
        self.regular = int(g("game_length.regular_rounds"))
        self.west = int(g("game_length.west_rounds"))
        self.west_gap = int(g("game_length.west_gap"))
        self.west_mode = g("game_length.west_mode")
        self.bust_check = g("game_length.bust_check")
        self.first_dealer = g("game_length.first_dealer")
        self.rank_ties = g("game_length.rank_ties")
        self.pot_at_end = g("game_length.pot_at_game_end")
        self.indicator = g("wall.indicator")
        self.dora_next = g("wall.dora_next")
        self.honor_cycle = list(g("wall.honor_cycle"))
        turns = g("wall.turns")
        live = 61 if self.indicator == "removed" else 62
        self.turns = live // 4 if turns == "auto" else int(turns)
        self.wrap = bool(g("shapes.wrap_runs"))
        self.decomposition = g("shapes.decomposition")
        self.tenpai = g("shapes.tenpai")
        self.require_yaku = bool(g("shapes.require_yaku"))
        self.furiten = g("shapes.furiten")
        self.tsumo_ends_turn = bool(g("turn.tsumo_ends_turn"))
        self.simultaneous = g("turn.simultaneous_wins")
        self.min_chips = int(g("riichi.min_chips"))
        self.riichi_last_turn = bool(g("riichi.last_turn"))
        self.if_ronned = g("riichi.if_ronned")
        self.tsumo_payment = g("settlement.tsumo_payment")
        self.split_rounding = g("settlement.tsumo_split_rounding")
        self.pay_each_other = bool(g("settlement.tsumo_winners_pay_each_other"))
        self.ron_source = g("settlement.ron_source")
        self.multi_pot = g("settlement.multi_winner_pot")
        self.pot_remainder = g("settlement.pot_remainder")
        self.no_tenpai_pot = g("settlement.draw_no_tenpai_pot")
        self.payments = g("settlement.payments")
        s = g("scoring")
        self.tenhou_seats = s["tenhou_seats"]
        self.tenhou_is_tsumo = bool(s["tenhou_is_tsumo"])
        self.last_tile_scope = s["last_tile_scope"]
        self.mult = {y: (None if v == "off" else float(v)) for y, v in s["yaku"].items()}
        self.opts = dict(
            wrap_runs=self.wrap, chanta_four_pairs=bool(s["chanta_four_pairs"]),
            half_flush_needs_number=bool(s["half_flush_needs_number"]),
            honor_triplet_per_set=bool(s["honor_triplet_per_set"]),
            decomposition=self.decomposition,
            supersedes={k: list(v) for k, v in dict(s["supersedes"]).items()},
            rounding=s["rounding"], base=float(s["base"]),
            dealer_factor=float(s["dealer_factor"]), dora_points=float(s["dora_points"]),
            dora_includes_win_tile=bool(s["dora_includes_win_tile"]), require_yaku=False)

    def next_kind(self, k: int) -> int:
        """§3.5: the dora after indicator kind k."""
        if self.dora_next == "global":
            return (k + 1) % N_KINDS
        if k < 27:
            return k - k % 9 + (k % 9 + 1) % 9
        i = self.honor_cycle.index(HONOUR_NAMES[k - 27])
        return 27 + HONOUR_NAMES.index(self.honor_cycle[(i + 1) % 3])


class Replay:
    def __init__(self, sc, events, batch):
        self.r = Rules(sc)
        self.events = np.asarray(events).astype(np.int64).tolist()
        self.rounds = np.asarray(batch.rounds)
        self.games = np.asarray(batch.games)
        self.pos = 0
        self.where = "game start"
        self._value_cache = {}
        self.stats = Counter()     # what the game exercised (the tests' coverage checks)

    # ---- the event cursor -----------------------------------------------------------------

    def fail(self, rule, msg):
        raise AssertionError(f"[event {self.pos}, {self.where}] {rule}: {msg}")

    def check(self, cond, rule, msg):
        if not cond:
            self.fail(rule, msg)

    def peek(self):
        return self.events[self.pos] if self.pos < len(self.events) else None

    def peek_type(self):
        e = self.peek()
        return None if e is None else e[0]

    def take(self, ev_type, rule, what=""):
        e = self.peek()
        if e is None or e[0] != ev_type:
            self.fail(rule, f"expected a {EV_TYPES[ev_type]} event {what}, got "
                            f"{self.describe(e)}")
        self.pos += 1
        return e

    @staticmethod
    def describe(e):
        return describe_event(e, EV_TYPES)

    # ---- chips -------------------------------------------------------------------------------

    def move(self, seat, amount):
        """``amount`` chips from seat to pot (negative: pot to seat)."""
        self.chips[seat] -= amount
        self.pot += amount
        if self.chips[seat] < 0:
            self.went_negative = True

    # ---- scoring -----------------------------------------------------------------------------

    def situation(self, seat, tsumo, turn, riichi_turn, win_drawn_last):
        """§8.3 situation yaku of a win (names)."""
        r = self.r
        y = set()
        if riichi_turn >= 1:
            y.add("machibuse")
        if riichi_turn == 1:
            y.add("debana_machibuse")
        if tsumo:
            y.add("tsumo")
        if turn == r.turns and (r.last_tile_scope == "whole_turn" or tsumo or win_drawn_last):
            y.add("last_tile")
        if tsumo and turn == 1 and (r.tenhou_seats == "any" or seat == self.dealer):
            y.add("tenhou")
            if not r.tenhou_is_tsumo:
                y.discard("tsumo")
        return frozenset(y)

    def value(self, c8: tuple, win_kind, sit: frozenset, dealer: bool):
        """(value, yaku mask) of a win (§8), or None when ``require_yaku`` refuses it (§6)."""
        key = (c8, win_kind, sit, dealer, self.dora)
        if key in self._value_cache:
            return self._value_cache[key]
        r = self.r
        o = r.opts
        decs = ref.decompositions(list(c8), r.wrap)
        assert decs, "value of a non-win"
        if r.decomposition == "basic_first" and any(d[0] == "basic" for d in decs):
            decs = [d for d in decs if d[0] == "basic"]
        n_dora = c8[self.dora] - (1 if not o["dora_includes_win_tile"]
                                  and win_kind == self.dora else 0)
        factor = o["dealer_factor"] if dealer else 1.0
        best = None
        for d in decs:
            names = ref.shape_yaku(d, list(c8), o) | set(sit)
            for y in list(names):
                for implied in o["supersedes"].get(y, ()):
                    names.discard(implied)
            p = 1.0
            mask = 0
            for y in YAKU:
                if y in names and r.mult[y] is not None:
                    m = r.mult[y]
                    if y == "honor_triplet" and o["honor_triplet_per_set"]:
                        m = m ** ref.honor_triplets(d)
                    p *= m
                    mask |= YBIT[y]
            v = ref.round_value(o["base"] * p * factor, o["rounding"]) + \
                int(o["dora_points"] * n_dora)
            cand = (-v, d, mask)
            if best is None or cand[:2] < best[:2]:
                best = cand
        out = (-best[0], best[2])
        if r.require_yaku and best[2] == 0:
            out = None
        self._value_cache[key] = out
        return out

    # ---- the game ----------------------------------------------------------------------------

    def run(self):
        r = self.r
        self.check(self.games.shape == (1, len(GAME_FIELDS)), "records",
                   f"batch.games has shape {self.games.shape}")
        game = dict(zip(GAME_FIELDS, (int(v) for v in self.games[0])))
        first = self.peek()
        self.check(first is not None and first[0] == EV_ROUND_START, "§3",
                   f"the events start with {self.describe(first)}")
        fd = first[1]
        if r.first_dealer == "seat0":
            self.check(fd == 0, "§3.2 first_dealer: seat0", f"E1's dealer is seat {fd}")
        self.check(0 <= fd < N_SEATS, "§3.2", f"E1's dealer {fd} is no seat")
        self.check(game["first_dealer"] == fd, "records", f"game record first_dealer "
                   f"{game['first_dealer']}, E1's round_start names {fd}")
        self.chips = [r.start] * N_SEATS
        self.pot = 0
        self.discarded = 0
        rnd = 0
        game_index = None
        while True:
            self.dealer = (fd + rnd) % N_SEATS
            self.where = f"round {rnd} (dealer {self.dealer})"
            self.went_negative = False
            out = self.play_round(rnd)
            self.check(sum(self.chips) + self.pot + self.discarded == N_SEATS * r.start,
                       "§9.6 conservation", f"chips {self.chips} + pot {self.pot} + discarded "
                       f"{self.discarded} != {N_SEATS * r.start}")
            self.check(rnd < len(self.rounds), "records",
                       f"batch.rounds has {len(self.rounds)} rows, round {rnd} was played")
            rec = dict(zip(ROUND_FIELDS, (int(v) for v in self.rounds[rnd])))
            if game_index is None:
                game_index = rec["game"]
            self.check_round_record(rec, rnd, game_index, out)

            # §10: does the game go on?
            n = rnd + 1
            gap = max(self.chips) - min(self.chips)
            negative = min(self.chips) < 0 or (r.bust_check == "any_time" and self.went_negative)
            reason = None
            if negative:
                reason = "bust"
                if min(self.chips) >= 0:
                    self.stats["bust_during_round_only"] += 1
            elif n == r.regular:
                if gap > r.west_gap or r.west == 0:
                    reason = "regular"
            elif n > r.regular:
                if n == r.regular + r.west or (r.west_mode == "sudden_death" and gap > r.west_gap):
                    reason = "west"
            if n > r.regular:
                self.stats["west_round"] += 1
            if reason is None and n >= MAX_ROUNDS:
                reason = "round_limit"
            if reason is None:
                self.check(self.peek_type() == EV_ROUND_START, "§10",
                           f"the game goes on after round {rnd} (chips {self.chips}, gap {gap}, "
                           f"west_gap {r.west_gap}), but the next event is "
                           f"{self.describe(self.peek())}")
                rnd += 1
                continue
            self.end_game(game, reason, n)
            return

    def end_game(self, game, reason, n_rounds):
        r = self.r
        self.where = f"game end after {n_rounds} rounds ({reason})"
        self.stats["end_" + reason] += 1
        if self.pot:
            self.stats["pot_at_game_end"] += 1
        top = max(self.chips)
        tops = [s for s in range(N_SEATS) if self.chips[s] == top]
        e1_order = [(game["first_dealer"] + i) % N_SEATS for i in range(N_SEATS)]
        if len(tops) > 1:
            self.stats["rank_tie"] += 1
        if r.rank_ties == "dealer_order":
            tops = [next(s for s in e1_order if s in tops)]
        winners = sum(1 << s for s in tops)
        pot_left = 0
        if self.pot:
            if r.pot_at_end == "discard":
                e = self.take(EV_POT_DISCARDED, "§10 pot_at_game_end: discard")
                self.check(e[1] == -1 and e[2] == self.pot, "§10 pot_at_game_end: discard",
                           f"{self.describe(e)}, the pot is {self.pot}")
                pot_left = self.pot
                self.discarded += self.pot
            else:
                shares = Counter()
                while self.peek_type() == EV_POT_SHARE:
                    e = self.take(EV_POT_SHARE, "")
                    shares[e[1]] += e[2]
                each, rem = divmod(self.pot, len(tops))
                first = next(s for s in e1_order if s in tops)
                want = Counter({s: each + (rem if s == first else 0) for s in tops})
                want = +want
                self.check(shares == want, "§10 pot_at_game_end: to_top",
                           f"pot shares {dict(shares)}, expected {dict(want)} (pot {self.pot}, "
                           f"chips {self.chips})")
                for s, a in want.items():
                    self.chips[s] += a
            self.pot = 0
        e = self.take(EV_GAME_END, "§10", f"(the game ends: {reason})")
        self.check(e[1] == -1 and e[2] == winners, "§10 ranking",
                   f"game_end winners {e[2]:#b}, expected {winners:#b} (chips {self.chips}, "
                   f"rank_ties {r.rank_ties})")
        self.check(e[3] == END_REASON_NAMES.index(reason), "§10",
                   f"game_end reason {e[3]}, expected {END_REASON_NAMES.index(reason)} "
                   f"({reason})")
        self.check(self.pos == len(self.events), "§10",
                   f"{len(self.events) - self.pos} events after game_end")
        self.check(len(self.rounds) == n_rounds, "records",
                   f"batch.rounds has {len(self.rounds)} rows, {n_rounds} rounds were played")
        want = {"winners": winners, "end_reason": END_REASON_NAMES.index(reason),
                "rounds": n_rounds, "first_dealer": game["first_dealer"], "pot_left": pot_left}
        for s in range(N_SEATS):
            want[f"chips{s}"] = self.chips[s]
        for key, v in want.items():
            self.check(game[key] == v, "records",
                       f"game record {key} = {game[key]}, expected {v} (record {game})")

    # ---- a round -----------------------------------------------------------------------------

    def play_round(self, rnd):
        r = self.r
        d = self.dealer
        order = [(d + i) % N_SEATS for i in range(N_SEATS)]
        self.order = order
        e = self.take(EV_ROUND_START, "§3")
        self.check(e[1] == d, "§3.2 dealer rotation", f"round_start dealer {e[1]}, expected {d}")
        self.indicator = e[3]
        self.check(0 <= self.indicator < N_KINDS, "§3.5", f"indicator {self.indicator}")
        self.dora = e[2]
        want = r.next_kind(self.indicator)
        self.check(self.dora == want, f"§3.5 dora_next: {r.dora_next}",
                   f"dora {tile(self.dora)} for indicator {tile(self.indicator)}, expected "
                   f"{tile(want)}")
        # antes (§3.3)
        antes = []
        while self.peek_type() == EV_ANTE:
            e = self.take(EV_ANTE, "§3.3")
            self.check(e[2] == r.ante, "§3.3 ante", f"seat {e[1]} antes {e[2]}, not {r.ante}")
            antes.append(e[1])
            self.move(e[1], e[2])
        self.check(sorted(antes) == list(range(N_SEATS)), "§3.3 ante",
                   f"antes by seats {antes}, expected one per seat")
        # the deal (§3.4)
        self.seen = [0] * N_KINDS
        if r.indicator == "removed":
            self.seen[self.indicator] += 1
        self.hand = [[0] * N_KINDS for _ in range(N_SEATS)]
        for _ in range(N_SEATS * HAND):
            e = self.take(EV_DEAL, "§3.4 deal")
            s, k = e[1], e[2]
            self.check(0 <= s < N_SEATS and 0 <= k < N_KINDS, "§3.4", self.describe(e))
            self.hand[s][k] += 1
            self.see(k, f"dealt to seat {s}")
        for s in range(N_SEATS):
            self.check(sum(self.hand[s]) == HAND, "§3.4 deal",
                       f"seat {s} is dealt {sum(self.hand[s])} tiles")
        if r.indicator == "in_wall":
            self.check(self.seen[self.indicator] <= 2, "§3.5 indicator: in_wall",
                       f"the deal holds 3 of the indicator's kind {tile(self.indicator)}, "
                       "which is a tile of wall[28..89]")
        self.disc = [[] for _ in range(N_SEATS)]       # (kind, riichi flag, turn)
        self.riichi_turn = [0] * N_SEATS
        self.reach = [0] * N_SEATS
        self.reach_states = [set() for _ in range(N_SEATS)]
        for s in range(N_SEATS):
            self.reach_states[s].add((tuple(self.hand[s]), 0))

        for t in range(1, r.turns + 1):
            self.where = f"round {rnd} (dealer {d}), turn {t}"
            self.turn = t
            drawn = [-1] * N_SEATS
            for s in order:
                e = self.take(EV_DRAW, "§3.6/§4.1 step 1 (draws in dealer order)",
                              f"for seat {s}")
                self.check(e[1] == s, "§3.6 draws in dealer order",
                           f"seat {e[1]} draws where seat {s} is due (dealer {d})")
                k = e[2]
                self.check(0 <= k < N_KINDS, "§3.6", f"drawn kind {k}")
                self.hand[s][k] += 1
                drawn[s] = k
                self.see(k, f"drawn by seat {s}")
            self.drawn = drawn
            # step 2: tsumo check
            tsumo = {}
            for s in order:
                c8 = tuple(self.hand[s])
                if is_win(c8, r.wrap):
                    v = self.value(c8, drawn[s], self.situation(
                        s, True, t, self.riichi_turn[s], True), s == d)
                    if v is not None:
                        tsumo[s] = v
                    else:
                        self.stats["yaku_block"] += 1
            if r.simultaneous == "first_from_dealer" and len(tsumo) > 1:
                self.stats["first_from_dealer_cut"] += 1
            if r.simultaneous == "first_from_dealer" and tsumo:
                first = next(s for s in order if s in tsumo)
                tsumo = {first: tsumo[first]}
            if tsumo and r.tsumo_ends_turn:
                return self.settle(tsumo, {}, {}, t, [])
            # steps 3-4: the reveal
            discards = self.reveal(t, tsumo)
            # step 5: ron check
            cands = {}
            for p in range(N_SEATS):
                if p in tsumo:
                    continue
                q_vals = self.ron_candidates(p, discards, t)
                if q_vals:
                    cands[p] = q_vals
            winners = set(tsumo) | set(cands)
            if tsumo and cands:
                self.stats["tsumo_and_ron"] += 1
            if r.simultaneous == "first_from_dealer" and len(winners) > 1:
                self.stats["first_from_dealer_cut"] += 1
            if r.simultaneous == "first_from_dealer" and winners:
                first = next(s for s in order if s in winners)
                tsumo = {s: v for s, v in tsumo.items() if s == first}
                cands = {s: v for s, v in cands.items() if s == first}
            voided = []
            if r.if_ronned == "void" and cands:
                for q, (k, flag) in discards.items():
                    if flag and any(q in qv for qv in cands.values()):
                        voided.append(q)
                for q in voided:
                    self.stats["void"] += 1
                    self.riichi_turn[q] = 0
                    if q in cands:     # its own ron, re-valued without machibuse (§7)
                        again = self.ron_candidates(q, discards, t)
                        if again:
                            cands[q] = again
                        else:
                            del cands[q]
            if tsumo or cands:
                return self.settle(tsumo, cands, discards, t, voided)
        # §9.5 exhaustive draw
        return self.exhaustive()

    def see(self, k, what):
        self.seen[k] += 1
        if self.seen[k] > COPIES:
            extra = " (+ the removed indicator)" if (self.r.indicator == "removed"
                                                      and k == self.indicator) else ""
            self.fail("§1 tiles", f"a 4th {tile(k)} {what}: 3 copies of each kind{extra}")

    def reveal(self, t, tsumo):
        """§4.1 steps 3-4: every seat not winning by tsumo discards; deposits. Returns
        {seat: (kind, riichi flag)}."""
        r = self.r
        due = [s for s in range(N_SEATS) if s not in tsumo]
        chips_at_choice = list(self.chips)
        out = {}
        for s in due:
            e = self.take(EV_DISCARD, "§4.1 step 4 (discards in seat order)", f"by seat {s}")
            self.check(e[1] == s, "§4.1 step 4", f"discard by seat {e[1]} where seat {s} is due "
                       f"(the tsumo winners {sorted(tsumo)} do not discard)")
            k, flag = e[2], e[3]
            self.check(flag in (0, 1), "§4.2", f"riichi flag {flag}")
            c = self.hand[s]
            self.check(0 <= k < N_KINDS and c[k] >= 1, "§4.2 discard",
                       f"seat {s} discards {tile(k)}, not in its hand {hand_text(c)}")
            if self.riichi_turn[s]:
                self.check(k == self.drawn[s] and flag == 0, "§7 riichi (S38)",
                           f"seat {s} in riichi since turn {self.riichi_turn[s]} discards "
                           f"{tile(k)}{'*' if flag else ''}, drew {tile(self.drawn[s])}")
            c[k] -= 1
            if flag:
                w = waits(tuple(c), r.wrap)
                self.check(w, "§4.2/§7 riichi", f"seat {s} declares riichi with {tile(k)} "
                           f"leaving {hand_text(c)}, not tenpai")
                self.stats["riichi"] += 1
                if t == r.turns:
                    self.stats["riichi_last_turn"] += 1
                if chips_at_choice[s] < max(r.min_chips, 1):
                    self.stats["riichi_short_of_chips"] += 1
                self.check(r.min_chips == 0 or chips_at_choice[s] >= r.min_chips,
                           "§7 riichi_min_chips",
                           f"seat {s} declares riichi with {chips_at_choice[s]} chips < "
                           f"{r.min_chips}")
                self.check(r.riichi_last_turn or t < r.turns, "§7 riichi_last_turn: false",
                           f"seat {s} declares riichi on the last turn {t}")
                self.riichi_turn[s] = t
            self.disc[s].append((k, flag, t))
            out[s] = (k, flag)
            if flag:
                e = self.take(EV_DEPOSIT, "§7 deposit", f"for seat {s}'s riichi")
                self.check(e[1] == s and e[2] == r.deposit, "§7 deposit",
                           f"{self.describe(e)}, expected seat {s} paying {r.deposit}")
                self.move(s, e[2])
            self.reach_states[s].add((tuple(c), self.riichi_turn[s]))
        return out

    def ron_candidates(self, p, discards, t):
        """§4.1 step 5: {discarder q: (value, yaku)} of the wins p may take on this turn's
        discards."""
        r = self.r
        out = {}
        c7 = self.hand[p]
        for q, (k, _) in discards.items():
            if q == p or c7[k] >= COPIES:
                continue
            c8 = list(c7)
            c8[k] += 1
            c8 = tuple(c8)
            if not is_win(c8, r.wrap):
                continue
            v = self.value(c8, k, self.situation(p, False, t, self.riichi_turn[p],
                                                 k == self.drawn[q]), p == self.dealer)
            if v is None:
                self.stats["yaku_block"] += 1
                continue
            if r.furiten == "discards":
                w = waits(tuple(c7), r.wrap)
                own = {dk for dk, _, _ in self.disc[p]}
                if own & set(w):
                    self.stats["furiten_block"] += 1
                    continue
            out[q] = v
        return out

    def after(self, w):
        return [(w + i) % N_SEATS for i in range(1, N_SEATS)]

    def settle(self, tsumo, cands, discards, t, voided):
        """§9.1-§9.4: the wins of turn t; the events up to round_end."""
        r = self.r
        d = self.dealer
        owed = Counter()            # (payer, receiver) -> chips
        wins = {}                   # seat -> (kind event, tile, value, from, yaku)
        ron_from = 0
        for w, (v, y) in tsumo.items():
            wins[w] = (EV_TSUMO, self.drawn[w], v, -1, y)
            if r.tsumo_payment == "each_full":
                share = {q: v for q in self.after(w)}
            elif r.split_rounding == "ceil":
                share = {q: -(-v // 3) for q in self.after(w)}
            else:
                base, rem = divmod(v, 3)
                share = {q: base + (1 if i < rem else 0) for i, q in enumerate(self.after(w))}
            for q, a in share.items():
                if q in tsumo and not r.pay_each_other:
                    continue
                owed[(q, w)] += a
        self.stats["tsumo"] += len(tsumo)
        for w in tsumo:
            if t == 1 and w != self.dealer:
                self.stats["turn1_tsumo_non_dealer"] += 1
        for p, qv in cands.items():
            if t == r.turns:
                self.stats["ron_last_turn"] += 1
                if any(discards[q][0] != self.drawn[q] for q in qv):
                    self.stats["ron_last_turn_not_drawn"] += 1
        for v, y in list(tsumo.values()) + [v for qv in cands.values() for v in qv.values()]:
            for name in mask_names(y):
                self.stats["yaku_" + name] += 1
        self.stats["ron"] += len(cands)
        if len(tsumo) > 1:
            self.stats["multi_tsumo"] += 1
        if len(tsumo) + len(cands) > 1:
            self.stats["multi_win"] += 1
        for p, qv in cands.items():
            if len(qv) > 1:
                self.stats["ron_several_discards"] += 1
            if any(p in other for other in cands.values()):
                self.stats["cross_ron"] += 1
            after = self.after(p)
            ranked = sorted(qv, key=lambda q: (-qv[q][0], after.index(q)))
            best = ranked[0]
            v, y = qv[best]
            if r.ron_source == "best_for_winner":
                pay = {best: v}
            elif r.ron_source == "nearest_seat":
                best = min(qv, key=after.index)
                v, y = qv[best]
                pay = {best: v}
            elif r.ron_source == "split":
                payers = sorted(qv, key=after.index)
                base, rem = divmod(v, len(payers))
                pay = {q: base + (1 if i < rem else 0) for i, q in enumerate(payers)}
            else:   # each_full
                pay = {q: qv[q][0] for q in qv}
            wins[p] = (EV_RON, discards[best][0], v, best, y)
            for q, a in pay.items():
                owed[(q, p)] += a
                ron_from |= 1 << q
        # the events of the settlement, up to round_end
        got = self.take_settlement()
        bad = [e for e in got if e[0] in (EV_EXHAUSTIVE, EV_POT_DISCARDED)]
        self.check(not bad, "§9", f"events {bad} in the settlement of a win")
        refunds = [e for e in got if e[0] == EV_REFUND]
        want_ref = sorted((q, r.deposit) for q in voided)
        self.check(sorted((e[1], e[2]) for e in refunds) == want_ref,
                   "§7/§16 riichi_if_ronned: void",
                   f"refunds {[(e[1], e[2]) for e in refunds]}, expected {want_ref}")
        for q in voided:
            self.move(q, -r.deposit)
        # the win events
        have_wins = {}
        for e in got:
            if e[0] in (EV_TSUMO, EV_RON):
                self.check(e[1] not in have_wins, "§9", f"two win events for seat {e[1]}")
                have_wins[e[1]] = tuple(e[:1] + e[2:6])
        for s in sorted(set(wins) | set(have_wins)):
            want = wins.get(s)
            have = have_wins.get(s)
            if want is None:
                self.fail("§4.1/§9.1 automatic wins",
                          f"seat {s} wins ({self.describe([have[0], s, *have[1:]])}) but the "
                          f"rules allow no win: {self.seat_text(s, discards)}")
            if have is None:
                self.fail("§4.1/§9.1 automatic wins", f"seat {s} wins by "
                          f"{'tsumo' if want[0] == EV_TSUMO else 'ron'} on {tile(want[1])} "
                          f"(value {want[2]}, yaku {mask_names(want[4])}) but no win event: "
                          f"{self.seat_text(s, discards)}")
            if have != want:
                self.fail("§8/§9.3 the win", f"seat {s}: event (type, tile, value, from, yaku) "
                          f"{have} {mask_names(have[4])}, expected {want} "
                          f"{mask_names(want[4])}: {self.seat_text(s, discards)}; candidates "
                          f"{cands.get(s)}")
        # payments (§9.2, §9.3, §9.6)
        owed = self.capped(owed)
        self.check_payments(got, owed)
        # the pot (§9.4)
        self.check_pot_shares(got, sorted(wins, key=self.order.index))
        out = {"outcome": OUT_TSUMO if tsumo and not cands else OUT_RON if not tsumo
               else "mixed", "turns": t, "winners": sum(1 << s for s in wins),
               "ron_from": ron_from, "tenpai": 0,
               "values": {s: w[2] for s, w in wins.items()},
               "yaku": {s: w[4] for s, w in wins.items()}}
        return out

    def seat_text(self, s, discards):
        dis = ", ".join(f"{q}:{tile(k)}{'*' if f else ''}" for q, (k, f) in
                        sorted(discards.items()))
        return (f"seat {s} holds {hand_text(self.hand[s])}, riichi turn "
                f"{self.riichi_turn[s]}, drew {tile(self.drawn[s])}; this turn's discards "
                f"[{dis}]; dora {tile(self.dora)}; dealer {self.dealer}")

    def take_settlement(self):
        got = []
        while self.peek_type() in SETTLE_TYPES:
            got.append(self.events[self.pos])
            self.pos += 1
        e = self.peek()
        self.check(e is not None and e[0] == EV_ROUND_END, "§9",
                   f"the settlement ends with {self.describe(e)}, not round_end")
        return got

    def capped(self, owed):
        """§9.6/§16 payments: cap_at_balance."""
        if self.r.payments != "cap_at_balance":
            return owed
        out = Counter()
        for p in range(N_SEATS):
            mine = {rcv: a for (q, rcv), a in owed.items() if q == p and a}
            total = sum(mine.values())
            cap = max(self.chips[p], 0)
            if total > cap:
                self.stats["cap_binds"] += 1
                if len(mine) > 1:
                    self.stats["cap_binds_several_payees"] += 1
            if total <= cap:
                for rcv, a in mine.items():
                    out[(p, rcv)] = a
                continue
            shares = {rcv: cap * a // total for rcv, a in mine.items()}
            rem = cap - sum(shares.values())
            first = next(q for q in self.after(p) if q in mine)
            shares[first] += rem
            for rcv, a in shares.items():
                out[(p, rcv)] = a
        return out

    def check_payments(self, got, owed):
        have = Counter()
        for e in got:
            if e[0] == EV_PAYMENT:
                have[(e[1], e[2])] += e[3]
        have = +have
        want = +Counter(owed)
        self.check(have == want, "§9.2/§9.3 payments",
                   f"payments (payer, receiver): amount {dict(sorted(have.items()))}, expected "
                   f"{dict(sorted(want.items()))} (chips before {self.chips})")
        for (p, q), a in want.items():
            self.chips[p] -= a
            self.chips[q] += a
        if min(self.chips) < 0:
            self.went_negative = True

    def pot_split(self, receivers):
        """§9.4: {seat: share} of the pot among ``receivers`` (dealer order)."""
        r = self.r
        if not receivers:
            return {}
        if r.multi_pot == "first_in_dealer_order":
            return {receivers[0]: self.pot}
        each, rem = divmod(self.pot, len(receivers))
        if rem:
            self.stats["pot_remainder"] += 1
        out = {s: each for s in receivers}
        if r.pot_remainder == "dealer_order":
            out[receivers[0]] += rem
        return out

    def check_pot_shares(self, got, receivers, rule="§9.4 pot"):
        have = Counter()
        for e in got:
            if e[0] == EV_POT_SHARE:
                have[e[1]] += e[2]
        want = self.pot_split(receivers)
        self.check(+have == +Counter(want), rule,
                   f"pot shares {dict(have)}, expected {want} (pot {self.pot}, receivers in "
                   f"dealer order {receivers})")
        taken = sum(want.values())
        for s, a in want.items():
            self.chips[s] += a
        self.pot -= taken
        self.pot_taken = taken
        e = self.take(EV_ROUND_END, "§9")
        self.check(e[1] == -1 and e[2] == self.pot, "§9.4",
                   f"round_end says pot left {e[2]}, the pot is {self.pot}")

    def exhaustive(self):
        """§9.5."""
        r = self.r
        self.where += ", exhaustive draw"
        tenpai = []
        for s in self.order:
            w = waits(tuple(self.hand[s]), r.wrap)
            if self.riichi_turn[s]:
                ok = True
            elif r.tenpai == "shape":
                ok = bool(w)
            else:
                ok = any(self.unseen(s, k) > 0 for k in w)
                if w and not ok:
                    self.stats["dead_wait"] += 1
            if ok:
                tenpai.append(s)
        bits = sum(1 << s for s in tenpai)
        self.stats["draw"] += 1
        if not tenpai:
            self.stats["draw_nobody_tenpai"] += 1
        got = self.take_settlement()
        ex = [e for e in got if e[0] == EV_EXHAUSTIVE]
        self.check(len(ex) == 1 and ex[0][1] == -1, "§9.5", f"exhaustive events {ex}")
        self.check(ex[0][2] == bits, f"§9.5 tenpai: {r.tenpai}",
                   f"tenpai bits {ex[0][2]:#06b}, expected {bits:#06b}: " + "; ".join(
                       f"seat {s} {hand_text(self.hand[s])} riichi {self.riichi_turn[s]}"
                       for s in range(N_SEATS)))
        bad = [e for e in got if e[0] not in (EV_EXHAUSTIVE, EV_POT_SHARE, EV_POT_DISCARDED)]
        self.check(not bad, "§9.5 no other payments", f"events {bad} at a draw")
        disc = [e for e in got if e[0] == EV_POT_DISCARDED]
        receivers = tenpai
        if not tenpai:
            if r.no_tenpai_pot == "split_all":
                receivers = list(self.order)
            elif r.no_tenpai_pot == "discard":
                want = [[EV_POT_DISCARDED, -1, self.pot]] if self.pot else []
                self.check([e[:3] for e in disc] == want, "§9.5 draw_no_tenpai_pot: discard",
                           f"pot_discarded events {disc}, the pot is {self.pot}")
                self.discarded += self.pot
                self.pot = 0
                disc = []
        self.check(not disc, "§9.5", f"pot_discarded events {disc}")
        self.check_pot_shares(got, receivers, f"§9.5/§9.4 pot at a draw "
                              f"(draw_no_tenpai_pot {r.no_tenpai_pot})")
        return {"outcome": OUT_DRAW, "turns": self.r.turns, "winners": 0, "ron_from": 0,
                "tenpai": bits, "values": {}, "yaku": {}}

    def unseen(self, s, k):
        """§5: 3 - (own count + all discards + the removed indicator)."""
        n = self.hand[s][k] + sum(1 for q in range(N_SEATS) for dk, _, _ in self.disc[q]
                                  if dk == k)
        if self.r.indicator == "removed" and k == self.indicator:
            n += 1
        return COPIES - n

    # ---- records -----------------------------------------------------------------------------

    def reach_mask(self, s):
        """docs/emoji.md reach: every state of the seat's 7 tiles (the deal, after each of its
        discards), each wait scored as a ron with its riichi, dealership and dora."""
        m = 0
        for c7, rt in self.reach_states[s]:
            for k in waits(c7, self.r.wrap):
                c8 = list(c7)
                c8[k] += 1
                sit = frozenset((["machibuse"] if rt >= 1 else []) +
                                (["debana_machibuse"] if rt == 1 else []))
                v = self.value(tuple(c8), k, sit, s == self.dealer)
                if v is not None:
                    m |= v[1]
        return m

    def check_round_record(self, rec, rnd, game_index, out):
        sampled = game_index % REACH_EVERY == 0
        outcome = out["outcome"]
        want = {"game": game_index, "round": rnd, "dealer": self.dealer, "turns": out["turns"],
                "winners": out["winners"], "ron_from": out["ron_from"],
                "riichi": sum(1 << s for s in range(N_SEATS) if self.riichi_turn[s]),
                "tenpai": out["tenpai"], "pot_taken": self.pot_taken, "pot_left": self.pot,
                "dora": self.dora}
        if outcome != "mixed":
            want["outcome"] = outcome
        else:
            self.check(rec["outcome"] in (OUT_TSUMO, OUT_RON), "records",
                       f"outcome {rec['outcome']} of a turn with tsumo and ron wins")
        for s in range(N_SEATS):
            want[f"value{s}"] = out["values"].get(s, 0)
            want[f"yaku{s}"] = out["yaku"].get(s, 0)
            want[f"chips{s}"] = self.chips[s]
            if sampled:
                want[f"reach{s}"] = self.reach_mask(s) | out["yaku"].get(s, 0)
            else:
                want[f"reach{s}"] = 0
        for key, v in want.items():
            self.check(rec[key] == v, "records", f"round record {key} = {rec[key]}, expected "
                       f"{v} (record {rec})")


def check_game(sc, events, batch) -> Counter:
    """Replay one recorded game of scenario ``sc``; AssertionError naming the event index and the
    spec section on the first thing the rules do not allow. Returns what the game exercised
    (a Counter: tsumo, ron, multi_win, void, furiten_block, ...)."""
    rp = Replay(sc, events, batch)
    rp.run()
    return rp.stats

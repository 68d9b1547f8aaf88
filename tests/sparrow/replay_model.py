"""An independent replay checker for Sparrow mahjong games, written from the specification
(../shared/rules/sparrow.md, beside the project) and the readings of docs/sparrow.md alone (not
from the engine).

:func:`check_game` walks one recorded game (its event log and its batch of round and game records)
event by event, keeping its own model of the hands, discards, wall and points, and raises
AssertionError on the first event or record the rules do not allow. Hand analysis, points,
furiten and the dora rule come from the pure-Python reference (tests/sparrow/reference.py).

What is checked
---------------
- Tiles: ids 0..43; the indicator, the five tiles of every deal and every drawn tile are all
  distinct within a round; the live wall has 44 - 5n - 1 tiles, no round draws more.
- Set-up: the round starts with its dealer (the first from the game record's first_dealer, the
  next by ``match.dealer_repeat``), the dora kind follows ``wall.dora`` from the indicator, then
  one deal per seat in turn order from the dealer.
- Turns: the dealer draws first, a seat draws then discards a tile it holds, and the turn passes
  to the next seat.
- Wins: after every draw the drawer's tsumo, after every discard every other seat's ron, is
  computed independently: two sets (reference.is_win), worth at least ``wins.min_points``
  (reference.points with the red tiles of ``deck.red_bamboo``, the round's dora kind and the
  dealer), and for a ron not furiten (``wins.furiten``; waits read by shape, own discards of the
  round). A legal tsumo must be taken (a ``win`` event) or, only under ``wins.may_decline``,
  declined (a ``decline`` event); an illegal one must not appear. Rons are offered in seat order
  from the discarder's next seat: under ``head_bump`` the first seat that takes it wins and no
  later seat is asked, under ``all`` every legal seat takes it or (may_decline) declines. A win
  event's points equal the reference's, and its word carries the reference's red tiles, dora
  tiles, runs and yaku (see ``_word``).
- The end of the round: a win ends it; when the wall is empty and the last discard is not won,
  an exhaustive draw with the tenpai seats (a 5-tile hand with a winning kind not all held in
  it, reference.waits; by shape, whatever the points or furiten) and nothing else.
- Payments: a ron is paid by the discarder, a tsumo by every other seat (``settlement.tsumo``), an
  exhaustive draw by each noten seat to each tenpai seat (``draw.noten_payment``); the payment
  events (their nonzero amounts) are exactly these.
- Records: each round's row of batch.rounds (game, round, dealer, outcome, turns, winners,
  from_seat, dora, value/yaku per seat, points per seat after the round, zeros past the seats)
  and the game's row of batch.games (winners, end_reason, rounds, seats, first_dealer, points).
- Reach (in the games whose index is a multiple of 8, else 0): each seat's reach column holds
  the hand yaku some wait of its 5-tile hand would have scored (a win worth min_points, with a
  copy of the waiting kind it does not hold, red or plain) after the deal or any of its
  discards, and a winner's the yaku it won with.
- The game: the dealer passes after every round unless it repeats (``on_win``: the dealer is
  among the winners; ``on_win_or_draw``: that or an exhaustive draw); the game ends exactly
  after ``laps`` x seats passes, when a seat is below 0 under ``match.bust_ends``, or at 256
  rounds, and game_end names the top seats (ties shared) and the reason.

Readings this model takes where neither the spec nor docs/sparrow.md decides
----------------------------------------------------------------------------
- A seat that declines a win is not furiten for it: furiten reads only one's own discards.
- Under ``head_bump`` with ``may_decline``, a seat that declines passes the ron on to the next
  seat that could take it.
- When a round both busts a seat and completes the last lap, the end reason is ``bust``; a round
  that reaches 256 rounds and ends otherwise names that other reason.
- The yaku bits of a win's word are those that count in the hand (by their condition, as the
  docs read specials, whatever their points; ``dealer`` when the winner deals), under
  ``specials: alone`` a special hand's specials only; see ``_word``.
"""
from __future__ import annotations


import numpy as np

from simcore.sparrow.engine import EV_TYPES, GAME_FIELDS, ROUND_FIELDS
from tests.replay_checks import describe_event
from tests.sparrow import reference as ref

N_TILES = 44
HAND = 5
ROUND_LIMIT = 256
END_REASONS = ("laps", "bust", "round_limit")
OUTCOME_TSUMO, OUTCOME_RON, OUTCOME_DRAW = 0, 1, 2
MAX_SEATS = 6
REACH_EVERY = 8        # reach is measured in the games whose index is a multiple of this
HAND_YAKU = 0b11111    # tanyao, chanta, chinyao, all_green, super_red: the yaku of a hand

(EV_ROUND_START, EV_DEAL, EV_DRAW, EV_DISCARD, EV_WIN, EV_DECLINE, EV_PAYMENT, EV_EXHAUSTIVE,
 EV_GAME_END) = (EV_TYPES.index(name) for name in (
    "round_start", "deal", "draw", "discard", "win", "decline", "payment", "exhaustive",
    "game_end"))

SCORING_KEYS = ("run", "triplet", "tanyao", "chanta", "chinyao", "all_green", "super_red", "red",
                "dora", "dealer_bonus", "specials")


def kind(tile: int) -> int:
    return tile // 4


def tile_name(tile: int) -> str:
    k = kind(tile)
    return ("G" if k == 9 else "R" if k == 10 else f"{k + 1}s") + f"#{tile}"


def hand_text(tiles) -> str:
    return " ".join(tile_name(t) for t in sorted(tiles))


def counts_of(tiles) -> list:
    c = [0] * ref.N_KINDS
    for t in tiles:
        c[kind(t)] += 1
    return c


class Rules:
    """The options the replay needs, read from the scenario's dict."""

    def __init__(self, sc):
        d = sc.to_dict()
        self.n = len(d["players"])
        self.start_points = int(d["start_points"])
        self.red_bamboo = int(d["deck"]["red_bamboo"])
        self.dora_mode = d["wall"]["dora"]
        w = d["wins"]
        self.min_points = int(w["min_points"])
        self.furiten = w["furiten"]
        self.multiple_ron = w["multiple_ron"]
        self.may_decline = bool(w["may_decline"])
        self.noten_payment = int(d["draw"]["noten_payment"])
        self.scoring = {k: d["scoring"][k] for k in SCORING_KEYS}
        self.tsumo_mode = d["settlement"]["tsumo"]
        m = d["match"]
        self.dealer_repeat = m["dealer_repeat"]
        self.laps = int(m["laps"])
        self.bust_ends = bool(m["bust_ends"])
        self.live_wall = N_TILES - HAND * self.n - 1

    def is_red(self, tile: int) -> bool:
        k = kind(tile)
        return k == ref.R or (k < 9 and tile % 4 < self.red_bamboo)


def _word(counts, reading, reds, dora_count, dealer, specials_alone) -> int:
    """The win word the records carry: bits 0..5 tanyao, chanta, chinyao, all_green, super_red,
    dealer; red tiles at bit 8, dora tiles at bit 12, runs at bit 16 (counts of the hand, always).
    A yaku's bit is set when the yaku counts in the hand, whatever its points: when the hand
    meets its condition (chinyao, then no chanta; ``dealer``: the winner deals), except that
    under ``scoring.specials: alone`` a hand with a special counts its specials only."""
    present = [k for k in range(ref.N_KINDS) if counts[k]]
    tanyao = all(k in ref.SIMPLE_KINDS for k in present)
    chinyao = all(k in ref.TERMINALS_AND_DRAGONS for k in present)
    chanta = (not chinyao) and all(
        any(k in ref.TERMINALS_AND_DRAGONS for k in ref.set_kinds(s)) for s in reading)
    all_green = all(k in ref.GREEN_KINDS for k in present)
    super_red = reds == ref.HAND_SIZE
    bits = [tanyao, chanta, chinyao, all_green, super_red, bool(dealer)]
    if specials_alone and (chinyao or all_green or super_red):
        bits = [False, False, chinyao, all_green, super_red, False]
    runs = sum(1 for s in reading if s[0] == "run")
    word = sum(1 << i for i, b in enumerate(bits) if b)
    return word | (reds << 8) | (dora_count << 12) | (runs << 16)


def _fmt_word(word: int) -> str:
    names = ("tanyao", "chanta", "chinyao", "all_green", "super_red", "dealer")
    yaku = [n for i, n in enumerate(names) if (word >> i) & 1]
    return (f"{word} (yaku {yaku}, red {(word >> 8) & 15}, dora {(word >> 12) & 15}, "
            f"runs {(word >> 16) & 3})")


class Replay:
    def __init__(self, sc, events, batch):
        self.rules = Rules(sc)
        self.events = np.asarray(events).astype(np.int64).tolist()
        self.pos = 0
        self.rounds = np.asarray(batch.rounds)
        self.games = np.asarray(batch.games)
        self.where = "game start"

    # ---- the event cursor -------------------------------------------------------------------

    def fail(self, msg):
        raise AssertionError(f"[{self.where}, event {self.pos}] {msg}")

    def check(self, cond, msg):
        if not cond:
            self.fail(msg)

    def peek(self):
        return self.events[self.pos] if self.pos < len(self.events) else None

    def peek_type(self):
        e = self.peek()
        return None if e is None else e[0]

    def take(self, ev_type, what=""):
        e = self.peek()
        if e is None:
            self.fail(f"the events end where a {EV_TYPES[ev_type]} {what} was due")
        if e[0] != ev_type:
            self.fail(f"expected {EV_TYPES[ev_type]} {what}, got {self.describe(e)}")
        self.pos += 1
        return e

    @staticmethod
    def describe(e):
        return describe_event(e, EV_TYPES)

    # ---- hands --------------------------------------------------------------------------

    def win_value(self, tiles, dealer: bool):
        """(is two sets, points, word) for 6 tile ids; points/word None when not two sets."""
        c = counts_of(tiles)
        if not ref.is_win(c):
            return False, None, None
        reds = sum(1 for t in tiles if self.rules.is_red(t))
        best = ref.points(c, reds, self.dora, dealer, self.rules.scoring)
        word = _word(c, best["reading"], reds, c[self.dora], dealer,
                     self.rules.scoring["specials"] == "alone")
        return True, best["points"], word

    def reach_bits(self, tiles, dealer: bool) -> int:
        """The hand yaku (word bits 0-4) some wait of the 5 tiles ``tiles`` would score in a win
        worth min_points: every kind that completes it, with each copy of it not in the hand
        (red or not)."""
        bits = 0
        for k in ref.waits(counts_of(tiles)):
            for t in range(4 * k, 4 * k + 4):
                if t not in tiles:
                    shape, pts, word = self.win_value(tiles + [t], dealer)
                    if shape and pts >= self.rules.min_points:
                        bits |= word & HAND_YAKU
        return bits

    # ---- the game -----------------------------------------------------------------------

    def run(self):
        r = self.rules
        n = r.n
        self.check(self.games.shape == (1, len(GAME_FIELDS)),
                   f"batch.games has shape {self.games.shape}, expected (1, {len(GAME_FIELDS)})")
        game = dict(zip(GAME_FIELDS, (int(v) for v in self.games[0])))
        self.check(self.rounds.ndim == 2 and self.rounds.shape[1] == len(ROUND_FIELDS),
                   f"batch.rounds has shape {self.rounds.shape}")
        self.check(game["seats"] == n, f"game record seats {game['seats']}, scenario has {n}")
        first = self.peek()
        self.check(first is not None and first[0] == EV_ROUND_START,
                   f"the events start with {self.describe(first)}, not round_start")
        first_dealer = first[1]
        self.check(0 <= first_dealer < n, f"first dealer {first_dealer} is no seat")
        self.check(game["first_dealer"] == first_dealer,
                   f"game record first_dealer {game['first_dealer']}, first round_start dealer "
                   f"{first_dealer}")

        self.points = [r.start_points] * n
        dealer = first_dealer
        passes = 0
        rnd = 0
        game_index = None
        while True:
            self.where = f"round {rnd} (dealer {dealer})"
            outcome = self.play_round(dealer)
            # the record of the round
            self.check(rnd < len(self.rounds),
                       f"batch.rounds has {len(self.rounds)} rows, round {rnd} was played")
            rec = dict(zip(ROUND_FIELDS, (int(v) for v in self.rounds[rnd])))
            if game_index is None:
                game_index = rec["game"]
            expect = {"game": game_index, "round": rnd, "dealer": dealer,
                      "outcome": outcome["outcome"], "turns": outcome["draws"],
                      "winners": sum(1 << s for s in outcome["wins"]),
                      "from_seat": outcome["from_seat"], "dora": self.dora}
            sampled = game_index % REACH_EVERY == 0
            for s in range(MAX_SEATS):
                w = outcome["wins"].get(s)
                expect[f"reach{s}"] = (outcome["reach"].get(s, 0) | (w[1] & HAND_YAKU if w else 0)
                                       if sampled else 0)
                expect[f"value{s}"] = w[0] if w else 0
                expect[f"yaku{s}"] = w[1] if w else 0
                expect[f"points{s}"] = self.points[s] if s < n else 0
            for key, want in expect.items():
                if rec[key] != want:
                    self.fail(f"round record {key} = {rec[key]}, expected {want} "
                              f"(record {rec})")

            # the deal passes?
            dealer_won = dealer in outcome["wins"]
            drawn = outcome["outcome"] == OUTCOME_DRAW
            repeat = {"none": False, "on_win": dealer_won,
                      "on_win_or_draw": dealer_won or drawn}[r.dealer_repeat]
            if not repeat:
                passes += 1
                dealer = (dealer + 1) % n
            rounds_played = rnd + 1
            reason = None
            if r.bust_ends and min(self.points) < 0:
                reason = "bust"
            elif passes >= r.laps * n:
                reason = "laps"
            elif rounds_played >= ROUND_LIMIT:
                reason = "round_limit"
            if reason is None:
                self.check(self.peek_type() == EV_ROUND_START,
                           f"the game goes on (passes {passes}/{r.laps * n}, points "
                           f"{self.points}, {rounds_played} rounds), but the next event is "
                           f"{self.describe(self.peek())}")
                rnd += 1
                continue
            self.where = f"game end after round {rnd}"
            e = self.take(EV_GAME_END, f"(the game ends: {reason})")
            top = max(self.points)
            winners = sum(1 << s for s in range(n) if self.points[s] == top)
            self.check(e[1] == -1, f"game_end seat {e[1]}, expected -1")
            self.check(e[2] == winners,
                       f"game_end winners {e[2]:#b}, expected {winners:#b} (points "
                       f"{self.points})")
            self.check(e[3] == END_REASONS.index(reason),
                       f"game_end reason {e[3]}, expected {END_REASONS.index(reason)} "
                       f"({reason}; passes {passes}/{r.laps * n}, points {self.points}, "
                       f"{rounds_played} rounds)")
            self.check(self.pos == len(self.events),
                       f"{len(self.events) - self.pos} events after game_end: "
                       f"{self.describe(self.peek())}")
            self.check(len(self.rounds) == rounds_played,
                       f"batch.rounds has {len(self.rounds)} rows, {rounds_played} rounds "
                       "were played")
            want = {"winners": winners, "end_reason": END_REASONS.index(reason),
                    "rounds": rounds_played, "seats": n, "first_dealer": first_dealer}
            for s in range(MAX_SEATS):
                want[f"points{s}"] = self.points[s] if s < n else 0
            for key, v in want.items():
                self.check(game[key] == v, f"game record {key} = {game[key]}, expected {v} "
                                           f"(record {game})")
            return

    def play_round(self, dealer):
        r = self.rules
        n = r.n
        e = self.take(EV_ROUND_START)
        self.check(e[1] == dealer, f"round_start dealer {e[1]}, expected {dealer}")
        indicator = e[3]
        self.check(0 <= indicator < N_TILES, f"indicator {indicator} is no tile")
        self.dora = ref.next_dora(kind(indicator), r.dora_mode)
        self.check(e[2] == self.dora,
                   f"dora kind {e[2]} for indicator {tile_name(indicator)} under wall.dora "
                   f"{r.dora_mode}, expected {self.dora}")
        seen = {indicator}

        def fresh(tile, what):
            self.check(0 <= tile < N_TILES, f"{what}: {tile} is no tile id")
            self.check(tile not in seen, f"{what}: tile {tile_name(tile)} was already dealt, "
                                         "drawn or revealed this round")
            seen.add(tile)

        hands = {}
        for i in range(n):
            s = (dealer + i) % n
            e = self.take(EV_DEAL, f"for seat {s}")
            self.check(e[1] == s, f"deal to seat {e[1]}, expected seat {s} (turn order from "
                                  f"dealer {dealer})")
            packed = e[2]
            self.check(packed >> (6 * HAND) == 0, f"deal word {packed} has more than 5 tiles")
            tiles = [(packed >> (6 * j)) & 63 for j in range(HAND)]
            for t in tiles:
                fresh(t, f"deal to seat {s}")
            hands[s] = tiles
        discards = {s: set() for s in range(n)}
        # what each seat's hand was within reach of (docs/statistics.md: reach)
        reach = {s: self.reach_bits(hands[s], s == dealer) for s in range(n)}
        draws = 0
        turn = dealer
        base = self.where
        while True:
            self.where = f"{base}, draw {draws + 1}"
            self.check(draws < r.live_wall, "the wall is empty but the round goes on")
            e = self.take(EV_DRAW, f"by seat {turn}")
            self.check(e[1] == turn, f"seat {e[1]} draws, it is seat {turn}'s turn")
            tile = e[2]
            fresh(tile, f"seat {turn} draws")
            draws += 1
            hands[turn].append(tile)

            # tsumo?
            is_dealer = turn == dealer
            shape, pts, word = self.win_value(hands[turn], is_dealer)
            legal = shape and pts >= r.min_points
            nxt = self.peek()
            if nxt is not None and nxt[0] == EV_WIN:
                self.pos += 1
                self.check(nxt[1] == turn, f"seat {nxt[1]} wins on seat {turn}'s draw")
                self.check(shape, f"tsumo by seat {turn} on a hand that is not two sets: "
                                  f"{hand_text(hands[turn])}")
                self.check(nxt[2] == tile, f"tsumo tile {nxt[2]}, drawn {tile}")
                self.check(nxt[3] == pts, f"tsumo by seat {turn} with "
                                          f"{hand_text(hands[turn])} (dora kind {self.dora}) "
                                          f"worth {pts}, the event says {nxt[3]}")
                self.check(legal, f"tsumo by seat {turn} worth {pts} < min_points "
                                  f"{r.min_points}: {hand_text(hands[turn])}")
                self.check(nxt[4] == -1, f"tsumo event names discarder {nxt[4]}")
                self.check(nxt[5] == word, f"tsumo word {_fmt_word(nxt[5])}, expected "
                                           f"{_fmt_word(word)}: {hand_text(hands[turn])}")
                deltas = ref.settle(pts, turn, None, n, r.tsumo_mode)
                self.settle_payments(deltas_pairs_tsumo(deltas, turn))
                return {"outcome": OUTCOME_TSUMO, "draws": draws, "wins": {turn: (pts, word)},
                        "from_seat": -1, "reach": reach}
            if nxt is not None and nxt[0] == EV_DECLINE:
                self.pos += 1
                self.check(r.may_decline, f"decline event {self.describe(nxt)} while "
                                          "wins.may_decline is false")
                self.check(nxt[1] == turn and nxt[2] == tile and nxt[4] == -1,
                           f"decline {self.describe(nxt)} after seat {turn} drew {tile}")
                self.check(legal, f"seat {turn} declines a tsumo that is not legal "
                                  f"(two sets {shape}, points {pts}): {hand_text(hands[turn])}")
                self.check(nxt[3] == pts, f"declined tsumo worth {pts}, event says {nxt[3]}")
            else:
                self.check(not legal, f"seat {turn} skips a legal tsumo worth {pts} on "
                                      f"{tile_name(tile)}: {hand_text(hands[turn])} (next "
                                      f"event {self.describe(nxt)})")

            # the discard
            e = self.take(EV_DISCARD, f"by seat {turn}")
            self.check(e[1] == turn, f"seat {e[1]} discards, it is seat {turn}'s turn")
            out = e[2]
            self.check(out in hands[turn], f"seat {turn} discards {out}, not in its hand "
                                           f"{hand_text(hands[turn])}")
            hands[turn].remove(out)
            discards[turn].add(kind(out))
            reach[turn] |= self.reach_bits(hands[turn], turn == dealer)

            # rons, in seat order from the discarder's next seat
            wins = {}
            paid = []     # payment events may follow each win
            for i in range(1, n):
                s = (turn + i) % n
                five = counts_of(hands[s])
                shape, pts, word = self.win_value(hands[s] + [out], s == dealer)
                legal = (shape and pts >= r.min_points and not ref.furiten(
                    discards[s], ref.waits(five), kind(out), r.furiten))
                nxt = self.peek()
                if nxt is not None and nxt[0] in (EV_WIN, EV_DECLINE) and nxt[1] == s:
                    self.pos += 1
                    verb = "wins" if nxt[0] == EV_WIN else "declines"
                    self.check(shape, f"seat {s} {verb} by ron on {tile_name(out)} from seat "
                                      f"{turn}, but {hand_text(hands[s])} + it is not two sets")
                    self.check(nxt[2] == out, f"ron tile {nxt[2]}, discarded {out}")
                    self.check(nxt[3] == pts, f"ron by seat {s} with {hand_text(hands[s])} + "
                                              f"{tile_name(out)} (dora kind {self.dora}) worth "
                                              f"{pts}, the event says {nxt[3]}")
                    self.check(nxt[4] == turn, f"ron event names discarder {nxt[4]}, "
                                               f"expected {turn}")
                    self.check(pts >= r.min_points, f"seat {s} {verb} a ron worth {pts} < "
                                                    f"min_points {r.min_points}")
                    self.check(legal, f"seat {s} {verb} a ron on {tile_name(out)} while furiten "
                                      f"({r.furiten}): waits "
                                      f"{sorted(ref.waits(five))}, own discards "
                                      f"{sorted(discards[s])}")
                    if nxt[0] == EV_DECLINE:
                        self.check(r.may_decline, f"decline {self.describe(nxt)} while "
                                                  "wins.may_decline is false")
                        continue
                    self.check(nxt[5] == word, f"ron word {_fmt_word(nxt[5])}, expected "
                                               f"{_fmt_word(word)}: {hand_text(hands[s])} + "
                                               f"{tile_name(out)}")
                    wins[s] = (pts, word)
                    paid += self.take_payments()
                    if r.multiple_ron == "head_bump":
                        break
                else:
                    self.check(not legal, f"seat {s} skips a legal ron worth {pts} on "
                                          f"{tile_name(out)} from seat {turn}: "
                                          f"{hand_text(hands[s])} (multiple_ron "
                                          f"{r.multiple_ron}; next event "
                                          f"{self.describe(nxt)})")
            nxt = self.peek()
            self.check(nxt is None or nxt[0] not in (EV_WIN, EV_DECLINE),
                       f"unexpected {self.describe(nxt)} after seat {turn}'s "
                       f"discard {tile_name(out)} (the rons were {sorted(wins)}; "
                       f"multiple_ron {r.multiple_ron})")
            if wins:
                pays = [(turn, s, pts) for s, (pts, _) in wins.items()]
                self.settle_payments(pays, paid)
                return {"outcome": OUTCOME_RON, "draws": draws, "wins": wins,
                        "from_seat": turn, "reach": reach}
            if draws == r.live_wall:
                self.where = f"{base}, exhaustive draw"
                e = self.take(EV_EXHAUSTIVE, "(the wall is empty)")
                tenpai = [s for s in range(n) if ref.waits(counts_of(hands[s]))]
                mask = sum(1 << s for s in tenpai)
                self.check(e[1] == -1, f"exhaustive seat {e[1]}, expected -1")
                self.check(e[2] == mask, f"tenpai seats {e[2]:#b}, expected {mask:#b}: " +
                           "; ".join(f"seat {s} {hand_text(hands[s])}" for s in range(n)))
                pays = [(p, q, r.noten_payment) for p in range(n) if p not in tenpai
                        for q in tenpai]
                self.settle_payments(pays)
                return {"outcome": OUTCOME_DRAW, "draws": draws, "wins": {}, "from_seat": -1,
                        "reach": reach}
            turn = (turn + 1) % n

    def take_payments(self):
        got = []
        while self.peek_type() == EV_PAYMENT:
            e = self.take(EV_PAYMENT)
            got.append((e[1], e[2], e[3]))
        return got

    def settle_payments(self, expected, got=()):
        """The payment events of the round's end (``got``, taken already, and those that follow)
        are exactly the expected (payer, receiver, amount) triples with a nonzero amount, in
        any order; the points move by them."""
        got = list(got) + self.take_payments()
        nxt = self.peek()
        self.check(nxt is None or nxt[0] in (EV_ROUND_START, EV_GAME_END),
                   f"after the payments: {self.describe(nxt)}")
        want = sorted(p for p in expected if p[2] != 0)
        have = sorted(p for p in got if p[2] != 0)
        self.check(have == want, f"payments (payer, receiver, amount) {have}, expected {want}")
        for payer, receiver, amount in want:
            self.points[payer] -= amount
            self.points[receiver] += amount


def deltas_pairs_tsumo(deltas, winner):
    """reference.settle's score changes of a tsumo as (payer, receiver, amount) triples."""
    return [(s, winner, -d) for s, d in enumerate(deltas) if s != winner]


def check_game(sc, events, batch) -> None:
    """Replay one recorded game; AssertionError with a message on the first rule it breaks."""
    Replay(sc, events, batch).run()

"""An independent replay checker for two-player riichi games, written from the specification
(shared/rules/riichi2p.md, beside the project, with its §17 readings) and the event-log format of
simcore/riichi2p/engine.py (``EV_TYPES``, ``ROUND_FIELDS``, ``GAME_FIELDS`` and their comments),
not from the engine's rule logic.

:func:`check_game` walks one recorded game (``Simulator.replay_events(seed, game)``: the event
log and the batch of round and game records) event by event with its own model of the hands,
calls, discards, live and dead wall, indicators, riichi, ippatsu, furiten, pool, honba and
scores, and raises AssertionError naming the event index and the spec section on the first
thing the rules do not allow. Shapes and waits come from the pure-Python reference
(simcore/riichi2p/reference.py), and so do the yaku, fu and payment of a win; everything about
the flow of play is this module's own.

What is checked
---------------
- §3 set-up: the hand's dealer, kyoku and honba (from the first dealer of the game record, the
  repeat / pass rules of §10), the pool carried over, the scores; 13 + 13 dealt tiles, the
  dealer's first; one face-up indicator; every physical tile (deal, draw, indicator) distinct
  within a hand; at most ``live_wall`` - kans live draws, at most 4 replacement draws, at most 5
  indicators (1 + established kans, with ``kan_dora``).
- §4 flow: the dealer draws first; draw, then one of tsumo / ankan / kakan / kyuushu / discard;
  after a discard the opponent's ron, chi, pon or daiminkan, or its draw, or (live wall empty)
  the exhaustive draw. Calls: the tiles are in hand (chi: a run containing the called tile;
  pon: two; daiminkan: three; ankan: four; kakan: a pon of the kind and the fourth in hand);
  no call on the last discard (§17.3), no kan once the live wall is empty, at most 4 kans,
  the four-kans abort (§4.3, §17.4), no 5th kan; no call but a permitted ankan in riichi; after
  chi/pon a discard at once within kuikae (§4.4, §17.1), and a call with no legal discard after
  it is refused; kan dora turned before the replacement draw, not for a robbed kakan; a discard
  is a tile in hand; a discard's and a call's tile id names kind and red (§17.8).
- §7 riichi: closed, not in riichi, tenpai after the discard (§2 with
  ``tenpai_all_four_in_hand``, §17.7), score >= ``riichi_min_points``, live wall >=
  ``riichi_min_wall``; the deposit paid exactly when the riichi discard is not ronned; the
  frozen hand (discard the drawn tile; ankan only with the wait unchanged, with the drawn tile
  under ``riichi_ankan_drawn_only``); double riichi; ippatsu.
- §5/§6 wins: the shape, a yaku (reference), atozuke (reference), and for a ron: not discard
  furiten, not temporary furiten (a passed chankan / kokushi ankan ron), not riichi furiten
  (``riichi_pass_win: furiten``); under ``forced`` a riichi player's legal win that is not
  taken is refused. Situation flags: rinshan, chankan, haitei, houtei (§17.3), ippatsu,
  tenhou/chiihou/renhou, shiisan puutaa, paarenchan streak, honba, dora and red fives. The
  event's payment, han and fu equal the reference's (ura: the record's ura han must be
  reachable by the hidden ura indicators; the reference is then asked with indicators giving
  exactly that many).
- §9.5/§10/§11: the payment (damage only), the pool (to the winner, or ``vanish``, §17.2), the
  exhaustive draw (tenpai by §2, the noten penalty, transfer or damage only, nagashi mangan
  with its three voiding options and ``nagashi_honba``), kyuushu (first turn, no call, >= 9
  yaochu kinds), the dealer's repeat and honba, bust, both bust, the hand cap, the hand_end and
  game_end events and every checked column of the round and game records.

Left out
--------
- The reach columns (reach0/1) and the records' yaku bits beyond the regular yaku/yakuman
  names the reference reports (the bonus bits dora/ura/red/kazoe are checked too).
- Which red five a player gives up when it holds a red and a plain five: the spec does not say;
  the model follows the engine's documented reading (plain copies go first) only for calls,
  and accepts a discard naming either when both are held.
- Ura indicators are private: only their count in han is checked for reachability.
- The bots' choices between legal actions (the engine offers only legal ones; the model checks
  the chosen one is legal, and that a forced win is not skipped).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from simcore.riichi2p import reference as ref
from simcore.riichi2p.engine import EV_TYPES, GAME_FIELDS, ROUND_FIELDS
from simcore.riichi2p.scoring import YAKU

EV = {name: i for i, name in enumerate(EV_TYPES)}
RF = {name: i for i, name in enumerate(ROUND_FIELDS)}
GF = {name: i for i, name in enumerate(GAME_FIELDS)}
CHI, PON, MINKAN, KAKAN, ANKAN = range(5)
MELD_NAMES = ("chi", "pon", "minkan", "kakan", "ankan")
OUT_TSUMO, OUT_RON, OUT_DRAW, OUT_KYUUSHU, OUT_FOUR_KANS = range(5)
END_BUST, END_BOTH, END_LIMIT = range(3)
FIVES = (4, 13, 22)
LIMIT_CODE = {"": 0, "mangan": 1, "haneman": 2, "baiman": 3, "sanbaiman": 4, "kazoe": 5,
              "yakuman": 6, "renhou": 7}
YAKU_BIT = {name: i for i, name in enumerate(YAKU)}
REF_YAKU_NAME = {"yakuhai_haku": "haku", "yakuhai_hatsu": "hatsu", "yakuhai_chun": "chun",
                 "yakuhai_round": "round_wind", "yakuhai_seat": "seat_wind"}
RULE_KEYS = tuple(ref.DEFAULT_RULES)


def kname(k: int) -> str:
    return ref.tile_name(k)


@lru_cache(maxsize=200000)
def _waits(counts: tuple, n_melds: int, all_four: bool, held: tuple) -> frozenset:
    return frozenset(ref.waits(list(counts), n_melds, all_four, list(held)))


@lru_cache(maxsize=200000)
def _complete(counts: tuple, n_melds: int) -> bool:
    return ref.is_complete(list(counts), n_melds)


class Rules:
    def __init__(self, sc):
        d = sc.to_dict()
        self.d = d
        self.ref = {k: d[k] for k in RULE_KEYS if k in d}
        g = lambda k: d[k]  # noqa: E731
        self.start = list(g("start_points"))
        self.first_dealer = g("first_dealer")
        self.live_wall = int(g("live_wall"))
        self.east_west = g("seat_winds") == "east_west"
        self.kuikae = g("kuikae")
        self.noten_dealer_passes = g("noten_dealer_passes")
        self.suukaikan = bool(g("suukaikan"))
        self.kyuushu = bool(g("kyuushu"))
        self.noten_penalty = int(g("noten_penalty"))
        self.noten_transfer = g("noten_penalty_to") == "transfer"
        self.honba_value = int(g("honba_value"))
        self.honba_reset_on_pass = g("honba_after_draw") == "reset_on_pass"
        self.kan_dora = bool(g("kan_dora"))
        self.ura_dora = bool(g("ura_dora"))
        self.kan_ura = bool(g("kan_ura_dora"))
        self.ura_needs_riichi = bool(g("ura_needs_riichi"))
        self.red = bool(g("red_fives"))
        self.kokushi_ankan_ron = bool(g("kokushi_ankan_ron"))
        self.paarenchan = bool(g("paarenchan"))
        self.paarenchan_counts = g("paarenchan_counts")
        self.paarenchan_draw = g("paarenchan_draw")
        self.nagashi = g("nagashi_mangan")
        self.nagashi_void_on = g("nagashi_void_on")
        self.nagashi_honba = bool(g("nagashi_honba"))
        self.deposit = int(g("riichi_deposit"))
        self.riichi_min_points = int(g("riichi_min_points"))
        self.riichi_min_wall = int(g("riichi_min_wall"))
        self.forced = g("riichi_pass_win") == "forced"
        self.ankan_drawn_only = bool(g("riichi_ankan_drawn_only"))
        self.all_four = bool(g("tenpai_all_four_in_hand"))
        self.vanish = g("riichi_pot") == "vanish"
        self.below_zero = g("bust") == "below_zero"
        self.both_bust_draw = g("both_bust") == "draw"
        self.max_hands = int(g("max_hands"))


@dataclass
class Seat:
    counts: list = field(default_factory=lambda: [0] * 34)
    red: list = field(default_factory=lambda: [0, 0, 0])      # concealed red five per suit
    melds: list = field(default_factory=list)                # ref.Meld, in call order
    meld_red: int = 0
    discards: list = field(default_factory=list)              # kinds, called ones included
    riichi: int = 0            # 0, 1, 2 (double)
    riichi_pending: bool = False
    ippatsu: bool = False
    temp_furiten: bool = False
    riichi_furiten: bool = False
    n_draws: int = 0
    called_from: bool = False  # one of its discards was called
    made_call: bool = False
    kans: int = 0
    waits_before: frozenset = frozenset()

    def held(self):
        h = list(self.counts)
        for m in self.melds:
            for k in m.kinds():
                h[k] += 1
        return h

    def closed(self):
        return all(m.type == "ankan" for m in self.melds)


class Fail(AssertionError):
    pass


class Replay:
    def __init__(self, sc, events, batch):
        self.r = Rules(sc)
        self.ev = events
        self.rounds = batch.rounds
        self.games = batch.games
        self.i = 0

    # --- helpers --------------------------------------------------------------------------
    def fail(self, sec, msg):
        row = self.ev[self.i] if self.i < len(self.ev) else None
        what = EV_TYPES[row[0]] if row is not None and 0 <= row[0] < len(EV_TYPES) else "?"
        raise Fail(f"event {self.i} ({what} {list(map(int, row[1:])) if row is not None else ''}):"
                   f" §{sec}: {msg}")

    def need(self, cond, sec, msg):
        if not cond:
            self.fail(sec, msg)

    def row(self):
        self.need(self.i < len(self.ev), "11", "the log ends before the game does")
        return [int(x) for x in self.ev[self.i]]

    def is_red_phys(self, tid):
        return self.r.red and tid % 4 == 0 and tid // 4 in FIVES

    def named(self, tid, sec="17.8"):
        """A discard's / call's tile id: kind * 4 (red five) or kind * 4 + 1."""
        self.need(0 <= tid < 136, sec, f"tile id {tid} out of range")
        k, c = divmod(tid, 4)
        if c == 0:
            self.need(self.r.red and k in FIVES, sec,
                      f"tile id {tid} names a red {kname(k)}, which does not exist")
            return k, True
        self.need(c == 1, sec, f"tile id {tid} names a physical copy, not kind and red")
        return k, False

    def see(self, tid):
        self.need(0 <= tid < 136 and tid not in self.seen, "15",
                  f"physical tile {tid} already dealt, drawn or turned this hand")
        self.seen.add(tid)

    def add_tile(self, s, tid):
        k = tid // 4
        self.seat[s].counts[k] += 1
        self.need(self.seat[s].counts[k] + sum(m.kinds().count(k) for m in self.seat[s].melds) <= 4,
                  "1.1", f"more than 4 {kname(k)}")
        if self.is_red_phys(tid):
            self.seat[s].red[FIVES.index(k)] = 1

    def remove(self, s, k, red, sec):
        p = self.seat[s]
        self.need(p.counts[k] > 0, sec, f"seat {s} does not hold {kname(k)}")
        if k in FIVES and self.r.red:
            su = FIVES.index(k)
            if red:
                self.need(p.red[su], sec, f"seat {s} holds no red {kname(k)}")
                p.red[su] = 0
            else:
                self.need(p.counts[k] - p.red[su] > 0, sec, f"seat {s} holds no plain {kname(k)}")
        p.counts[k] -= 1

    def take_plain_first(self, s, k, n):
        """n copies of kind k from the hand into a call: plain ones first (the engine's
        documented reading; the spec does not say); returns the reds taken."""
        p = self.seat[s]
        self.need(p.counts[k] >= n, "4.2", f"seat {s} lacks {n} x {kname(k)} for its call")
        reds = 0
        if k in FIVES and self.r.red:
            su = FIVES.index(k)
            plain = p.counts[k] - p.red[su]
            if n > plain:
                reds = 1
                p.red[su] = 0
        p.counts[k] -= n
        return reds

    def waits(self, s, all_four=False):
        p = self.seat[s]
        return _waits(tuple(p.counts), len(p.melds), all_four, tuple(p.held()))

    def tenpai(self, s):
        return bool(self.waits(s, self.r.all_four))

    def furiten(self, s):
        p = self.seat[s]
        return bool(self.waits(s) & set(p.discards)) or p.temp_furiten or p.riichi_furiten

    def winner_red(self, s, extra_red):
        p = self.seat[s]
        return (sum(p.red) + p.meld_red + (1 if extra_red else 0)) if self.r.red else 0

    def make_win(self, s, k, tsumo, red_tile, *, rinshan=False, chankan=False, haitei=False,
                 houtei=False, first=False, shiisan=False, ura=()):
        p = self.seat[s]
        dealer = s == self.dealer
        if dealer:
            sw = ref.EAST
        else:
            sw = ref.WEST if self.r.east_west else ref.SOUTH
        conc = [kk for kk in range(34) for _ in range(p.counts[kk])]
        return ref.Win(concealed=conc, melds=[ref.Meld(m.type, m.kind, m.called, m.red)
                                              for m in p.melds],
                       win_tile=k, tsumo=tsumo, riichi=p.riichi,
                       ippatsu=p.ippatsu and p.riichi > 0, rinshan=rinshan, chankan=chankan,
                       haitei=haitei, houtei=houtei, first=first, dealer=dealer, seat_wind=sw,
                       round_wind=ref.EAST if self.kyoku < 4 else ref.SOUTH,
                       dora_indicators=list(self.indicators), ura_indicators=list(ura),
                       red=self.winner_red(s, red_tile), honba=self.honba,
                       streak=self.next_streak(s), shiisan_puutaa=shiisan)

    def next_streak(self, w):
        if self.r.paarenchan_counts == "dealer_wins" and w != self.dealer:
            return 0
        return self.streak + 1 if self.streak_seat == w else 1

    def legal_win(self, win):
        """(legal, score) by the reference: shape, yaku (2-han minimum), atozuke."""
        res = ref.score(win, self.r.ref)
        if res is None or not res.legal or not ref.has_yaku(res):
            return False, res
        return ref.atozuke_legal(win, self.r.ref), res

    # --- the game -------------------------------------------------------------------------
    def run(self):
        r = self.r
        g = self.games[0]
        fd = int(g[GF["first_dealer"]])
        if r.first_dealer != "random":
            self.need(fd == int(r.first_dealer), "3.2", f"first dealer {fd}, scenario says "
                      f"{r.first_dealer}")
        self.need(fd in (0, 1), "3.2", f"first dealer {fd}")
        self.first = fd
        self.scores = [0, 0]
        self.scores[fd] = r.start[0]
        self.scores[1 - fd] = r.start[1]
        self.kyoku, self.honba, self.pool = 0, 0, 0
        self.streak, self.streak_seat = 0, -1
        self.hand_no = 0
        self.rec_rows = []
        while True:
            over = self.play_hand()
            assert isinstance(over, tuple) and over[0] == "over", over
            end = over[1]
            self.hand_no += 1
            if end is not None:
                break
        winners, reason = end
        self.i_game_end(winners, reason)
        self.need(len(self.rounds) == self.hand_no, "15",
                  f"{len(self.rounds)} round records for {self.hand_no} hands")
        for name, want in (("winners", winners), ("end_reason", reason), ("rounds", self.hand_no),
                           ("score0", self.scores[0]), ("score1", self.scores[1]),
                           ("pool_left", self.pool)):
            got = int(g[GF[name]])
            if got != want:
                raise Fail(f"game record {name}: {got}, the rules give {want} (§11)")

    def i_game_end(self, winners, reason):
        row = self.row()
        self.need(row[0] == EV["game_end"], "11", "expected game_end")
        self.need(row[2] == winners, "11", f"game_end winners {row[2]}, the rules give {winners}")
        self.need(row[3] == reason, "11", f"game_end reason {row[3]}, the rules give {reason}")
        self.i += 1
        self.need(self.i == len(self.ev), "11", "events after game_end")

    # --- one hand ---------------------------------------------------------------------------
    def play_hand(self):
        r = self.r
        self.dealer = self.first if self.kyoku % 2 == 0 else 1 - self.first
        self.seen = set()
        self.seat = [Seat(), Seat()]
        self.indicators = []
        self.live_left = r.live_wall
        self.n_kans = 0
        self.any_call = False
        self.n_calls = 0
        self.live_draws = 0
        self.replacements = 0
        self.riichi_bits = 0
        row = self.row()
        self.need(row[0] == EV["hand_start"], "3", "expected hand_start")
        self.need(row[1] == self.dealer, "3.4", f"dealer {row[1]}, the rules give {self.dealer}")
        self.need(row[2] == self.kyoku, "3.4", f"kyoku {row[2]}, the rules give {self.kyoku}")
        self.need(row[3] == self.honba, "10", f"honba {row[3]}, the rules give {self.honba}")
        self.need(row[4] == self.pool, "9.5", f"pool {row[4]}, the rules give {self.pool}")
        self.need(row[6:8] == self.scores, "11", f"scores {row[6:8]}, the rules give {self.scores}")
        ind = row[5]
        self.i += 1
        for n in range(26):
            row = self.row()
            want = self.dealer if n < 13 else 1 - self.dealer
            self.need(row[0] == EV["deal"] and row[1] == want, "3.3",
                      f"deal {n}: expected a deal to seat {want} (13 each, the dealer first)")
            self.see(row[2])
            self.add_tile(row[1], row[2])
            self.i += 1
        row = self.row()
        self.need(row[0] == EV["indicator"] and row[2] == ind, "3.3",
                  "expected the first dora indicator of hand_start")
        self.see(ind)
        self.indicators.append(ind // 4)
        self.i += 1
        self.start_scores = list(self.scores)
        self.start_pool = self.pool
        return self.turns()

    def draw(self, s, replacement):
        row = self.row()
        self.need(row[0] == EV["draw"] and row[1] == s, "4.1",
                  f"expected a {'replacement ' if replacement else ''}draw by seat {s}")
        self.need(row[3] == (1 if replacement else 0), "4.1", "draw's replacement flag")
        p = self.seat[s]
        p.waits_before = self.waits(s)
        if replacement:
            self.replacements += 1
            self.need(self.replacements <= 4, "4.2", "a 5th replacement draw")
        else:
            self.need(self.live_left > 0, "3.3", "a draw from an empty live wall")
            self.live_left -= 1
            self.live_draws += 1
            p.n_draws += 1
            p.ippatsu = p.ippatsu  # a win on this draw may still be ippatsu
        self.see(row[2])
        self.add_tile(s, row[2])
        p.temp_furiten = False
        self.i += 1
        return row[2]

    def turns(self):
        """The play of a hand from the dealer's first draw; returns the game end or None."""
        r = self.r
        s = self.dealer
        replacement = False
        while True:
            # --- own turn after a draw ---
            tid = self.draw(s, replacement)
            drawn = tid // 4
            drawn_red = self.is_red_phys(tid)
            rinshan = replacement
            first_turn = (not replacement and self.seat[s].n_draws == 1 and not self.any_call)
            haitei = (not replacement and self.live_left == 0)
            p = self.seat[s]
            o = 1 - s
            # what a tsumo would be
            cts = list(p.counts)
            cts[drawn] -= 1
            tsumo_legal, tsumo_res = False, None
            if _complete(tuple(p.counts), len(p.melds)):
                p.counts[drawn] -= 1
                if drawn_red:
                    p.red[FIVES.index(drawn)] = 0
                win = self.make_win(s, drawn, True, drawn_red, rinshan=rinshan, haitei=haitei,
                                    first=first_turn, shiisan=first_turn)
                tsumo_legal, tsumo_res = self.legal_win(win)
                p.counts[drawn] += 1
                if drawn_red:
                    p.red[FIVES.index(drawn)] = 1
            row = self.row()
            if row[0] == EV["win"]:
                self.need(row[1] == s and row[2] == 1, "4.1", "a win here must be seat "
                          f"{s}'s tsumo")
                self.need(tsumo_res is not None, "5.1", f"tsumo on {kname(drawn)}: no winning shape")
                self.need(tsumo_legal, "5.2", f"tsumo on {kname(drawn)}: no yaku / 2-han minimum"
                          " / atozuke")
                self.need(row[7] == tid, "4.1", "the win's tile is not the drawn tile")
                p.counts[drawn] -= 1
                if drawn_red:
                    p.red[FIVES.index(drawn)] = 0
                win = self.make_win(s, drawn, True, drawn_red, rinshan=rinshan, haitei=haitei,
                                    first=first_turn, shiisan=first_turn)
                return self.settle_win(s, o, win, row)
            if r.forced and p.riichi and tsumo_legal:
                self.fail("6.3", "riichi_pass_win forced: a legal tsumo was not taken")
            if row[0] == EV["abort"]:
                self.need(row[2] == OUT_KYUUSHU, "10.4", "only kyuushu aborts on one's own turn")
                self.need(r.kyuushu, "10.4", "kyuushu with kyuushu: false")
                self.need(first_turn, "10.4", "kyuushu outside the first turn or after a call")
                n_y = sum(1 for k in ref.YAOCHU if p.counts[k])
                self.need(n_y >= 9, "10.4", f"kyuushu with {n_y} yaochu kinds")
                self.i += 1
                return self.settle_abort(OUT_KYUUSHU)
            if row[0] == EV["call"]:
                self.need(row[1] == s, "4.1", "a call by the seat not to move")
                typ, k = row[2], row[3]
                self.need(typ in (ANKAN, KAKAN), "4.1", f"{MELD_NAMES[typ] if 0 <= typ < 5 else typ}"
                          " on one's own turn")
                self.kan_checks(s, "4.2")
                if typ == ANKAN:
                    self.need(row[4] == -1, "4.2", "an ankan names no called tile")
                    self.need(p.counts[k] == 4, "4.2", f"ankan of {kname(k)} without four")
                    if p.riichi:
                        self.need(not r.ankan_drawn_only or k == drawn, "7",
                                  "riichi ankan not of the drawn tile")
                        before = p.waits_before
                        reds = self.take_plain_first(s, k, 4)
                        p.melds.append(ref.Meld("ankan", k, None, reds))
                        after = self.waits(s)
                        self.need(before == after, "7", f"riichi ankan of {kname(k)} changes the"
                                  f" wait {sorted(map(kname, before))} -> {sorted(map(kname, after))}")
                    else:
                        reds = self.take_plain_first(s, k, 4)
                        p.melds.append(ref.Meld("ankan", k, None, reds))
                    p.meld_red += reds
                    self.after_call(s)
                    p.kans += 1
                    self.n_kans += 1
                    self.i += 1
                    # the opponent may rob an ankan only with a kokushi, under the option
                    res = self.offer_kan_rob(o, s, k, False, ankan=True)
                    if res is not None:
                        return res
                    res = self.establish_kan()
                    if res is not None:
                        return res
                else:
                    self.need(not p.riichi, "4.2", "kakan in riichi")
                    kr = self.named(row[4])
                    self.need(kr[0] == k, "17.8", "kakan's added tile is not of its kind")
                    idx = [j for j, m in enumerate(p.melds) if m.type == "pon" and m.kind == k]
                    self.need(idx, "4.2", f"kakan of {kname(k)} without a pon")
                    self.remove(s, k, kr[1], "4.2")
                    m = p.melds[idx[0]]
                    m.type = "kakan"
                    if kr[1]:
                        m.red += 1
                        p.meld_red += 1
                    self.after_call(s)
                    self.i += 1
                    res = self.offer_kan_rob(o, s, k, kr[1], ankan=False)
                    if res is not None:
                        return res
                    p.kans += 1
                    self.n_kans += 1
                    res = self.establish_kan()
                    if res is not None:
                        return res
                replacement = True
                continue
            # a discard, maybe with riichi
            self.need(row[0] == EV["discard"] and row[1] == s, "4.1",
                      f"expected seat {s}'s tsumo, kan, kyuushu or discard")
            k, red = self.named(row[2])
            riichi = row[3] == 1
            if row[4] == 1:
                self.need(k == drawn and red == drawn_red, "4.1", "tsumogiri flag on a tile "
                          "that is not the drawn one")
            if p.riichi:
                self.need(k == drawn and red == drawn_red and not riichi, "7",
                          "in riichi the drawn tile must be discarded")
            self.remove(s, k, red, "4.1")
            first_discard = len(p.discards) == 0
            if riichi:
                self.need(not p.riichi, "7", "riichi while in riichi")
                self.need(p.closed(), "7", "riichi with an open hand")
                self.need(self.scores[s] >= r.riichi_min_points, "7",
                          f"riichi with {self.scores[s]} points")
                self.need(self.live_left >= r.riichi_min_wall, "7",
                          f"riichi with {self.live_left} live tiles left")
                self.need(self.tenpai(s), "7", "riichi with a noten hand")
                p.riichi = 2 if (first_discard and not self.any_call) else 1
                p.riichi_pending = True
            else:
                p.ippatsu = False
            res = self.after_discard(s, k, red, row[2])
            if res is not None:
                return res
            s = o
            replacement = False
            if self.pending_after_discard is not None:
                s, replacement = self.pending_after_discard

    def kan_checks(self, s, sec):
        r = self.r
        self.need(self.live_left > 0, "4.2", "a kan after the last live tile was drawn")
        self.need(self.n_kans < 4, "4.3", "a 5th kan")

    def after_call(self, s):
        self.any_call = True
        self.n_calls += 1
        self.seat[s].made_call = True
        for q in self.seat:
            q.ippatsu = False
        self.seat[s].temp_furiten = False

    def establish_kan(self):
        """The established kan moves a live tile to the dead wall, turns an indicator (§4.3)
        or aborts on four kans by both (§17.4); the replacement draw follows."""
        r = self.r
        self.live_left -= 1
        self.need(self.live_left >= 0, "3.3", "a kan with no live tile to move")
        if self.n_kans == 4 and r.suukaikan and max(q.kans for q in self.seat) < 4:
            row = self.row()
            self.need(row[0] == EV["abort"] and row[2] == OUT_FOUR_KANS, "4.3",
                      "the 4th kan by both players must abort the hand (before the indicator)")
            self.i += 1
            return self.settle_abort(OUT_FOUR_KANS)
        if r.kan_dora:
            row = self.row()
            self.need(row[0] == EV["indicator"], "4.3", "kan dora: an indicator before the "
                      "replacement draw")
            self.see(row[2])
            self.indicators.append(row[2] // 4)
            self.need(len(self.indicators) <= 5, "3.3", "more than 5 indicators")
            self.i += 1
        return None

    def offer_kan_rob(self, o, s, k, red, ankan):
        """The opponent's chankan (kakan) or kokushi ron (ankan, with the option)."""
        r = self.r
        q = self.seat[o]
        counts = list(q.counts)
        counts[k] += 1
        shape = _complete(tuple(counts), len(q.melds))
        legal, res = False, None
        if shape:
            win = self.make_win(o, k, False, red, chankan=not ankan)
            legal, res = self.legal_win(win)
            if ankan:
                legal = legal and r.kokushi_ankan_ron and res is not None and \
                    "kokushi" in res.yakuman
            legal = legal and not self.furiten(o)
        row = self.row()
        if row[0] == EV["win"]:
            self.need(row[1] == o and row[2] == 0, "4.3", "only the opponent's ron may follow a kan")
            self.need(shape, "5.1", f"{'chankan' if not ankan else 'ankan ron'} on {kname(k)}: "
                      "no winning shape")
            if ankan:
                self.need(r.kokushi_ankan_ron, "4.3", "a ron on an ankan without kokushi_ankan_ron")
                self.need(res is not None and "kokushi" in res.yakuman, "4.3",
                          "a ron on an ankan by a hand that is not kokushi")
            self.need(not self.furiten(o), "6", f"ron on {kname(k)} in furiten")
            self.need(legal, "5.2", "the robbing ron has no yaku / fails atozuke")
            self.need(row[7] // 4 == k, "4.3", "the win's tile is not the kan's tile")
            win = self.make_win(o, k, False, red, chankan=not ankan)
            return self.settle_win(o, s, win, row)
        if shape:          # a winning tile passed (§6.2, §6.3)
            if r.forced and q.riichi and legal:
                self.fail("6.3", "riichi_pass_win forced: a legal robbing ron was not taken")
            q.temp_furiten = True
            if q.riichi:
                q.riichi_furiten = True
        return None

    def same_tile(self, tid, k, red, disc_id):
        return self.named(tid) == (k, red)

    def after_discard(self, s, k, red, disc_id):
        """The opponent answers seat s's discard of k."""
        r = self.r
        p = self.seat[s]
        o = 1 - s
        q = self.seat[o]
        p.discards.append(k)
        self.pending_after_discard = None
        self.i += 1
        houtei = self.live_left == 0
        renhou = (o != self.dealer and q.n_draws == 0 and not self.any_call)
        counts = list(q.counts)
        counts[k] += 1
        shape = _complete(tuple(counts), len(q.melds))
        legal = False
        if shape:
            win = self.make_win(o, k, False, red, houtei=houtei, first=renhou)
            legal, res = self.legal_win(win)
            legal = legal and not self.furiten(o)
        row = self.row()
        if row[0] == EV["win"]:
            self.need(row[1] == o and row[2] == 0, "4.1", "only the opponent's ron may follow a discard")
            self.need(shape, "5.1", f"ron on {kname(k)}: no winning shape")
            self.need(not self.furiten(o), "6", f"ron on {kname(k)} in furiten "
                      f"(waits {sorted(map(kname, self.waits(o)))}, discards "
                      f"{sorted(set(map(kname, q.discards)))}, temporary {q.temp_furiten}, "
                      f"riichi {q.riichi_furiten})")
            self.need(legal, "5.2", f"ron on {kname(k)}: no yaku / 2-han minimum / atozuke")
            self.need(self.same_tile(row[7], k, red, disc_id), "4.1", "the win's tile is not the discard")
            p.riichi_pending = False    # a ronned riichi discard: no riichi (§7)
            if p.riichi and not (self.riichi_bits >> s) & 1:
                p.riichi = 0
            win = self.make_win(o, k, False, red, houtei=houtei, first=renhou)
            return self.settle_win(o, s, win, row)
        if shape:
            if r.forced and q.riichi and legal:
                self.fail("6.3", "riichi_pass_win forced: a legal ron was not taken")
            q.temp_furiten = True
            if q.riichi:
                q.riichi_furiten = True
        if row[0] == EV["riichi_paid"]:
            self.need(row[1] == s and p.riichi_pending, "7", "a deposit without a riichi discard")
            self.need(row[2] == r.deposit, "7", f"deposit {row[2]}, the rule is {r.deposit}")
            p.riichi_pending = False
            self.scores[s] -= r.deposit
            self.pool += r.deposit
            self.riichi_bits |= 1 << s
            p.ippatsu = True
            self.i += 1
            row = self.row()
        self.need(not p.riichi_pending, "7", "the riichi discard was not ronned: its deposit is due")
        if row[0] == EV["call"]:
            return self.discard_call(s, o, k, red, row, disc_id)
        if self.live_left == 0:
            self.need(row[0] == EV["exhaustive"], "10.2",
                      "the live wall is empty and the houtei discard passed: exhaustive draw")
            return self.settle_exhaustive(row)
        return None     # the opponent draws

    def discard_call(self, s, o, k, red, row, disc_id):
        r = self.r
        q = self.seat[o]
        p = self.seat[s]
        typ, low = row[2], row[3]
        self.need(row[1] == o, "4.2", "a call on one's own discard")
        self.need(self.same_tile(row[4], k, red, disc_id), "17.8", "the called tile is not the discard")
        self.need(self.live_left > 0, "4.2/17.3", "a call on the last discard")
        self.need(not q.riichi, "4.2", "a call in riichi")
        self.need(typ in (CHI, PON, MINKAN), "4.2", f"call type {typ} on a discard")
        p.called_from = True
        if typ == CHI:
            self.need(k < 27 and low < 27 and low // 9 == k // 9 and low % 9 <= 6 and
                      low <= k <= low + 2, "4.2", f"chi {kname(low)} run with {kname(k)}")
            for kk in (low, low + 1, low + 2):
                if kk != k:
                    self.need(q.counts[kk] > 0, "4.2", f"chi without {kname(kk)}")
            reds = (1 if red else 0)
            for kk in (low, low + 1, low + 2):
                if kk != k:
                    reds += self.take_plain_first(o, kk, 1)
            q.melds.append(ref.Meld("chi", low, k, reds))
            q.meld_red += reds
            banned = {k}
            if r.kuikae == "forbid":
                if k == low and k % 9 + 3 <= 8:
                    banned.add(k + 3)
                if k == low + 2 and k % 9 - 3 >= 0:
                    banned.add(k - 3)
            if r.kuikae == "allow":
                banned = set()
        elif typ == PON:
            self.need(low == k and q.counts[k] >= 2, "4.2", f"pon of {kname(k)} without two")
            reds = (1 if red else 0) + self.take_plain_first(o, k, 2)
            q.melds.append(ref.Meld("pon", k, k, reds))
            q.meld_red += reds
            banned = set() if r.kuikae == "allow" else {k}
        else:
            self.need(low == k and q.counts[k] >= 3, "4.2", f"daiminkan of {kname(k)} without three")
            self.kan_checks(o, "4.2")
            reds = (1 if red else 0) + self.take_plain_first(o, k, 3)
            q.melds.append(ref.Meld("minkan", k, k, reds))
            q.meld_red += reds
        self.after_call(o)
        self.i += 1
        if typ == MINKAN:
            q.kans += 1
            self.n_kans += 1
            res = self.establish_kan()
            if res is not None:
                return res
            self.pending_after_discard = (o, True)
            return None
        # discard at once, within kuikae
        self.need(any(q.counts[kk] for kk in range(34) if kk not in banned), "4.4",
                  "a call after which no legal discard exists")
        row = self.row()
        self.need(row[0] == EV["discard"] and row[1] == o, "4.2", "after chi/pon: a discard at once")
        self.need(row[3] == 0, "7", "riichi right after a call")
        kk, rr = self.named(row[2])
        self.need(kk not in banned, "4.4", f"kuikae ({r.kuikae}): {kname(kk)} may not be "
                  f"discarded right after the call of {kname(k)}")
        self.remove(o, kk, rr, "4.2")
        q.ippatsu = False
        res = self.after_discard(o, kk, rr, row[2])
        if res is not None:
            return res
        if self.pending_after_discard is None:
            self.pending_after_discard = (s, False)
        return None

    # --- settlement ---------------------------------------------------------------------------
    def settle_win(self, w, loser, win, row):
        r = self.r
        p = self.seat[w]
        res = ref.score(win, r.ref)
        ura_han = int(self.rounds[self.hand_no][RF["ura"]]) if self.hand_no < len(self.rounds) else 0
        if res.limit != "yakuman" and res.limit != "renhou" and r.ura_dora and ura_han and \
                (win.riichi or not r.ura_needs_riichi):
            fake = self.fake_ura(win, ura_han)
            self.need(fake is not None, "9.3", f"ura han {ura_han} not reachable with "
                      f"{len(self.indicators)} hidden ura indicators")
            res = ref.score(ref.Win(**{**win.__dict__, "ura_indicators": fake}),
                            {**r.ref, "kan_ura_dora": True})
            self.need(res.ura == ura_han, "9.3", "internal: fake ura")
        pay = res.total
        self.need(row[3] == pay, "9.5", f"win paid {row[3]}, the reference gives {pay} "
                  f"({res.limit or ''} {res.han} han {res.fu} fu {dict(res.yaku)} {dict(res.yakuman)})")
        self.need(row[4] == res.han and row[5] == res.fu, "9", f"han/fu {row[4]}/{row[5]}, the "
                  f"reference gives {res.han}/{res.fu}")
        self.i += 1
        # streak (§8.4, §17.6)
        self.streak, self.streak_seat = win.streak, w
        if r.paarenchan_counts == "dealer_wins" and w != self.dealer:
            self.streak, self.streak_seat = 0, w
        self.scores[loser] -= pay
        taken = self.pool            # removed from the table (§17.2: vanish gives it to nobody)
        if not r.vanish:
            self.scores[w] += taken
        self.pool = 0
        dealer_kept = w == self.dealer
        rec = dict(outcome=OUT_TSUMO if win.tsumo else OUT_RON, winner=w, loser=loser, pay=pay,
                   han=res.han, fu=res.fu, limit=LIMIT_CODE[res.limit], pool_taken=taken,
                   tenpai=0, noten_paid=0, nagashi=0, dora=res.dora, ura=res.ura, red=res.red,
                   yaku=self.yaku_bits(res), yakuman=sum(res.yakuman.values()))
        return self.end_hand(rec, dealer_kept, honba_next=self.honba + 1 if dealer_kept else 0)

    def yaku_bits(self, res):
        bits = 0
        for name in list(res.yaku) + list(res.yakuman):
            bits |= 1 << YAKU_BIT[REF_YAKU_NAME.get(name, name)]
        if res.limit == "renhou":
            bits |= 1 << YAKU_BIT["renhou"]
        if res.limit == "kazoe":
            bits |= 1 << YAKU_BIT["kazoe"]
        if res.ippatsu:
            bits |= 1 << YAKU_BIT["ippatsu"]
        for name in ("dora", "ura", "red"):
            if getattr(res, name):
                bits |= 1 << YAKU_BIT[name]
        return bits

    def fake_ura(self, win, u):
        """Indicator kinds whose dora the winner holds, adding up to exactly u (with as many
        indicators as are turned; one under kan_ura_dora: false)."""
        tiles = win.all_tiles()
        n_ind = len(self.indicators) if self.r.kan_ura else 1
        cnt = {}
        for k in range(34):
            c = tiles.count(ref.dora_of(k))
            if c:
                cnt.setdefault(c, k)
        best = {0: []}
        for _ in range(n_ind):
            nxt = dict(best)
            for tot, lst in best.items():
                for c, k in cnt.items():
                    if tot + c not in nxt:
                        nxt[tot + c] = lst + [k]
            best = nxt
        return best.get(u)

    def settle_abort(self, outcome):
        rec = dict(outcome=outcome, winner=-1, loser=-1, pay=0, han=0, fu=0, limit=0,
                   pool_taken=0, tenpai=0, noten_paid=0, nagashi=0, dora=0, ura=0, red=0, yaku=0,
                   yakuman=0)
        if self.r.paarenchan_draw == "reset":
            self.streak, self.streak_seat = 0, -1
        return self.end_hand(rec, True, self.honba + 1)

    def settle_exhaustive(self, row):
        r = self.r
        tenpai = sum(1 << s for s in (0, 1) if self.tenpai(s))
        self.need(row[2] == tenpai, "10.2", f"tenpai bits {row[2]}, the rules give {tenpai}")
        paid = 0
        if tenpai in (1, 2) and r.noten_penalty:
            t = 0 if tenpai == 1 else 1
            paid = r.noten_penalty
            self.scores[1 - t] -= paid
            if r.noten_transfer:
                self.scores[t] += paid
        self.need(row[3] == paid, "10.2", f"noten paid {row[3]}, the rules give {paid}")
        nag = 0
        if r.nagashi != "none":
            for s in (0, 1):
                p = self.seat[s]
                ok = bool(p.discards) and all(ref.is_yaochu(k) for k in p.discards)
                if r.nagashi == "void_if_called":
                    if r.nagashi_void_on == "discard_called":
                        ok = ok and not p.called_from
                    elif r.nagashi_void_on == "own_call":
                        ok = ok and not p.made_call
                    else:
                        ok = ok and not self.any_call
                if ok:
                    nag |= 1 << s
        self.need(row[4] == nag, "10.3", f"nagashi bits {row[4]}, the rules give {nag}")
        for s in (0, 1):
            if (nag >> s) & 1:
                amount = 12000 if s == self.dealer else 8000
                if r.nagashi_honba:
                    amount += self.honba * r.honba_value
                self.scores[1 - s] -= amount
        self.i += 1
        dealer_tenpai = (tenpai >> self.dealer) & 1
        if dealer_tenpai:
            kept = True
        else:
            kept = {"always": False, "never": True}.get(r.noten_dealer_passes, self.kyoku >= 4)
        honba = self.honba + 1
        if r.honba_reset_on_pass and not kept:
            honba = 0
        if r.paarenchan_draw == "reset":
            self.streak, self.streak_seat = 0, -1
        rec = dict(outcome=OUT_DRAW, winner=-1, loser=-1, pay=0, han=0, fu=0, limit=0,
                   pool_taken=0, tenpai=tenpai, noten_paid=paid, nagashi=nag, dora=0, ura=0,
                   red=0, yaku=0, yakuman=0)
        return self.end_hand(rec, kept, honba)

    def end_hand(self, rec, kept, honba_next):
        r = self.r
        row = self.row()
        self.need(row[0] == EV["hand_end"], "10", "expected hand_end")
        self.need(row[2:5] == [self.scores[0], self.scores[1], self.pool], "10",
                  f"hand_end {row[2:5]}, the rules give {self.scores + [self.pool]}")
        self.i += 1
        rec.update(game=None, round=self.hand_no, kyoku=self.kyoku, dealer=self.dealer,
                   honba=self.honba, riichi=self.riichi_bits, calls=self.n_calls,
                   draws=self.live_draws, pool_left=self.pool, score0=self.scores[0],
                   score1=self.scores[1], dealer_kept=int(kept))
        self.need(self.hand_no < len(self.rounds), "15", "no round record for this hand")
        got = self.rounds[self.hand_no]
        for name, want in rec.items():
            if want is None:
                continue
            if int(got[RF[name]]) != want:
                raise Fail(f"round record {self.hand_no} {name}: {int(got[RF[name]])}, the rules "
                           f"give {want} (§10, §15)")
        # next hand
        if not kept:
            self.kyoku = (self.kyoku + 1) % 8
        self.honba = honba_next
        out = [self.scores[s] < 0 if r.below_zero else self.scores[s] <= 0 for s in (0, 1)]
        if out[0] and out[1]:
            if r.both_bust_draw or self.scores[0] == self.scores[1]:
                return "over", (3, END_BOTH)
            return "over", ((1 if self.scores[0] > self.scores[1] else 2), END_BOTH)
        if out[0] or out[1]:
            return "over", ((2 if out[0] else 1), END_BUST)
        if self.hand_no + 1 >= r.max_hands:
            if self.scores[0] == self.scores[1]:
                return "over", (3, END_LIMIT)
            return "over", ((1 if self.scores[0] > self.scores[1] else 2), END_LIMIT)
        return "over", None


def check_game(sc, events, batch):
    """Replay one recorded game; AssertionError names the event and the spec section. (The
    model found two engine deviations, both fixed in the engine: a tsumogiri discard named the
    drawn physical tile, not kind * 4 (+1), §17.8; a riichi player who drew a red five
    discarded a plain five instead, §7.)"""
    Replay(sc, events, batch).run()

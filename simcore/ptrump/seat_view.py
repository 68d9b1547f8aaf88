"""What a human seat sees at a P-style decision (``momojan-sim play``): the table in the replay's
notation (:func:`simcore.ptrump.cards.format_cards`: ``234s 5h X``, sets as ``pon:5s5h5d``) and
the legal actions with the cards they move.

Only what the seat may see. From its observation: its own hand and drawn card, the card on
offer, the dora, the stock, the kans left, its own score. From the public part of the event log
(this round's rows, since its ``round_start``): every seat's discards (riichi and called ones
marked), revealed sets, jokers set aside, riichi, the deposits, how many cards each opponent
holds, and the other seats' scores (the last ``round_end``, or the start scores, less this
round's deposits). Never an opponent's dealt or drawn cards, nor the ura indicator (both are in
the log), nor ``OBS_DRAWN`` outside its own draw (the engine writes -1 at an offer)."""

from __future__ import annotations

from .cards import JOKER, RANK_CHARS, card_str, format_cards, format_ranks, rank_counts
from .engine import (
    EV_DEAL, EV_DEPOSIT, EV_DISCARD, EV_DRAW, EV_EXHAUSTIVE, EV_KAN, EV_NUKI, EV_PON,
    EV_ROUND_END, EV_ROUND_START, EV_WIN, ROB_NAMES, SK_ANKAN, SK_KAKAN, SK_KAN,
    SET_KIND_NAMES, unpack_scores,
)
from .layout import (
    A_ANKAN, A_DISCARD, A_KAKAN, A_KAN_OPEN, A_NUKI, A_PASS, A_PON, A_RIICHI, A_RON, A_TSUMO,
    N_CARDS, OBS_DEALER, OBS_DORA_RANK, OBS_DRAWN, OBS_HAND_MASK, OBS_KANS_LEFT, OBS_MENZEN,
    OBS_N_SEATS, OBS_OFFER, OBS_PHASE, OBS_RIICHI, OBS_SCORE, OBS_STOCK, PH_AFTER_PON, PH_DRAW,
    PH_OFFER, PH_ROB,
)
from . import rules_array as R

_ROLES = (R.RA_MATCH_START_BONUS_FIRST_DEALER, R.RA_MATCH_START_BONUS_SECOND,
          R.RA_MATCH_START_BONUS_THIRD)


def _ids(mask: int) -> list:
    m = int(mask) & ((1 << 64) - 1)
    return [c for c in range(N_CARDS) if (m >> c) & 1]


def _cards(ids) -> str:
    return format_cards(ids) or "-"


class _Table:
    """The public state of the round so far, from the event log."""

    def __init__(self, sim, n: int, events):
        ra = sim.ra
        starts = [i for i, e in enumerate(events) if int(e[0]) == EV_ROUND_START]
        self.start = starts[-1] if starts else 0
        self.round = len(starts)
        first_dealer = int(events[starts[0], 1]) if starts else 0
        self.scores = [int(ra[R.RA_MATCH_START_SCORE]) + int(ra[_ROLES[(s - first_dealer) % n]])
                       for s in range(n)]
        self.pool = 0
        self.last_round = None      # the previous round's outcome, as one line's words
        for e in events[:self.start]:
            typ = int(e[0])
            if typ == EV_ROUND_END:
                self.scores, self.pool = unpack_scores(int(e[4]), n), int(e[3])
        self._previous(events[starts[-2]:self.start] if len(starts) > 1 else [], n)
        self.dora_ind = -1
        self.size = [0] * n
        self.disc = [[] for _ in range(n)]      # [card, riichi kind, called]
        self.sets = [[] for _ in range(n)]      # [kind, card ids]
        self.nuki = [[] for _ in range(n)]
        self.riichi = [0] * n
        self.turn_seat = -1                      # the seat that drew last
        self.discarder = -1                      # the seat that discarded last
        for e in events[self.start:]:
            typ, s, a, b, c, d = (int(x) for x in e[:6])
            if typ == EV_ROUND_START:
                self.dora_ind = a                # b is the ura indicator: hidden
            elif typ == EV_DEAL:
                self.size[s] = len(_ids(a))      # the cards themselves are the seat's own
            elif typ == EV_DRAW:
                self.size[s] += 1
                self.turn_seat = s
            elif typ == EV_DISCARD:
                self.size[s] -= 1
                self.disc[s].append([a, b, False])
                self.discarder = s
                if b:
                    self.riichi[s] = b
            elif typ == EV_PON:
                self._called(b)
                self.size[s] -= 2
                self.sets[s].append(["pon", _ids(c)])
            elif typ == EV_KAN:
                if a == SK_KAN:
                    self._called(d)
                    self.size[s] -= 3
                    self.sets[s].append(["kan", _ids(c)])
                elif a == SK_ANKAN:
                    self.size[s] -= 4
                    self.sets[s].append(["ankan", _ids(c)])
                else:   # kakan: the pon of that rank grows in place (the engine's set index)
                    self.size[s] -= 1
                    for g in self.sets[s]:
                        if g[0] == "pon" and g[1][0] // 4 == b:
                            g[0], g[1] = SET_KIND_NAMES[SK_KAKAN], _ids(c)
            elif typ == EV_NUKI:
                self.size[s] -= 1
                self.nuki[s].append(a)
            elif typ == EV_DEPOSIT:
                self.scores[s] -= a
                self.pool = b

    def _called(self, d: int) -> None:
        if self.disc[d]:
            self.disc[d][-1][2] = True

    def _previous(self, events, n) -> None:
        """The previous round's end in public words: who won how, on what, for how much."""
        wins, draw = [], None
        for e in events:
            typ, s, a, b, c, d = (int(x) for x in e[:6])
            if typ == EV_WIN:
                how = "ron" if c else "tsumo"
                rob = f", robbing a {ROB_NAMES[d]}" if c and d else ""
                wins.append((s, f"{how} on {card_str(a)}{rob}, {b} points"))
            elif typ == EV_EXHAUSTIVE:
                draw = [t for t in range(n) if (a >> t) & 1]
        self.last_round = (wins, draw) if wins or draw is not None else None

    def set_text(self, s: int) -> str:
        parts = [f"{k}:{format_cards(ids, sep='')}" for k, ids in self.sets[s]]
        if self.nuki[s]:
            parts.append("nuki:" + "X" * len(self.nuki[s]))
        return " ".join(parts) or "-"

    def discard_text(self, s: int) -> str:
        out = []
        for c, rk, called in self.disc[s]:
            t = card_str(c)
            if rk:
                t += "(double riichi)" if rk == 2 else "(riichi)"
            if called:
                t += "(called)"
            out.append(t)
        return " ".join(out) or "-"


def seat_view(sim, seat: int, obs, mask, events):
    """(lines, [(action, label)]) of the decision in ``obs`` / ``mask``."""
    o = [int(x) for x in obs]
    n, ph = o[OBS_N_SEATS], o[OBS_PHASE]
    tb = _Table(sim, n, events)
    tb.scores[seat] = o[OBS_SCORE]
    tb.riichi[seat] = o[OBS_RIICHI] or tb.riichi[seat]
    hand = _ids(o[OBS_HAND_MASK])
    drawn = o[OBS_DRAWN] if ph == PH_DRAW else -1   # its own draw only
    offer = o[OBS_OFFER] if ph in (PH_OFFER, PH_ROB) else -1

    def name(s):
        return "you" if s == seat else f"seat {s}"

    def who(s):
        return name(s) + (" (dealer)" if s == o[OBS_DEALER] else "")

    ind = card_str(tb.dora_ind) if tb.dora_ind >= 0 else "?"
    lines = [f"round {tb.round} · dora indicator {ind} (dora {RANK_CHARS[o[OBS_DORA_RANK]]}) · "
             f"stock {o[OBS_STOCK]} · kans left {o[OBS_KANS_LEFT]} · deposits on the table "
             f"{tb.pool} · target {int(sim.ra[R.RA_MATCH_TARGET_SCORE])}",
             "scores: " + ", ".join(f"{who(s)} {tb.scores[s]}" for s in range(n))]
    if tb.last_round:
        wins, draw = tb.last_round
        if wins:
            text = "; ".join(f"{name(s)} won by {w}" for s, w in wins)
        else:
            text = "exhaustive draw, tenpai: " + (", ".join(name(s) for s in draw) or "nobody")
        lines.append(f"last round: {text}")
    for s in [*(t for t in range(n) if t != seat), seat]:
        head = who(s)
        if s != seat:
            head += f": {tb.size[s]} cards in hand"
        if tb.riichi[s]:
            head += " · DOUBLE RIICHI" if tb.riichi[s] == 2 else " · RIICHI"
        if s == seat:
            head += " · menzen" if o[OBS_MENZEN] else " · open"
        lines.append(f"{head} · revealed {tb.set_text(s)}")
        lines.append(f"   discarded {tb.discard_text(s)}")
    mine = sorted(c for c in hand if c != drawn)
    lines.append(f"   your hand {_cards(mine)}   (ranks {format_ranks(rank_counts(mine))})"
                 + (f" · drew {card_str(drawn)}" if drawn >= 0 else ""))
    if ph == PH_OFFER:
        lines.append(f"   on offer: {name(tb.discarder)}'s discard {card_str(offer)}")
    elif ph == PH_ROB:
        lines.append(f"   on offer: {_rob_text(tb, offer, name)}")
    elif ph == PH_AFTER_PON:
        lines.append("   after your pon: discard")
    return lines, _actions(tb, seat, o, mask, hand, drawn, offer, sim.ra)


def _rob_text(tb, c: int, name_of) -> str:
    s = tb.turn_seat
    name = name_of(s)
    if c // 4 == JOKER:
        return f"{name} sets the joker X aside (nukidora): ron on it?"
    if any(k == "pon" and ids[0] // 4 == c // 4 for k, ids in tb.sets[s]):
        return f"{name} adds {card_str(c)} to its pon (kakan): ron on it?"
    return f"{name} declares a closed kan (ankan) showing {card_str(c)}: ron on it?"


def _actions(tb, seat, o, mask, hand, drawn, offer, ra) -> list:
    """The legal actions, labelled: discards by card, calls, wins, riichi discards, pass."""
    legal = [int(a) for a in mask.nonzero()[0]]
    by_rank = {}
    for c in hand:
        by_rank.setdefault(c // 4, []).append(c)
    out, jokers = [], set()

    def discard(a, base, word):
        c = a - base
        if c // 4 == JOKER:
            if word in jokers:
                return   # the two jokers are one and the same choice
            jokers.add(word)
        drew = c == drawn or (drawn >= 0 and c // 4 == JOKER == drawn // 4)
        out.append((a, f"{word} {card_str(c)}" + (" (the card you drew)" if drew else "")))

    for a in legal:
        if A_DISCARD <= a < A_RIICHI:
            discard(a, A_DISCARD, "discard")
    for a in legal:
        if a == A_PON:
            take = sorted(by_rank.get(offer // 4, []))[:2]
            out.append((a, f"pon {card_str(offer)} → pon:{format_cards([offer, *take], sep='')}"))
        elif a == A_KAN_OPEN:
            take = sorted(by_rank.get(offer // 4, []))[:3]
            out.append((a, f"open kan on {card_str(offer)} → "
                           f"kan:{format_cards([offer, *take], sep='')}"))
    for a in legal:
        if A_ANKAN <= a < A_KAKAN:
            ids = sorted(by_rank.get(a - A_ANKAN, []))
            out.append((a, f"closed kan → ankan:{format_cards(ids, sep='')}"))
        elif A_KAKAN <= a < A_DISCARD:
            g = a - A_KAKAN
            own = tb.sets[seat]
            pon = own[g][1] if g < len(own) else []
            r = pon[0] // 4 if pon else -1
            add = sorted(by_rank.get(r, []))[:1]
            out.append((a, f"added kan: {_cards(add)} onto pon:{format_cards(pon, sep='')}"))
    if A_NUKI in legal:
        then = ("then draw a replacement" if ra[R.RA_NUKIDORA_MODE] == R.NUKIDORA_REPLACE
                else "instead of a discard: your turn ends")
        out.append((A_NUKI, f"nuki: set a joker X aside, {then}"))
    if A_TSUMO in legal:
        out.append((A_TSUMO, f"TSUMO: win on {card_str(drawn) if drawn >= 0 else 'the draw'}"))
    if A_RON in legal:
        out.append((A_RON, f"RON: win on {card_str(offer)}"))
    for a in legal:
        if a >= A_RIICHI:
            discard(a, A_RIICHI, "riichi, discarding")
    if A_PASS in legal:
        out.append((A_PASS, "pass" + (" (let the win go)" if A_RON in legal else "")))
    return out

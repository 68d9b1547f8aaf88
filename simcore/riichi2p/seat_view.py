"""What a human seat sees at a riichi2p decision (``momojan-sim play``): the hand (East 1 ...,
honba, pool, live wall, dora indicators), both players' scores, riichi, calls and discards, and the
seat's own concealed hand, in the notation of the replay (``123m 55z``, ``0m`` a red five,
``chi:3'45m`` with the called tile marked); the legal actions with the tiles they move.

Only what the seat may see: the observation (own counts, riichi, scores, pool, honba, wall) and
the public part of this hand's event log (indicators, discards, calls). The log's deal and draw
events of the other seat are never read; the seat's own are read only to know which of its fives
is red (the observation keeps counts).
"""

from __future__ import annotations

import numpy as np

from . import engine as E
from .hand import waits
from .layout import (
    A_ANKAN, A_CHI, A_DISCARD, A_KAKAN, A_KYUUSHU, A_MINKAN, A_PASS, A_PON, A_RIICHI, A_RON,
    A_TSUMO, D_AFTER_CALL, D_ON_DISCARD, D_ON_KAN, D_OWN_TURN, N_KINDS, OBS_DEALER, OBS_DECISION,
    OBS_HONBA, OBS_LIVE_LEFT, OBS_OPP_N_MELDS, OBS_OPP_RIICHI, OBS_OPP_SCORE, OBS_OWN, OBS_POOL,
    OBS_RIICHI, OBS_ROUND_WIND, OBS_SCORE, OBS_SEAT_WIND, OBS_TILE,
)
from .tiles import CALL_TYPES, HONOUR_NAMES, RED_TILE_IDS, Meld, format_counts, tile_str

RIICHI_WORDS = ("", "RIICHI", "DOUBLE RIICHI")
# the order of the legal actions: discards by tile, riichi by tile, kans, calls, wins, the rest
ORDER = ((A_DISCARD, N_KINDS), (A_RIICHI, N_KINDS), (A_ANKAN, N_KINDS), (A_KAKAN, N_KINDS),
         (A_CHI, 3), (A_PON, 1), (A_MINKAN, 1), (A_TSUMO, 1), (A_RON, 1), (A_KYUUSHU, 1),
         (A_PASS, 1))


def _is_five(k: int) -> bool:
    return k < 27 and k % 9 == 4


def _tile(tile_id: int, red_on: bool) -> str:
    return tile_str(tile_id // 4, red_on and tile_id in RED_TILE_IDS)


def _this_hand(events):
    """The events since the current hand's start."""
    starts = [i for i, e in enumerate(events) if e[0] == E.EV_HAND_START]
    return events[starts[-1]:] if starts else events[:0]


def _table(events, seat: int, red_on: bool):
    """This hand's public table from the log (indicators, each seat's discards and calls) and
    the seat's own red fives (bit s: suit s's red five is concealed)."""
    indicators, discards = [], {0: [], 1: []}
    calls = {0: [], 1: []}
    own = [0] * N_KINDS          # the seat's concealed counts, to follow its red fives
    red = 0
    last_discard = None          # (seat, index in its discards) of the discard on the table

    def remove(k):
        nonlocal red
        own[k] -= 1
        if _is_five(k) and (red >> (k // 9)) & 1 and own[k] == 0:
            red &= ~(1 << (k // 9))      # the engine keeps the red five to the last
            return True
        return False

    for ev in events:
        typ, s, a, b, c = (int(x) for x in ev[:5])
        if typ == E.EV_INDICATOR:
            indicators.append(a)
        elif typ in (E.EV_DEAL, E.EV_DRAW):
            if s == seat:                # the seat's own tiles only
                own[a // 4] += 1
                if red_on and a in RED_TILE_IDS:
                    red |= 1 << (a // 4 // 9)
            last_discard = None
        elif typ == E.EV_DISCARD:
            if s == seat:
                remove(a // 4)
            word = _tile(a, red_on) + ("(riichi)" if b else "")
            discards[s].append(word)
            last_discard = (s, len(discards[s]) - 1)
        elif typ == E.EV_CALL:
            word = CALL_TYPES[a]
            called = c // 4 if c >= 0 else None
            meld_red = red_on and c in RED_TILE_IDS     # the called (a kakan's added) tile
            if s == seat:
                if word == "chi":
                    gone = [x for x in (b, b + 1, b + 2) if x != called]
                else:
                    gone = [b] * {"pon": 2, "minkan": 3, "ankan": 4, "kakan": 1}[word]
                for k in gone:
                    meld_red |= remove(k)
            if word in ("chi", "pon", "minkan") and last_discard is not None:
                q, i = last_discard
                discards[q][i] += "(called)"
            last_discard = None
            pon = [i for i, m in enumerate(calls[s]) if m.type == "pon" and m.kind == b]
            if word == "kakan" and pon:          # the pon becomes the kan, in its place
                i = pon[0]
                calls[s][i] = Meld("kakan", b, b, int(meld_red or calls[s][i].red))
            else:
                calls[s].append(Meld(word, b, called if word != "ankan" else None,
                                     int(meld_red)))
    return indicators, discards, calls, red


def _wind(kind: int) -> str:
    return HONOUR_NAMES[kind - 27]


def _named(k: int) -> str:
    """``5m``; an honour with its name: ``7z chun``."""
    return tile_str(k) + (f" {HONOUR_NAMES[k - 27]}" if k >= 27 else "")


def _waits_text(counts, melds, sim) -> str:
    """The waits of a 13-tile hand (``counts`` concealed, ``melds`` its calls) as the engine
    counts them (a kind held four times, calls included, is no wait unless the rules say so)."""
    held = counts.copy()
    for m in melds:
        for k in m.kinds:
            held[k] += 1
    all_four = bool(sim.ra[E.RA_TENPAI_ALL_FOUR_IN_HAND])
    w = int(waits(counts, len(melds), held, all_four, sim.ts, sim.th))
    return " ".join(tile_str(k) for k in range(N_KINDS) if (w >> k) & 1) or "-"


def seat_view(sim, seat: int, obs, mask, events):
    """(lines, [(action, label)]) of the decision in ``obs`` / ``mask``."""
    o = [int(x) for x in obs]
    red_on = bool(sim.ra[E.RA_RED_FIVES])
    hand_ev = _this_hand(events)
    indicators, discards, calls, red = _table(hand_ev, seat, red_on)
    kyoku = int(hand_ev[0][2]) if len(hand_ev) else 0
    opp = 1 - seat
    dealer = o[OBS_DEALER]
    opp_wind = 27 if opp == dealer else (29 if int(sim.ra[E.RA_SEAT_WINDS]) == 1 else 28)
    winds = {seat: o[OBS_SEAT_WIND], opp: opp_wind}

    def who(s):
        name = "you" if s == seat else "bot"
        return f"{name} (P{s}, {_wind(winds[s])}{', dealer' if s == dealer else ''})"

    def calls_text(s):
        return "  ".join(m.text() for m in calls[s]) or "-"

    counts = np.array(o[OBS_OWN:OBS_OWN + N_KINDS], np.int64)
    decision, tile = o[OBS_DECISION], o[OBS_TILE]
    own_turn = decision == D_OWN_TURN and tile >= 0
    rest, drew = counts.copy(), ""
    rest_red = red
    if own_turn:
        k = tile // 4
        rest[k] -= 1
        is_red = red_on and tile in RED_TILE_IDS
        if is_red:
            rest_red &= ~(1 << (k // 9))
        drew = f" · drew {tile_str(k, is_red)}"
    shown = " ".join(_tile(t, red_on) for t in indicators) or "-"
    dora = " ".join(_named(int(E.dora_of(t // 4))) for t in indicators) or "-"
    riichi = {seat: o[OBS_RIICHI], opp: o[OBS_OPP_RIICHI]}
    lines = [
        f"{_wind(o[OBS_ROUND_WIND])} {kyoku % 4 + 1} · honba {o[OBS_HONBA]} · pool "
        f"{o[OBS_POOL]} · live wall {o[OBS_LIVE_LEFT]} left · dora indicator {shown} "
        f"(dora {dora})",
        f"scores: {who(seat)} {o[OBS_SCORE]}, {who(opp)} {o[OBS_OPP_SCORE]}",
        f"{who(opp)}: {13 - 3 * o[OBS_OPP_N_MELDS]} tiles concealed"
        + (f" · {RIICHI_WORDS[riichi[opp]]}" if riichi[opp] else "")
        + f" · calls {calls_text(opp)}",
        f"   discards {' '.join(discards[opp]) or '-'}",
        f"{who(seat)}" + (f" · {RIICHI_WORDS[riichi[seat]]}" if riichi[seat] else "")
        + f" · calls {calls_text(seat)}",
        f"   discards {' '.join(discards[seat]) or '-'}",
        f"   hand {format_counts(rest, rest_red)}{drew}",
    ]
    if riichi[seat] and not own_turn:
        lines.append(f"   waiting on {_waits_text(counts, calls[seat], sim)}")
    if decision == D_ON_DISCARD:
        lines.append(f"   on the table: the bot's discard {_tile(tile, red_on)}")
    elif decision == D_ON_KAN:
        last = [int(e[3]) for e in hand_ev if e[0] == E.EV_CALL and e[1] == opp][-1:]
        kan = next((m.text() for m in calls[opp] if last and m.kind == last[0]
                    and m.type in ("kakan", "ankan")), "a kan")
        lines.append(f"   the bot declared {kan}: rob its {_tile(tile, red_on)} (ron) or pass?")
    elif decision == D_AFTER_CALL:
        lines.append("   after your call: discard (the tiles kuikae bars are not offered)")

    def discard_word(k):
        return tile_str(k, _is_five(k) and (red >> (k // 9)) & 1 and counts[k] == 1)

    def red_in(gone) -> int:
        """1 when the own tiles ``gone`` into a call take its red five (the last five)."""
        return int(any(_is_five(k) and (red >> (k // 9)) & 1 and gone.count(k) == counts[k]
                       for k in set(gone)))

    def label(a: int) -> str:
        if A_DISCARD <= a < A_DISCARD + N_KINDS:
            k = a - A_DISCARD
            drawn = " (the tile you drew)" if own_turn and k == tile // 4 else ""
            return f"discard {discard_word(k)}{drawn}"
        if A_RIICHI <= a < A_RIICHI + N_KINDS:
            k = a - A_RIICHI
            after = counts.copy()
            after[k] -= 1
            return (f"riichi, discarding {discard_word(k)} (waiting on "
                    f"{_waits_text(after, calls[seat], sim)})")
        if A_ANKAN <= a < A_ANKAN + N_KINDS:
            k = a - A_ANKAN
            return f"kan {Meld('ankan', k, None, red_in([k] * 4)).text()} (closed)"
        if A_KAKAN <= a < A_KAKAN + N_KINDS:
            k = a - A_KAKAN
            pon_red = any(m.red for m in calls[seat] if m.kind == k)
            return (f"kan {Meld('kakan', k, k, int(pon_red) | red_in([k])).text()} (adding "
                    f"{discard_word(k)} to your pon)")
        k = tile // 4
        called = _tile(tile, red_on) if tile >= 0 else "?"
        r = int(red_on and tile in RED_TILE_IDS)
        if A_CHI <= a < A_CHI + 3:
            low = k - (a - A_CHI)
            gone = [x for x in (low, low + 1, low + 2) if x != k]
            return f"call {Meld('chi', low, k, r | red_in(gone)).text()}"
        if a == A_PON:
            return f"call {Meld('pon', k, k, r | red_in([k, k])).text()}"
        if a == A_MINKAN:
            return f"call {Meld('minkan', k, k, r | red_in([k] * 3)).text()} (open kan)"
        if a == A_TSUMO:
            return f"TSUMO: win on your draw {called}"
        if a == A_RON:
            return f"RON: win on the bot's {called}"
        if a == A_KYUUSHU:
            return "kyuushu kyuuhai: abort the hand (nine terminal and honour kinds)"
        if a == A_PASS:
            return "pass"
        return f"action {a}"

    legal = [a for first, n in ORDER for a in range(first, first + n) if mask[a]]
    return lines, [(a, label(a)) for a in legal]

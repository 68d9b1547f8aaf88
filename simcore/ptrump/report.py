"""The readable play-by-play of a replayed P-style match.

The replay writes cards in the spec's notation (``234s 5h X``; :func:`simcore.ptrump.cards
.format_cards`), revealed sets as ``pon:5s5h5d``, and each win with its breakdown and the hand
as a line ``score`` reads back (``234s 67h 55d +8s tsumo dora:K``).

What this implementation simplifies: events are shown as the engine logged them, one line
each; the scores are the engine's own, not recomputed.
"""

from __future__ import annotations

import numpy as np

from .cards import card_str, format_cards
from .engine import (
    DRAW_KIND_NAMES, END_REASON_NAMES, EV_DEAL, EV_DEPOSIT, EV_DISCARD, EV_DRAW, EV_EXHAUSTIVE,
    EV_GAME_END, EV_KAN, EV_NUKI, EV_PON, EV_ROUND_END, EV_ROUND_START, EV_WIN, EV_WIN_DETAIL,
    GF_FIRST_DEALER, GF_ROUNDS, ROB_NAMES, SET_KIND_NAMES, unpack_scores,
)
from ..family.replay import Replay
from .rules_array import SLOTS


def _ids(mask: int) -> list:
    m = int(mask) & ((1 << 64) - 1)
    return [c for c in range(54) if (m >> c) & 1]


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------

def _set_text(kind: int, mask: int) -> str:
    return f"{SET_KIND_NAMES[kind]}:{format_cards(_ids(mask), sep='')}"


def _start_scores(scenario, n: int, first_dealer: int) -> list:
    """Each seat's score at the start (``play_match``): the start score plus its role's bonus."""
    roles = ("first_dealer", "second", "third")
    return [scenario.get("match.start_score")
            + scenario.get(f"match.start_bonus.{roles[(s - first_dealer) % n]}") for s in range(n)]


def _ledger(seats, before, after, pool_before, pool_after, winners) -> str:
    """Each seat's change at the round's end (nobody pays in P-style: a winner adds its value,
    spec §7) and where the deposits went; the amounts are the engine's own score changes."""
    n = len(seats)
    moves = [f"{seats[i]} {after[i] - before[i]:+d}" for i in range(n) if after[i] != before[i]]
    out = pool_before - pool_after
    pool = ""
    if out > 0:
        pool = (f" (with the deposits {out})" if winners else f"; deposits {out} lost")
    return ("ledger: " + (", ".join(moves) or "no change") + pool + " → "
            + ", ".join(f"{seats[i]} {after[i]}" for i in range(n)) + f"; pool {pool_after}")


def build_replay(scenario, seed: int, game: int, events: np.ndarray, batch) -> Replay:
    """The play-by-play of one match from its event log and records: each line shows the
    concealed hand and the revealed sets; each round closes with its ledger."""
    n = len(scenario["players"])
    seats = [f"P{i}" for i in range(n)]
    names = ", ".join(f"P{i} ({s['policy']})" for i, s in enumerate(scenario["players"]))
    first_dealer = int(batch.games[0, GF_FIRST_DEALER])
    scores = _start_scores(scenario, n, first_dealer)
    r = Replay(f"P-style trump mahjong replay: scenario {scenario.name}, seed {seed}, game {game}",
               [f"players: {names}", f"first dealer {seats[first_dealer]}; start scores "
                + ", ".join(f"{seats[i]} {scores[i]}" for i in range(n))])
    pool = 0
    rnd = None
    hands = [[] for _ in range(n)]
    sets = [[] for _ in range(n)]
    nuki = [[] for _ in range(n)]
    dora = ura = -1
    for ev in events:
        typ, s = int(ev[0]), int(ev[1])
        a, b, c, d = (int(x) for x in ev[2:6])
        who = seats[s] if 0 <= s < n else "nobody"
        if typ == EV_ROUND_START:
            dora, ura = a, b
            hands = [[] for _ in range(n)]
            sets = [[] for _ in range(n)]
            nuki = [[] for _ in range(n)]
            rnd = r.new_round(f"round {d + 1}: dealer {who}, dora indicator {card_str(a)}"
                              + (f" ({c} reshuffle{'s' if c > 1 else ''} for a joker "
                                 f"indicator)" if c else ""))
        elif typ == EV_DEAL:
            hands[s] = _ids(a)
            rnd.add("deal", f"   {who} dealt: {format_cards(hands[s])}")
        elif typ == EV_DRAW:
            hands[s].append(a)
            how = "" if b == 1 else f" ({DRAW_KIND_NAMES[b].replace('_', ' ')})"
            rnd.add("draw", f"{who} draws {card_str(a)}{how}")
        elif typ == EV_DISCARD:
            hands[s].remove(a)
            mark = {0: "", 1: "  RIICHI", 2: "  DOUBLE RIICHI"}[b]
            rnd.add("riichi" if b else "discard",
                    f"{who} discards {card_str(a)}{mark}    hand {format_cards(hands[s])}"
                    + "".join(f"  [{x}]" for x in sets[s]))
        elif typ == EV_PON:
            ids = _ids(c)
            for x in ids:
                if x != a:
                    hands[s].remove(x)
            sets[s].append(_set_text(0, c))
            rnd.add("call", f"{who} PON {card_str(a)} from {seats[b]}: {sets[s][-1]}    hand "
                    f"{format_cards(hands[s])}" + "".join(f"  [{x}]" for x in sets[s]))
        elif typ == EV_KAN:
            ids = _ids(c)
            for x in ids:
                if x in hands[s]:
                    hands[s].remove(x)
            text = _set_text(a, c)
            if a == 2:  # kakan: the pon grows
                sets[s] = [t for t in sets[s] if not (t.startswith("pon:") and
                                                      t[4:5] == text[6:7])]
            sets[s].append(text)
            src = f" from {seats[d]}" if d >= 0 else ""
            rnd.add("call", f"{who} KAN ({SET_KIND_NAMES[a]}){src}: {text}    hand "
                    f"{format_cards(hands[s])}" + "".join(f"  [{x}]" for x in sets[s]))
        elif typ == EV_NUKI:
            hands[s].remove(a)
            nuki[s].append(a)
            rnd.add("call", f"{who} sets a joker aside (nukidora {len(nuki[s])})")
        elif typ == EV_DEPOSIT:
            scores[s] -= a
            pool = b
            rnd.add("ledger", f"   {who} deposits {a} (pool {b}) → {who} {scores[s]}")
        elif typ == EV_WIN:
            how = "RON" if c else "TSUMO"
            rob = f", robbing a {ROB_NAMES[d]}" if c and d else ""
            rnd.add("win", f"{who} {how} on {card_str(a)}{rob}: {b} points")
            last_win = (s, a, c)
        elif typ == EV_WIN_DETAIL:
            ws, card, ron = last_win
            conc = [x for x in _ids(b) if x != card or ron]
            if not ron and card in conc:
                conc.remove(card)
            parts = [format_cards(conc)] + sets[s] + (
                [f"nuki:{'X' * len(nuki[s])}"] if nuki[s] else [])
            parts += [f"+{card_str(card)}", "ron" if ron else "tsumo",
                      f"dora:{card_str(dora, False)}"]
            items = [SLOTS[i] for i in range(len(SLOTS)) if (a >> i) & 1]
            rnd.add("win", f"   hand: {' '.join(p for p in parts if p)}")
            rnd.add("win", f"   items: {', '.join(items) or '-'}"
                    + ("" if d else "  (no yaku)") + f"; ura indicator {card_str(ura)}")
        elif typ == EV_EXHAUSTIVE:
            tenpai = [seats[i] for i in range(n) if (a >> i) & 1]
            nag = [seats[i] for i in range(n) if (c >> i) & 1]
            rnd.add("draw_end", f"exhaustive draw: tenpai {', '.join(tenpai) or 'nobody'}; noten "
                    f"penalties {b}" + (f" ({d} to tenpai players)" if d else "")
                    + (f"; nagashi {', '.join(nag)}" if nag else ""))
            for i in range(n):
                if (a >> i) & 1:
                    rnd.add("draw_end", f"   {seats[i]} shows {format_cards(hands[i])}"
                            + "".join(f"  [{x}]" for x in sets[i]))
        elif typ == EV_ROUND_END:
            after = [int(x) for x in unpack_scores(c, n)]
            rnd.add("ledger", _ledger(seats, scores, after, pool, b, a))
            scores, pool = after, b
        elif typ == EV_GAME_END:
            win = [seats[i] for i in range(n) if (a >> i) & 1]
            r.footer.append(f"match over after {int(batch.games[0, GF_ROUNDS])} rounds "
                            f"({END_REASON_NAMES[b].replace('_', ' ')}): winner "
                            f"{' and '.join(win)}" + (f"; deposits lost {d}" if d else ""))
    return r

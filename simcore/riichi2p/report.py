"""The readable play-by-play of a replayed riichi2p game: per hand, the deal, every draw and
discard with the player's concealed hand and calls after it, riichi, calls and kans with their
indicators, the win with its yaku and value, and a ledger of who lost what (spec riichi2p.md
§1.2 notation: ``0m`` a red five, ``'`` the called tile)."""

from __future__ import annotations

import numpy as np

from ..family.replay import Replay
from . import engine as E
from .scoring import LIMITS, YAKU
from .tiles import CALL_TYPES, N_KINDS, format_counts, tile_str

HAND_NAMES = [f"{w}{i}" for w in "ES" for i in range(1, 5)]
OUTCOME_WORDS = {E.OUT_KYUUSHU: "abortive draw: kyuushu kyuuhai",
                 E.OUT_FOUR_KANS: "abortive draw: four kans"}


def _tile(tile_id: int, red_fives: bool) -> str:
    k = tile_id // 4
    return tile_str(k, red_fives and tile_id in (16, 52, 88))


class _Seat:
    """What the replay tracks of one player: concealed counts, red fives held, calls."""

    def __init__(self):
        self.c = np.zeros(N_KINDS, np.int64)
        self.red = 0
        self.calls = []

    def text(self) -> str:
        hand = format_counts(self.c, self.red)
        return hand + "".join(f"  [{c}]" for c in self.calls)


def build_replay(sc, seed: int, game: int, events: np.ndarray, batch) -> Replay:
    red = bool(sc.get("red_fives"))
    names = [f"P{i}" for i in range(E.N_SEATS)]
    players = ", ".join(f"P{i} ({s['policy']})" for i, s in enumerate(sc["players"]))
    first = int(batch.games[0, E.GF_FIRST_DEALER])
    start = sc.get("start_points")
    r = Replay(f"Two-player riichi replay: scenario {sc.name}, seed {seed}, game {game}",
               [f"players: {players}",
                f"first dealer {names[first]} (starts with {start[0]}); {names[1 - first]} "
                f"starts with {start[1]}; live wall {sc.get('live_wall')} tiles"])
    seats = [_Seat(), _Seat()]
    rnd = None
    n_hand = -1

    def take(p, k, tile_id):
        seats[p].c[k] -= 1
        if red and tile_id in (16, 52, 88):
            seats[p].red &= ~(1 << (k // 9))

    for ev in events:
        typ, s, a, b, c, d, e, f = (int(x) for x in ev)
        who = names[s] if 0 <= s < E.N_SEATS else ""
        if typ == E.EV_HAND_START:
            n_hand += 1
            seats = [_Seat(), _Seat()]
            rnd = r.new_round(f"hand {n_hand + 1}: {HAND_NAMES[a]}, honba {b}, dealer {who}; "
                              f"pool {c}; scores P0 {e}, P1 {f}")
        elif typ == E.EV_DEAL:
            k = a // 4
            seats[s].c[k] += 1
            if red and a in (16, 52, 88):
                seats[s].red |= 1 << (k // 9)
            if sum(x.c.sum() for x in seats) == 26:
                for i in range(E.N_SEATS):
                    rnd.add("deal", f"   {names[i]} dealt {seats[i].text()}")
        elif typ == E.EV_INDICATOR:
            rnd.add("info", f"   dora indicator {_tile(a, red)} (dora "
                    f"{tile_str(E.dora_of(a // 4))})")
        elif typ == E.EV_DRAW:
            k = a // 4
            seats[s].c[k] += 1
            if red and a in (16, 52, 88):
                seats[s].red |= 1 << (k // 9)
            pending = (s, f"{who} draws {_tile(a, red)}{' (replacement)' if b else ''}")
            rnd.add("draw", f"{pending[1]}")
        elif typ == E.EV_DISCARD:
            k = a // 4
            take(s, k, a)
            mark = " riichi!" if b else ""
            rnd.add("discard", f"{who} discards {_tile(a, red)}{mark}{' (tsumogiri)' if c else ''}"
                    f"   → {seats[s].text()}")
        elif typ == E.EV_RIICHI_PAID:
            rnd.add("riichi", f"   {who}'s riichi stands: {a} into the pool")
        elif typ == E.EV_CALL:
            word = CALL_TYPES[a]
            k = b
            if word == "chi":
                kinds = [k, k + 1, k + 2]
                called = c // 4
                for x in kinds:
                    if x != called:
                        seats[s].c[x] -= 1
                body = "".join(tile_str(x)[0] + ("'" if x == called else "") for x in kinds)
                text = f"chi:{body}{tile_str(k)[1]}"
            elif word in ("pon", "minkan"):
                n = 2 if word == "pon" else 3
                seats[s].c[k] -= n
                text = f"{word}:{tile_str(k)[0] * (n + 1)}{tile_str(k)[1]}"
            elif word == "ankan":
                seats[s].c[k] -= 4
                text = f"ankan:{tile_str(k)[0] * 4}{tile_str(k)[1]}"
            else:
                seats[s].c[k] -= 1
                text = f"kakan:{tile_str(k)[0] * 4}{tile_str(k)[1]}"
                seats[s].calls = [x for x in seats[s].calls
                                  if x != f"pon:{tile_str(k)[0] * 3}{tile_str(k)[1]}"]
            seats[s].calls.append(text)
            rnd.add("call", f"{who} calls {text}   → {seats[s].text()}")
        elif typ == E.EV_WIN:
            yk = [YAKU[i] for i in range(len(YAKU)) if (e >> i) & 1]
            won = seats[s]
            if not a:
                won.c[f // 4] += 1
            how = "TSUMO" if a else f"RON on {names[1 - s]}'s {_tile(f, red)}"
            value = f"{c} han {d} fu" if c else "yakuman"
            rnd.add("win", f"{who} {how}: {won.text()}")
            rnd.add("win", f"   yaku: {', '.join(yk)}; {value}; {names[1 - s]} loses {b}")
        elif typ == E.EV_EXHAUSTIVE:
            ten = [names[i] for i in range(E.N_SEATS) if (a >> i) & 1]
            rnd.add("draw_end", f"exhaustive draw: tenpai {', '.join(ten) or 'nobody'}"
                    + (f"; noten penalty {b}" if b else ""))
            for i in range(E.N_SEATS):
                if (a >> i) & 1:
                    rnd.add("draw_end", f"   {names[i]} shows {seats[i].text()}")
                if (c >> i) & 1:
                    rnd.add("draw_end", f"   {names[i]}: nagashi mangan")
        elif typ == E.EV_ABORT:
            rnd.add("draw_end", OUTCOME_WORDS.get(a, "abortive draw"))
        elif typ == E.EV_HAND_END:
            rec = batch.rounds[n_hand]
            limit = LIMITS[int(rec[E.RF_LIMIT])] if rec[E.RF_OUTCOME] <= E.OUT_RON else ""
            kept = "the dealer repeats" if rec[E.RF_DEALER_KEPT] else "the deal passes"
            rnd.add("ledger", f"ledger: P0 {a}, P1 {b}; pool {c}; {kept}"
                    + (f" ({limit})" if limit else ""))
        elif typ == E.EV_GAME_END:
            win = [names[i] for i in range(E.N_SEATS) if (a >> i) & 1]
            word = "a drawn game" if len(win) > 1 else f"winner {win[0]}"
            r.footer.append(f"game over after {n_hand + 1} hands "
                            f"({E.END_REASON_NAMES[b].replace('_', ' ')}): {word}")
    return r

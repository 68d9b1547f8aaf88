"""The readable play-by-play of a replayed emoji game: per turn, the four draws and the four
discards (``*`` marks a riichi declaration), each win with its hand, yaku and value, every
ante, riichi deposit, void refund, payment, pot share and discarded pot as a ledger (spec emoji.md
§1's log lines, spelled out; §16: a replay's ledger can be checked by hand)."""

from __future__ import annotations

import numpy as np

from ..family.replay import Replay
from .engine import (
    END_REASON_NAMES, EV_ANTE, EV_DEAL, EV_DEPOSIT, EV_DISCARD, EV_DRAW, EV_EXHAUSTIVE,
    EV_GAME_END, EV_PAYMENT, EV_POT_DISCARDED, EV_POT_SHARE, EV_REFUND, EV_RON, EV_ROUND_END,
    EV_ROUND_START, EV_TSUMO, GF_FIRST_DEALER, N_SEATS, RF_CHIPS0,
)
from .scoring import YAKU
from .tiles import format_counts, tile_emoji, tile_str

ROUND_NAMES = [f"{w}{i}" for w in "ESW" for i in range(1, 5)]


def build_replay(sc, seed: int, game: int, events: np.ndarray, batch) -> Replay:
    seats = [f"P{i}" for i in range(N_SEATS)]
    names = ", ".join(f"P{i} ({s['policy']})" for i, s in enumerate(sc["players"]))
    start = sc.get("chips.start")
    r = Replay(f"Emoji mahjong replay: scenario {sc.name}, seed {seed}, game {game}",
               [f"players: {names}", f"first dealer {seats[int(batch.games[0, GF_FIRST_DEALER])]}"
                f"; every seat starts with {start} chips"])
    chips = [start] * N_SEATS
    hands = np.zeros((N_SEATS, 30), np.int64)
    rnd, turn, draws, discards, dealer = None, 0, [], [], 0
    n_round = -1
    in_round = False   # the game end's pot events come after the last round_end
    end_pot = []       # and before game_end: printed after its line

    pending = []   # the turn's deposits and refunds: printed after its discards

    def flush():
        if draws:
            rnd.add("draw", f"t{turn:02d} draws     " + "  ".join(draws))
        if discards:
            rnd.add("discard", f"t{turn:02d} discards  " + "  ".join(discards))
        for line in pending:
            rnd.add("ledger", line)
        pending.clear()

    for ev in events:
        typ, s, a, b, c, d = (int(x) for x in ev)
        who = seats[s] if 0 <= s < N_SEATS else ""
        if typ == EV_ROUND_START:
            n_round += 1
            dealer = s
            hands[:] = 0
            turn, draws, discards = 0, [], []
            in_round = True
            rnd = r.new_round(f"round {ROUND_NAMES[n_round]}: dealer {who}, dora "
                              f"{tile_str(a)} {tile_emoji(a)}")
        elif typ == EV_ANTE:
            chips[s] -= a
            if s == N_SEATS - 1:   # the four antes are logged in seat order
                rnd.add("ledger", f"ante: every seat puts {a} into the pot → "
                        + ", ".join(f"{seats[i]} {chips[i]}" for i in range(N_SEATS)))
        elif typ == EV_DEPOSIT:
            pending.append(f"   {who} puts {a} into the pot (riichi deposit)")
        elif typ == EV_REFUND:
            pending.append(f"   {who}'s riichi is void (its discard was ronned): {a} back "
                           f"from the pot")
        elif typ == EV_POT_DISCARDED:
            line = f"   the pot of {a} is discarded"
            if in_round:
                rnd.add("ledger", line + " (nobody tenpai)")
            else:
                end_pot.append(f"game end: {line.strip()}")
        elif typ == EV_DEAL:
            hands[s, a] += 1
        elif typ == EV_DRAW:
            if s == dealer:   # a new turn starts with the dealer's draw
                if turn == 0:
                    for i in range(N_SEATS):
                        rnd.add("deal", f"   {seats[i]} hand: {format_counts(hands[i])}")
                flush()
                turn, draws, discards = turn + 1, [], []
            hands[s, a] += 1
            draws.append(f"{who} {tile_str(a)}")
        elif typ == EV_DISCARD:
            hands[s, a] -= 1
            discards.append(f"{who} {tile_str(a)}{'*' if b else ''}")
        elif typ in (EV_TSUMO, EV_RON):
            flush()
            draws, discards = [], []
            won = hands[s].copy()
            word = "TSUMO" if typ == EV_TSUMO else "RON"
            if typ == EV_RON:
                won[a] += 1
            yk = [YAKU[i] for i in range(len(YAKU)) if (d >> i) & 1]
            src = f" on {seats[c]}'s {tile_str(a)}" if typ == EV_RON else f" on {tile_str(a)}"
            rnd.add("win", f"{who} {word}{src}: {format_counts(won)}  {format_counts(won, True)}")
            rnd.add("win", f"   yaku: {', '.join(yk) or 'none (x1)'}; value {b}")
        elif typ == EV_PAYMENT:
            rnd.add("ledger", f"   {who} pays {seats[a]} {b}")
        elif typ == EV_POT_SHARE:
            if in_round:
                rnd.add("ledger", f"   {who} takes {a} from the pot")
            else:
                end_pot.append(f"game end: {who} takes {a} from the pot (the top seat)")
        elif typ == EV_EXHAUSTIVE:
            flush()
            draws, discards = [], []
            ten = [seats[i] for i in range(N_SEATS) if (a >> i) & 1]
            rnd.add("draw_end", f"exhaustive draw: tenpai {', '.join(ten) or 'nobody'}")
            for i in range(N_SEATS):
                if (a >> i) & 1:
                    rnd.add("draw_end", f"   {seats[i]} shows {format_counts(hands[i])}")
        elif typ == EV_ROUND_END:
            rec = batch.rounds[n_round]
            chips = [int(rec[RF_CHIPS0 + i]) for i in range(N_SEATS)]
            rnd.add("ledger", "ledger: " + ", ".join(f"{seats[i]} {chips[i]}"
                                                     for i in range(N_SEATS)) + f"; pot {a}")
            in_round = False
        elif typ == EV_GAME_END:
            win = [seats[i] for i in range(N_SEATS) if (a >> i) & 1]
            r.footer.append(f"game over after {n_round + 1} rounds "
                            f"({END_REASON_NAMES[b].replace('_', ' ')}): winner "
                            f"{' and '.join(win)}")
            r.footer.extend(end_pot)
    return r

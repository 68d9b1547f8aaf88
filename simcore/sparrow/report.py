"""The readable play-by-play of a replayed Sparrow game: each round's deal, every draw and
discard, each win with its hand, points and their sources, every payment, and a ledger of the
seats' points after the round."""

from __future__ import annotations

from simcore.family.replay import Replay
from .engine import (END_REASON_NAMES, EV_DEAL, EV_DECLINE, EV_DISCARD, EV_DRAW, EV_EXHAUSTIVE,
                     EV_GAME_END, EV_PAYMENT, EV_ROUND_START, EV_WIN, GF_FIRST_DEALER, RF_POINTS0)
from .hand import YAKU
from .tiles import kind_str, tile_str


def build_replay(sc, seed: int, game: int, events, batch) -> Replay:
    n, red = len(sc["players"]), sc.get("deck.red_bamboo")
    seats = [f"P{i}" for i in range(n)]
    names = ", ".join(f"P{i} ({s['policy']})" for i, s in enumerate(sc["players"]))
    r = Replay(f"Sparrow mahjong replay: scenario {sc.name}, seed {seed}, game {game}",
               [f"players: {names}", f"first dealer {seats[int(batch.games[0, GF_FIRST_DEALER])]}"
                f"; every seat starts with {sc.get('start_points')} points"])
    hands, rnd, n_round, line, dealer = [[] for _ in range(n)], None, -1, [], 0

    def show(tiles):
        return " ".join(tile_str(t, red) for t in sorted(tiles))

    def end_round():
        if rnd is not None:
            if line:
                rnd.add("discard", "   " + "  ".join(line))
            pts = batch.rounds[n_round, RF_POINTS0:RF_POINTS0 + n]
            rnd.add("ledger", "ledger: " + ", ".join(f"{seats[i]} {int(pts[i])}" for i in range(n)))

    for ev in events:
        typ, s, a, b, c, d = (int(x) for x in ev)
        who = seats[s] if 0 <= s < n else ""
        if typ == EV_ROUND_START:
            end_round()
            n_round, line, dealer = n_round + 1, [], s
            hands = [[] for _ in range(n)]
            rnd = r.new_round(f"round {n_round + 1}: dealer {who}, indicator {tile_str(b, red)}, "
                              f"dora {kind_str(a)}")
        elif typ == EV_DEAL:
            hands[s] = [(a >> (6 * j)) & 63 for j in range(5)]
            rnd.add("deal", f"   {who} hand: {show(hands[s])}")
        elif typ == EV_DRAW:
            hands[s].append(a)
            line.append(f"{who} +{tile_str(a, red)}")
        elif typ == EV_DISCARD:
            hands[s].remove(a)
            if line and line[-1].startswith(f"{who} +"):
                line[-1] += f" -{tile_str(a, red)}"
            else:
                line.append(f"{who} -{tile_str(a, red)}")
            if s == (dealer + n - 1) % n:   # the turn's last seat
                rnd.add("discard", "   " + "  ".join(line))
                line = []
        elif typ == EV_DECLINE:
            how = f"ron on {tile_str(a, red)} from {seats[c]}" if c >= 0 else "tsumo"
            line.append(f"({who} declines {how}: {b} points)")
        elif typ == EV_WIN:
            if line:
                rnd.add("discard", "   " + "  ".join(line))
                line = []
            how = f"RON {tile_str(a, red)} from {seats[c]}" if c >= 0 else \
                f"TSUMO {tile_str(a, red)}"
            yk = [y for i, y in enumerate(YAKU) if (d >> i) & 1]
            runs = (d >> 16) & 3
            rnd.add("win", f"{who} {how}: {show(hands[s] + ([a] if c >= 0 else []))}")
            rnd.add("win", f"   {b} points: {runs} runs, {2 - runs} triplets, {(d >> 8) & 15} "
                    f"red, {(d >> 12) & 15} dora{'; ' + ', '.join(yk) if yk else ''}")
        elif typ == EV_PAYMENT:
            rnd.add("ledger", f"   {who} pays {seats[a]} {b}")
        elif typ == EV_EXHAUSTIVE:
            ten = [seats[i] for i in range(n) if (a >> i) & 1]
            rnd.add("draw_end", f"exhaustive draw: tenpai {', '.join(ten) or 'nobody'}")
        elif typ == EV_GAME_END:
            end_round()
            win = [seats[i] for i in range(n) if (a >> i) & 1]
            r.footer.append(f"game over after {n_round + 1} rounds ({END_REASON_NAMES[b]}): "
                            f"winner {' and '.join(win)}")
    return r

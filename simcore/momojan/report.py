"""The readable play-by-play of a replayed game."""

from __future__ import annotations

import numpy as np

from .cards import N_NUMBER_KINDS, card_emoji, card_str, format_cards, kinds_from_mask
from .engine import (
    END_REASON_NAMES, EV_CHI, EV_DISCARD, EV_DRAW, EV_DRAW_THREE, EV_EXHAUSTIVE, EV_GAME_END,
    KAN_KIND_NAMES, KAN_KIND_OPEN, EV_KAI, EV_KAN, EV_PON, EV_REPLACEMENT, EV_RON, EV_ROUND_END,
    EV_ROUND_START, EV_TSUMO,
    GF_ROUNDS, OUT_DRAW, RF_DORA, RF_DOUBLED, RF_OUTCOME, RF_POINTS, RF_RON_BONUS, RF_SET_BONUS,
    RF_SUBTOTAL, RF_YAKU_BITS,
)
from .yaku_conditions import score_slot_names
from .schema import SET_BONUS_NAMES


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------

def _cards(kinds, emoji=True):
    text = format_cards(kinds)
    if emoji:
        text += "  " + " ".join(card_emoji(k) for k in sorted(kinds))
    return text


def replay_text(scenario, seed: int, game: int, events: np.ndarray, batch, rows) -> str:
    """A readable play-by-play of one game from its event log and records."""
    seats = ["P0", "P1"]
    names = [f"P{i} ({s['policy']})" for i, s in enumerate(scenario["players"])]
    out = [f"MOMOJAN replay: scenario {scenario.name}, seed {seed}, game {game}",
           f"players: {names[0]} vs {names[1]}"]
    hands = [[], []]
    round_no = -1
    for ev in events:
        typ, s = int(ev[0]), int(ev[1])
        a, b, c, d = (int(x) for x in ev[2:6])
        who = seats[s] if s >= 0 else "nobody"
        if typ == EV_ROUND_START:
            round_no += 1
            hands = [kinds_from_mask(np.uint64(b & 0xFFFFFFFFFFFFFFFF)),
                     kinds_from_mask(np.uint64(c & 0xFFFFFFFFFFFFFFFF))]
            out += ["", f"── round {round_no + 1}: dealer {seats[s]}, dora indicator "
                        f"{card_str(a)} {card_emoji(a)}"]
            for i in range(2):
                out.append(f"   {seats[i]} hand: {_cards(hands[i])}")
        elif typ == EV_DRAW:
            hands[s].append(a)
            out.append(f"{who} draws {card_str(a)} {card_emoji(a)}")
        elif typ == EV_REPLACEMENT:
            hands[s].append(a)
            out.append(f"{who} draws {card_str(a)} from the dead wall")
        elif typ == EV_DRAW_THREE:
            hands[s] += [a, b, c]
            out.append(f"{who} draws three: {_cards([a, b, c])}")
        elif typ in (EV_KAI, EV_PON, EV_CHI):
            row = [int(x) for x in rows[a]]
            if typ == EV_KAI:
                for k in row:
                    hands[s].remove(k)
                out.append(f"{who} KAI  {_cards(row)}")
            else:
                taken = list(row)
                taken.remove(b)
                for k in taken:
                    hands[s].remove(k)
                word = "PON" if typ == EV_PON else "CHI"
                out.append(f"{who} {word}  {_cards(row)} (calls {card_str(b)})")
        elif typ == EV_KAN:
            taken = kinds_from_mask(np.uint64(d & 0xFFFFFFFFFFFFFFFF))
            for k in taken:
                hands[s].remove(k)
            pictures = [k for k in taken if k >= N_NUMBER_KINDS]
            if b == KAN_KIND_OPEN and a < N_NUMBER_KINDS and pictures:
                # a discarded rank-1 card standing in for the picture (spec §10)
                out.append(f"{who} open KAN of {card_str(max(pictures))} (calls {card_str(a)} "
                           f"standing in; from the hand: {format_cards(taken)})")
            else:
                out.append(f"{who} {KAN_KIND_NAMES[b]} KAN of {card_str(a)} "
                           f"(from the hand: {format_cards(taken)})")
        elif typ == EV_DISCARD:
            hands[s].remove(a)
            mark = "  RIICHI ⟂" if b else ""
            out.append(f"{who} discards {card_str(a)} {card_emoji(a)}{mark}    hand {format_cards(hands[s])}")
        elif typ in (EV_TSUMO, EV_RON):
            word = "TSUMO" if typ == EV_TSUMO else "RON"
            out.append(f"{who} {word} on {card_str(a)} {card_emoji(a)}: "
                       f"{_cards(kinds_from_mask(np.uint64(c & 0xFFFFFFFFFFFFFFFF)))}")
        elif typ == EV_EXHAUSTIVE:
            tenpai = [seats[i] for i in range(2) if (d >> i) & 1]
            out.append(f"exhaustive draw: tenpai {', '.join(tenpai) or 'nobody'}; set points "
                       f"P0 {b}, P1 {c}" + (f"; {who} receives {a}" if a else "; no payment"))
        elif typ == EV_ROUND_END:
            rec = batch.rounds[round_no]
            if rec[RF_OUTCOME] != OUT_DRAW:
                slots = score_slot_names(scenario)  # designer-added yaku included
                yk = [slots[i] for i in range(len(slots)) if (int(rec[RF_YAKU_BITS]) >> i) & 1]
                if rec[RF_SET_BONUS] > 0:  # its slot bit is set too; shown once, as the bonus
                    yk = [n for n in yk if n not in SET_BONUS_NAMES]
                table = scenario.get("scoring.yaku")
                pts = {n: table[n]["points"] if n in table
                       else scenario.get(f"scoring.set_count_bonus.{n}") for n in yk}
                out.append("   yaku: " + ", ".join(f"{n} {p}" for n, p in pts.items())
                           + f"; bonuses: dora {rec[RF_DORA]}, ron {rec[RF_RON_BONUS]}, "
                             f"set count {rec[RF_SET_BONUS]}")
                out.append(f"   subtotal {rec[RF_SUBTOTAL]}" + (" → doubled" if rec[RF_DOUBLED] else "")
                           + f" = {rec[RF_POINTS]} points")
            out.append(f"   scores after round: P0 {a}, P1 {b}; pot {c}")
        elif typ == EV_GAME_END:
            winner = seats[s] if s >= 0 else "nobody (tie)"
            out += ["", f"══ game over after {int(batch.games[0, GF_ROUNDS])} rounds: "
                        f"{END_REASON_NAMES[a].replace('_', ' ')}. Winner {winner}; final P0 {b}, "
                        f"P1 {c}" + (f"; leftover pot {d}" if d else "")]
    return "\n".join(out)


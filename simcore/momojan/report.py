"""The readable play-by-play of a replayed game."""

from __future__ import annotations

import numpy as np

from .cards import N_NUMBER_KINDS, card_emoji, card_str, format_cards, kinds_from_mask
from .engine import (
    END_REASON_NAMES, EV_CHI, EV_DISCARD, EV_DRAW, EV_DRAW_THREE, EV_EXHAUSTIVE, EV_GAME_END,
    KAN_KIND_NAMES, KAN_KIND_OPEN, EV_KAI, EV_KAN, EV_PON, EV_REPLACEMENT, EV_RON, EV_ROUND_END,
    EV_ROUND_START, EV_TSUMO,
    GF_FIRST_DEALER, GF_ROUNDS, OUT_DRAW, RF_DEALER, RF_DORA, RF_DOUBLED, RF_OUTCOME, RF_POINTS,
    RF_REPEAT, RF_RON_BONUS, RF_SET_BONUS, RF_SUBTOTAL, RF_WINNER, RF_YAKU_BITS,
)
from ..family.replay import Replay
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


def _shown(hand, sets) -> str:
    """The concealed hand, then each revealed set in brackets."""
    return format_cards(hand) + "".join(f"  [{s}]" for s in sets)


def _starting_scores(scenario, first_dealer: int) -> list:
    """Each seat's points before the first ante (starting points, bonuses, a komi paid at the
    start), as :func:`simcore.momojan.engine.play_game` sets them."""
    komi = scenario.get("compensation.komi") if scenario.get("compensation.komi_at") == "start" \
        else 0
    sd = 1 - first_dealer
    out = [0, 0]
    out[first_dealer] = (scenario.get("starting_points")
                         + scenario.get("compensation.start_bonus.first_dealer") - komi)
    out[sd] = (scenario.get("starting_points")
               + scenario.get("compensation.start_bonus.second_dealer") + komi)
    return out


def _settlement(seats, before, pot_before, after, pot_after, winner, ante_payer) -> str:
    """The round's ledger line: who paid whom, where the pot went, the scores after. Amounts
    are the engine's score changes, so the line cannot disagree with the scores."""
    delta = [after[i] - before[i] for i in range(2)]
    parts = []
    pot_out = pot_before - pot_after
    if pot_out:
        taker = winner if winner >= 0 else ante_payer
        delta[taker] -= pot_out
        parts.append(f"{seats[taker]} takes the pot {pot_out}" if winner >= 0 else
                     f"the pot {pot_out} goes back to {seats[taker]}")
    if delta[0]:
        payer = 0 if delta[0] < 0 else 1
        parts.insert(0, f"{seats[payer]} pays {seats[1 - payer]} {abs(delta[0])}")
    if pot_after:
        parts.append(f"the pot {pot_after} stays for the next round")
    return ("ledger: " + ("; ".join(parts) or "no payment")
            + f" → P0 {after[0]}, P1 {after[1]}; pot {pot_after}")


def build_replay(scenario, seed: int, game: int, events: np.ndarray, batch, rows) -> Replay:
    """The play-by-play of one game from its event log and records: every line shows the
    concealed hand and the revealed sets; each round opens with the ante and closes with the
    ledger of its payments."""
    seats = ["P0", "P1"]
    names = [f"P{i} ({s['policy']})" for i, s in enumerate(scenario["players"])]
    r = Replay(f"MOMOJAN replay: scenario {scenario.name}, seed {seed}, game {game}",
               [f"players: {names[0]} vs {names[1]}"])
    first_dealer = int(batch.games[0, GF_FIRST_DEALER])
    scores = _starting_scores(scenario, first_dealer)
    r.header.append(f"first dealer {seats[first_dealer]}; starting points P0 {scores[0]}, "
                    f"P1 {scores[1]}")
    hands, sets = [[], []], [[], []]
    pot = 0
    round_no = -1
    rnd = None
    for ev in events:
        typ, s = int(ev[0]), int(ev[1])
        a, b, c, d = (int(x) for x in ev[2:6])
        who = seats[s] if s >= 0 else "nobody"
        if typ == EV_ROUND_START:
            round_no += 1
            rec = batch.rounds[round_no]
            hands = [kinds_from_mask(np.uint64(b & 0xFFFFFFFFFFFFFFFF)),
                     kinds_from_mask(np.uint64(c & 0xFFFFFFFFFFFFFFFF))]
            sets = [[], []]
            rnd = r.new_round(f"round {round_no + 1}: dealer {seats[s]}"
                              + (f" (repeat {rec[RF_REPEAT]})" if rec[RF_REPEAT] else "")
                              + f", dora indicator {card_str(a)} {card_emoji(a)}")
            nd = 1 - s
            ante = scenario.get("ante.base") + scenario.get("ante.per_repeat") * int(rec[RF_REPEAT])
            carried = pot
            scores[nd] -= ante
            pot += ante
            rnd.add("ledger", f"ante: {seats[nd]} puts {ante} into the pot"
                    + (f" ({carried} carried over)" if carried else "")
                    + f" → P0 {scores[0]}, P1 {scores[1]}; pot {pot}")
            for i in range(2):
                rnd.add("deal", f"   {seats[i]} hand: {_cards(hands[i])}")
        elif typ == EV_DRAW:
            hands[s].append(a)
            rnd.add("draw", f"{who} draws {card_str(a)} {card_emoji(a)}")
        elif typ == EV_REPLACEMENT:
            hands[s].append(a)
            rnd.add("draw", f"{who} draws {card_str(a)} from the dead wall")
        elif typ == EV_DRAW_THREE:
            hands[s] += [a, b, c]
            rnd.add("draw", f"{who} draws three: {_cards([a, b, c])}")
        elif typ in (EV_KAI, EV_PON, EV_CHI):
            row = [int(x) for x in rows[a]]
            if typ == EV_KAI:
                for k in row:
                    hands[s].remove(k)
                word, called = "KAI ", ""
            else:
                taken = list(row)
                taken.remove(b)
                for k in taken:
                    hands[s].remove(k)
                word = "PON" if typ == EV_PON else "CHI"
                called = f" (calls {card_str(b)})"
            sets[s].append(format_cards(row))
            rnd.add("call", f"{who} {word} {_cards(row)}{called}    hand {_shown(hands[s], sets[s])}")
        elif typ == EV_KAN:
            taken = kinds_from_mask(np.uint64(d & 0xFFFFFFFFFFFFFFFF))
            for k in taken:
                hands[s].remove(k)
            pictures = [k for k in taken if k >= N_NUMBER_KINDS]
            if b == KAN_KIND_OPEN and a < N_NUMBER_KINDS and pictures:
                # a discarded rank-1 card standing in for the picture (spec §10)
                text = (f"{who} open KAN of {card_str(max(pictures))} (calls {card_str(a)} "
                        f"standing in; from the hand: {format_cards(taken)})")
                sets[s].append(f"kan {card_str(max(pictures))}")
            else:
                text = (f"{who} {KAN_KIND_NAMES[b]} KAN of {card_str(a)} "
                        f"(from the hand: {format_cards(taken)})")
                sets[s].append(f"kan {card_str(a)}")
            rnd.add("call", f"{text}    hand {_shown(hands[s], sets[s])}")
        elif typ == EV_DISCARD:
            hands[s].remove(a)
            mark = "  RIICHI ⟂" if b else ""
            rnd.add("riichi" if b else "discard",
                    f"{who} discards {card_str(a)} {card_emoji(a)}{mark}    "
                    f"hand {_shown(hands[s], sets[s])}")
        elif typ in (EV_TSUMO, EV_RON):
            word = "TSUMO" if typ == EV_TSUMO else "RON"
            won = kinds_from_mask(np.uint64(c & 0xFFFFFFFFFFFFFFFF))
            rnd.add("win", f"{who} {word} on {card_str(a)} {card_emoji(a)}: {_cards(won)}"
                    + "".join(f"  [{x}]" for x in sets[s]))
        elif typ == EV_EXHAUSTIVE:
            tenpai = [seats[i] for i in range(2) if (d >> i) & 1]
            rnd.add("draw_end", f"exhaustive draw: tenpai {', '.join(tenpai) or 'nobody'}; set "
                    f"points P0 {b}, P1 {c}" + (f"; {who} receives {a}" if a else "; no payment"))
            for i in range(2):
                if (d >> i) & 1:
                    rnd.add("draw_end", f"   {seats[i]} shows {_shown(hands[i], sets[i])}")
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
                rnd.add("win", "   yaku: " + ", ".join(f"{n} {p}" for n, p in pts.items())
                        + f"; bonuses: dora {rec[RF_DORA]}, ron {rec[RF_RON_BONUS]}, "
                          f"set count {rec[RF_SET_BONUS]}")
                rnd.add("win", f"   subtotal {rec[RF_SUBTOTAL]}"
                        + (" → doubled" if rec[RF_DOUBLED] else "") + f" = {rec[RF_POINTS]} points")
            before, pot_before = list(scores), pot
            scores, pot = [a, b], c
            rnd.add("ledger", _settlement(seats, before, pot_before, scores, pot,
                                          int(rec[RF_WINNER]), 1 - int(rec[RF_DEALER])))
        elif typ == EV_GAME_END:
            winner = seats[s] if s >= 0 else "nobody (tie)"
            r.footer.append(f"game over after {int(batch.games[0, GF_ROUNDS])} rounds: "
                            f"{END_REASON_NAMES[a].replace('_', ' ')}. Winner {winner}; final "
                            f"P0 {b}, P1 {c}" + (f"; leftover pot {d}" if d else ""))
            if d and [b, c] != scores:
                r.footer.append(f"the leftover pot {d} goes to {winner}")
    return r

"""Summaries of run records, and the readable play-by-play of a replayed game."""

from __future__ import annotations

import numpy as np

from ..stats import mean_ci, wilson
from .cards import card_emoji, card_str, format_cards, kinds_from_mask
from .engine import (
    END_REASON_NAMES, EV_CHI, EV_DISCARD, EV_DRAW, EV_DRAW_THREE, EV_EXHAUSTIVE, EV_GAME_END,
    EV_KAI, EV_KAN, EV_PON, EV_REPLACEMENT, EV_RON, EV_ROUND_END, EV_ROUND_START, EV_TSUMO,
    GF_END_REASON, GF_FIRST_DEALER, GF_ROUNDS, GF_WINNER, OUT_DRAW, OUT_RON, OUT_TSUMO, RF_DEALER,
    RF_DORA, RF_DOUBLED, RF_OUTCOME, RF_POINTS, RF_RIICHI0, RF_RIICHI1, RF_RON_BONUS, RF_SET_BONUS,
    RF_SUBTOTAL, RF_WINNER, RF_YAKU_BITS,
)
from .rules_array import YAKU_KEYS
from .schema import SET_BONUS_NAMES

SLOT_NAMES = list(YAKU_KEYS) + list(SET_BONUS_NAMES)


def summarize(scenario_name: str, seed: int, batch) -> dict:
    g, r = batch.games, batch.rounds
    n_games, n_rounds = len(g), len(r)
    wins = r[r[:, RF_OUTCOME] != OUT_DRAW]
    n_wins = len(wins)
    metrics = {
        "first_dealer_win_rate": wilson(int(np.sum(g[:, GF_WINNER] == g[:, GF_FIRST_DEALER])), n_games),
        "seat0_win_rate": wilson(int(np.sum(g[:, GF_WINNER] == 0)), n_games),
        "tied_game_rate": wilson(int(np.sum(g[:, GF_WINNER] < 0)), n_games),
        "dealer_round_win_rate": wilson(int(np.sum(wins[:, RF_WINNER] == wins[:, RF_DEALER])), n_rounds),
        "tsumo_rate": wilson(int(np.sum(r[:, RF_OUTCOME] == OUT_TSUMO)), n_rounds),
        "ron_rate": wilson(int(np.sum(r[:, RF_OUTCOME] == OUT_RON)), n_rounds),
        "draw_rate": wilson(int(np.sum(r[:, RF_OUTCOME] == OUT_DRAW)), n_rounds),
        "doubled_win_rate": wilson(int(np.sum(wins[:, RF_DOUBLED])), n_wins),
        "riichi_rate": wilson(int(np.sum((r[:, RF_RIICHI0] + r[:, RF_RIICHI1]) > 0)), n_rounds),
        "mean_winning_points": mean_ci(wins[:, RF_POINTS].tolist()),
        "mean_rounds_per_game": mean_ci(g[:, GF_ROUNDS].tolist()),
    }
    bits = wins[:, RF_YAKU_BITS]
    yaku = {name: round(float(np.mean((bits >> i) & 1)), 6) if n_wins else 0.0
            for i, name in enumerate(SLOT_NAMES)}
    yaku = {k: v for k, v in yaku.items() if v > 0}
    ends = np.bincount(g[:, GF_END_REASON], minlength=len(END_REASON_NAMES))
    end_reasons = {END_REASON_NAMES[i]: round(float(c) / n_games, 6)
                   for i, c in enumerate(ends) if c}
    return {"scenario": scenario_name, "games": n_games, "rounds": n_rounds, "seed": seed,
            "metrics": metrics, "yaku": yaku, "end_reasons": end_reasons}


def _fmt_rate(m: dict) -> str:
    if m["value"] is None:
        return "-"
    return f"{m['value']:.4f}  [{m['ci'][0]:.4f}, {m['ci'][1]:.4f}]  n={m['n']}"


def summary_table(summary: dict) -> str:
    lines = [f"scenario {summary['scenario']}: {summary['games']} games, {summary['rounds']} rounds, "
             f"seed {summary['seed']}", "", f"{'metric':<24}value   [95% interval]"]
    for k, m in summary["metrics"].items():
        lines.append(f"{k:<24}{_fmt_rate(m)}")
    lines += ["", "end reasons (share of games)"]
    lines += [f"  {k:<22}{v:.4f}" for k, v in summary["end_reasons"].items()]
    lines += ["", "yaku (share of wins)"]
    lines += [f"  {k:<22}{v:.4f}" for k, v in sorted(summary["yaku"].items(), key=lambda kv: -kv[1])]
    return "\n".join(lines)


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
            kind = ("closed", "open", "added")[b]
            out.append(f"{who} {kind} KAN of {card_str(a)}")
            hands[s] = [k for k in hands[s] if not _same_kan(k, a)] if b != 2 else \
                _drop_one_kan(hands[s], a)
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
                yk = [SLOT_NAMES[i] for i in range(len(SLOT_NAMES)) if (int(rec[RF_YAKU_BITS]) >> i) & 1]
                pts = {n: scenario.get(f"scoring.yaku.{n}.points") if n in YAKU_KEYS
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


def _same_kan(k, a):
    if a >= 36:
        return k == a
    return k < 36 and k % 9 == a % 9


def _drop_one_kan(hand, a):
    for i, k in enumerate(hand):
        if _same_kan(k, a):
            return hand[:i] + hand[i + 1:]
    return hand

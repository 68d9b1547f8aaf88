"""Summaries of ptrump runs, and the readable play-by-play of a replayed match.

The replay writes cards in the spec's notation (``234s 5h X``; :func:`simcore.ptrump.cards
.format_cards`), revealed sets as ``pon:5s5h5d``, and each win with its breakdown and the hand
as a line ``score`` reads back (``234s 67h 55d +8s tsumo dora:K``).

What this implementation simplifies: the summary lists every catalogue metric of the run with
its interval; yaku that never scored are listed once at the end.
"""

from __future__ import annotations

import numpy as np

from ..compare import summarize_run, target_line
from ..report_common import drop_absent_seats, end_reasons, metric_cell, sums_of_batch
from ..stats import MomentSums
from .cards import card_str, format_cards
from .engine import (
    DRAW_KIND_NAMES, END_REASON_NAMES, EV_DEAL, EV_DEPOSIT, EV_DISCARD, EV_DRAW, EV_EXHAUSTIVE,
    EV_GAME_END, EV_KAN, EV_NUKI, EV_PON, EV_ROUND_END, EV_ROUND_START, EV_WIN, EV_WIN_DETAIL,
    GF_ROUNDS, MAX_SEATS, ROB_NAMES, SET_KIND_NAMES, unpack_scores,
)
from .metrics import CATALOGUE, game_values
from .rules_array import SLOTS


def _ids(mask: int) -> list:
    m = int(mask) & ((1 << 64) - 1)
    return [c for c in range(54) if (m >> c) & 1]


def summarize(scenario_name: str, seed: int, data, reached: dict | None = None, v: int = 0,
              scenario=None) -> dict:
    """The run summary from streamed sums (one variant's ``MomentSums``, or a ``Batch``): every
    catalogue metric with its 95% interval, yaku shares of wins, end-reason shares of matches."""
    sums = data if isinstance(data, MomentSums) else _sums_of_batch(data)
    metrics = summarize_run(CATALOGUE, sums, v, n_seats=len(scenario["players"])
                            if scenario is not None else None)
    rounds = metrics["draw_rate"]["n"]
    drop_absent_seats(metrics, len(scenario["players"]) if scenario is not None else MAX_SEATS,
                      MAX_SEATS)
    yaku = {k[len("yaku_"):-len("_share")]: m["value"] for k, m in metrics.items()
            if k.startswith("yaku_") and m["value"]}
    ends = end_reasons(metrics, "value")
    out = {"scenario": scenario_name, "games": sums.n, "rounds": rounds, "seed": seed,
           "metrics": metrics, "yaku": yaku, "end_reasons": ends,
           "intervals": {"yaku": {k[len("yaku_"):-len("_share")]: m["ci"]
                                  for k, m in metrics.items()
                                  if k.startswith("yaku_") and m["value"]},
                         "end_reasons": end_reasons(metrics, "ci")}}
    if reached:
        out["target"] = reached
    return out


def _sums_of_batch(batch, first_game: int = 0) -> MomentSums:
    return sums_of_batch(batch, game_values, first_game)


def _fmt(m: dict, metric) -> str:
    return metric_cell(m, metric)


def summary_table(summary: dict) -> str:
    """The run summary as a table: headline metrics, end reasons, yaku shares."""
    cat = {m.name: m for m in CATALOGUE}
    lines = [f"scenario {summary['scenario']}: {summary['games']} matches, {summary['rounds']} "
             f"rounds, seed {summary['seed']}"]
    if summary.get("target"):
        lines.append(target_line(summary["target"]))
    lines += ["", f"{'metric':<30}value     [95% interval]"]
    groups = (("", lambda k: not k.startswith(("end_", "yaku_"))),
              ("end reasons (share of matches)", lambda k: k.startswith("end_")),
              ("yaku and bonuses (share of wins)", lambda k: k.startswith("yaku_")))
    for title, keep in groups:
        rows = [(k, m) for k, m in summary["metrics"].items() if keep(k)]
        if title:
            lines += ["", title]
            rows = sorted((r for r in rows if r[1]["value"]), key=lambda r: -r[1]["value"])
        for k, m in rows:
            lines.append(f"{k:<30}{_fmt(m, cat[k])}")
    never = [k[len("yaku_"):-len("_share")] for k, m in summary["metrics"].items()
             if k.startswith("yaku_") and not m["value"]]
    if never:
        lines += ["", "never scored: " + ", ".join(never)]
    lines += ["", "Intervals: Wilson for shares of matches; for rounds and wins the delta "
                  "method with the match as the unit."]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------

def _set_text(kind: int, mask: int) -> str:
    return f"{SET_KIND_NAMES[kind]}:{format_cards(_ids(mask), sep='')}"


def replay_text(scenario, seed: int, game: int, events: np.ndarray, batch) -> str:
    """A readable play-by-play of one match from its event log and records."""
    n = len(scenario["players"])
    seats = [f"P{i}" for i in range(n)]
    names = ", ".join(f"P{i} ({s['policy']})" for i, s in enumerate(scenario["players"]))
    out = [f"P-style trump mahjong replay: scenario {scenario.name}, seed {seed}, game {game}",
           f"players: {names}"]
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
            out += ["", f"── round {d + 1}: dealer {who}, dora indicator {card_str(a)}"
                        + (f" ({c} reshuffle{'s' if c > 1 else ''} for a joker indicator)"
                           if c else "")]
        elif typ == EV_DEAL:
            hands[s] = _ids(a)
            out.append(f"   {who} dealt: {format_cards(hands[s])}")
        elif typ == EV_DRAW:
            hands[s].append(a)
            how = "" if b == 1 else f" ({DRAW_KIND_NAMES[b].replace('_', ' ')})"
            out.append(f"{who} draws {card_str(a)}{how}")
        elif typ == EV_DISCARD:
            hands[s].remove(a)
            mark = {0: "", 1: "  RIICHI", 2: "  DOUBLE RIICHI"}[b]
            out.append(f"{who} discards {card_str(a)}{mark}    hand {format_cards(hands[s])}"
                       + "".join(f" {x}" for x in sets[s]))
        elif typ == EV_PON:
            ids = _ids(c)
            for x in ids:
                if x != a:
                    hands[s].remove(x)
            sets[s].append(_set_text(0, c))
            out.append(f"{who} PON {card_str(a)} from {seats[b]}: {sets[s][-1]}")
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
            out.append(f"{who} KAN ({SET_KIND_NAMES[a]}){src}: {text}")
        elif typ == EV_NUKI:
            hands[s].remove(a)
            nuki[s].append(a)
            out.append(f"{who} sets a joker aside (nukidora {len(nuki[s])})")
        elif typ == EV_DEPOSIT:
            out.append(f"   {who} deposits {a} (pool {b})")
        elif typ == EV_WIN:
            how = "RON" if c else "TSUMO"
            rob = f", robbing a {ROB_NAMES[d]}" if c and d else ""
            out.append(f"{who} {how} on {card_str(a)}{rob}: {b} points")
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
            out.append(f"   hand: {' '.join(p for p in parts if p)}")
            out.append(f"   items: {', '.join(items) or '-'}"
                       + ("" if d else "  (no yaku)") + f"; ura indicator {card_str(ura)}")
        elif typ == EV_EXHAUSTIVE:
            tenpai = [seats[i] for i in range(n) if (a >> i) & 1]
            nag = [seats[i] for i in range(n) if (c >> i) & 1]
            out.append(f"exhaustive draw: tenpai {', '.join(tenpai) or 'nobody'}; noten "
                       f"penalties {b}" + (f" ({d} to tenpai players)" if d else "")
                       + (f"; nagashi {', '.join(nag)}" if nag else ""))
            for i in range(n):
                if (a >> i) & 1:
                    out.append(f"   {seats[i]} shows {format_cards(hands[i])}"
                               + "".join(f" {x}" for x in sets[i]))
        elif typ == EV_ROUND_END:
            sc = unpack_scores(c, n)
            out.append("   scores: " + ", ".join(f"{seats[i]} {sc[i]}" for i in range(n))
                       + f"; pool {b}")
        elif typ == EV_GAME_END:
            win = [seats[i] for i in range(n) if (a >> i) & 1]
            out += ["", f"══ match over after {int(batch.games[0, GF_ROUNDS])} rounds "
                        f"({END_REASON_NAMES[b].replace('_', ' ')}): winner "
                        f"{' and '.join(win)}" + (f"; deposits lost {d}" if d else "")]
    return "\n".join(out)

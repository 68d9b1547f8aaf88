"""What a human seat sees at an emoji decision (``momojan-sim play``): the round, turn, dora, chips
and pot, every seat's discards in order (``*`` a riichi declaration, as the replay writes them) and
riichi, its own 7 tiles and the tile it drew, and the last round's settlement (public at a round's
end, spec emoji.md §5). Never another seat's tiles or the wall: the observation's ``unseen`` block
is not read (under ``wait_count_info: wall`` it counts the live wall); the copies left of a wait
are counted from public information, as S25's riichi display does. The legal actions are the
discards by tile (the drawn one marked: it is the default), then the riichi declarations with
their waits."""

from __future__ import annotations

import numpy as np

from .engine import (
    EV_DEAL, EV_DISCARD, EV_DRAW, EV_EXHAUSTIVE, EV_RON, EV_ROUND_START, EV_TSUMO,
    RA_CHIPS_RIICHI_DEPOSIT, RA_WALL_INDICATOR,
)
from .hand import waits
from .layout import (
    MAX_DISC, N_SEATS, OBS_CHIPS, OBS_DEALER, OBS_DISC, OBS_DISC_RIICHI, OBS_DORA, OBS_DRAWN,
    OBS_N_DISC, OBS_OWN, OBS_POT, OBS_RIICHI_TURN, OBS_TURN, OBS_TURNS,
)
from .report import ROUND_NAMES
from .scoring import YAKU
from .tiles import N_COPIES, N_KINDS, format_counts, tile_emoji, tile_str


def _tile(k: int) -> str:
    return f"{tile_str(k)} {tile_emoji(k)}"


def _last_round(events, starts, who) -> list:
    """The settlement of the round before this one (public at its end, §5): the wins with their
    hands, yaku and values, or the draw's tenpai seats."""
    if len(starts) < 2:
        return []
    ev = events[starts[-2]:starts[-1]]
    name = ROUND_NAMES[len(starts) - 2] if len(starts) - 2 < len(ROUND_NAMES) else "?"
    hands = np.zeros((N_SEATS, N_KINDS), np.int64)
    out = []
    for e in ev:
        typ, s, a, b, c, d = (int(x) for x in e[:6])
        if typ in (EV_DEAL, EV_DRAW):
            hands[s, a] += 1
        elif typ == EV_DISCARD:
            hands[s, a] -= 1
        elif typ in (EV_TSUMO, EV_RON):
            won = hands[s].copy()
            if typ == EV_RON:
                won[a] += 1
                how = f"RON on {who(c, False)}'s {tile_str(a)}"
            else:
                how = f"TSUMO on {tile_str(a)}"
            yk = ", ".join(YAKU[i] for i in range(len(YAKU)) if (d >> i) & 1) or "no yaku"
            out.append(f"last round ({name}): {who(s, False)} {how}: {format_counts(won)}, "
                       f"{yk}, value {b}")
        elif typ == EV_EXHAUSTIVE:
            ten = [who(p, False) for p in range(N_SEATS) if (a >> p) & 1]
            out.append(f"last round ({name}): exhaustive draw, tenpai {', '.join(ten) or 'nobody'}")
    return out


def seat_view(sim, seat: int, obs, mask, events):
    """(lines, [(action, label)]) of the decision in ``obs`` / ``mask``."""
    o = [int(x) for x in obs]
    dealer, turn = o[OBS_DEALER], o[OBS_TURN]
    starts = [i for i, e in enumerate(events) if e[0] == EV_ROUND_START]
    n_round = len(starts) - 1

    def who(s, mark=True):
        tags = (["you"] if s == seat else []) + (["dealer"] if mark and s == dealer else [])
        return f"P{s}" + (f" ({', '.join(tags)})" if tags else "")

    discards = [[(o[OBS_DISC + s * MAX_DISC + j], o[OBS_DISC_RIICHI + s * MAX_DISC + j])
                 for j in range(o[OBS_N_DISC + s])] for s in range(N_SEATS)]
    name = ROUND_NAMES[n_round] if 0 <= n_round < len(ROUND_NAMES) else f"round {n_round + 1}"
    lines = _last_round(events, starts, who) if turn == 1 else []
    lines.append(f"round {name} · turn {turn} of {o[OBS_TURNS]} · dora {_tile(o[OBS_DORA])} · "
                 f"pot {o[OBS_POT]}")
    lines.append("chips: " + ", ".join(f"{who(s)} {o[OBS_CHIPS + s]}" for s in range(N_SEATS)))
    width = max(len(who(s)) for s in range(N_SEATS))
    for s in range(N_SEATS):
        rt = o[OBS_RIICHI_TURN + s]
        disc = " ".join(tile_str(k) + ("*" if r else "") for k, r in discards[s]) or "-"
        lines.append(f"   {who(s):<{width}}  discarded {disc}"
                     + (f"  · RIICHI (turn {rt})" if rt else ""))
    own = np.array(o[OBS_OWN:OBS_OWN + N_KINDS], np.int64)
    drawn = o[OBS_DRAWN]
    seven = own.copy()
    if drawn >= 0:
        seven[drawn] -= 1
    lines.append(f"   your hand {format_counts(seven)}   {format_counts(seven, True)}"
                 + (f" · drew {_tile(drawn)}" if drawn >= 0 else ""))

    # the copies of each kind not in sight: 3 - own - every discard - the set-aside indicator
    # (its kind is public: the one before the dora, §5); never the wall's own counts
    seen = own.copy()
    for s in range(N_SEATS):
        for k, _ in discards[s]:
            seen[k] += 1
    if starts and int(sim.ra[RA_WALL_INDICATOR]) == 0:
        seen[int(events[starts[-1]][3])] += 1
    deposit = int(sim.ra[RA_CHIPS_RIICHI_DEPOSIT])

    def label(a: int) -> str:
        k = a % N_KINDS
        if a < N_KINDS:
            return f"discard {_tile(k)}" + ("  (the tile drawn)" if k == drawn else "")
        h = own.copy()
        h[k] -= 1
        w = int(waits(h, sim.t))
        ws = " ".join(f"{tile_str(x)} ({max(N_COPIES - seen[x], 0)} left)"
                      for x in range(N_KINDS) if (w >> x) & 1)
        return f"discard {_tile(k)} and declare RIICHI ({deposit} to the pot): waits {ws}"

    legal = sorted(int(a) for a in np.flatnonzero(mask))   # discards by tile, then riichi
    return lines, [(a, label(a)) for a in legal]

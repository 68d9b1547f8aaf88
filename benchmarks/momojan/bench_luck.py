"""How much luck correction (issue 32) could narrow MOMOJAN's intervals, before building it.

Run: ``python benchmarks/momojan/bench_luck.py [--scenario new_edition] [--games 3000]``

Every control here has conditional mean exactly 0 whatever the bots do, so subtracting any
multiple of it leaves an estimate unbiased (Wald): each is a sum over the game of a luck term
whose expectation given everything before it is 0.

- deal: (distance to tenpai of the non-dealer's dealt hand) - (the dealer's); the two dealt hands
  are exchangeable (the wall is a uniform permutation), so an antisymmetric function has mean 0.
- draw: per draw, f(hand + card) - mean of f(hand + c) over the cards not yet seen by anyone
  (f = -distance to tenpai of the 3k+2 hand): given the state before the draw the next card is
  uniform over those, so each term has mean 0 (the AIVAT step with the crudest evaluator).
  ``draw by distance``: the same split by the drawer's distance before the draw (0, 1, 2, 3+),
  four controls fitted jointly.

Signs: for the first dealer's win, the first dealer's luck minus the second's; for the dealer's
round wins, each round's dealer minus non-dealer. The variance factor is var(y) / var(y - X b)
with b fitted on the other half of the games (cross-fitted, so the figure is not flattered by
the fit). The cost: microseconds per draw-luck term in compiled code against the engine's
microseconds per round (value against value).

What this reads: games replayed through the event log (``Simulator.replay_events``), so it takes
about a second per 500 games; the per-draw evaluation is compiled (numba).
"""

from __future__ import annotations

import argparse
import time

import numba as nb
import numpy as np

from simcore import families
from simcore.momojan.cards import N_KINDS
from simcore.momojan.engine import (
    EV_CHI, EV_DISCARD, EV_DRAW, EV_DRAW_THREE, EV_KAI, EV_KAN, EV_PON, EV_ROUND_START, GF_FIRST_DEALER,
    GF_WINNER, OUT_DRAW, RF_OUTCOME, RF_WINNER,
)
from simcore.momojan.shanten import shanten, unit, unseen_copies

MASK64 = (1 << 64) - 1


@nb.njit(cache=True)
def candidates(hand, n_rev, seen, core):
    """int64[N_KINDS, 2]: per kind, its unseen copies and the distance of hand + that card."""
    out = np.zeros((N_KINDS, 2), np.int64)
    for k in range(N_KINDS):
        m = unseen_copies(core, seen, k)
        out[k, 0] = m
        if m > 0:
            out[k, 1] = shanten(hand + unit(k), n_rev, core)
    return out


@nb.njit(cache=True)
def draw_luck(hand, n_rev, card, seen, core):
    """(f(hand + card) - mean over unseen c of f(hand + c), the drawer's distance before)."""
    total = 0.0
    count = 0
    drawn = 0.0
    for k in range(N_KINDS):
        m = unseen_copies(core, seen, k)
        if m <= 0:
            continue
        v = -shanten(hand + unit(k), n_rev, core)
        total += m * v
        count += m
        if k == card:
            drawn = v
    return drawn - total / count, shanten(hand, n_rev, core)


def game_controls(sim, seed, game, core):
    """(first dealer's win (1/2 for a tie), dealer round wins, rounds, deal luck, draw luck
    by distance [4], the same two with the dealer's sign, the draws [(round, drawer is the
    dealer, drawer is the first dealer, the other's distance, turn, candidates, card)], the
    dealer's win of each round)."""
    ev, b = sim.replay_events(seed, game)
    fd = int(b.games[0, GF_FIRST_DEALER])
    w = int(b.games[0, GF_WINNER])
    won = 0.5 if w < 0 else float(w == fd)
    fd_deal = d_deal = 0
    fd_draw, d_draw = np.zeros(4), np.zeros(4)
    dealer_wins, rnd, draws, round_wins, turn = 0, -1, [], [], 0
    hands, n_rev, seen, dealer = [np.uint64(0)] * 2, [0, 0], np.uint64(0), 0
    rows = sim.ET.rows
    for e in ev:
        typ, s, a, b1, c, d = (int(x) for x in e)
        if typ == EV_ROUND_START:
            rnd += 1
            dealer = s
            hands = [np.uint64(b1 & MASK64), np.uint64(c & MASK64)]
            n_rev = [0, 0]
            seen = hands[0] + hands[1] + unit(a)
            dist = [shanten(h, 0, core) for h in hands]
            fd_deal += dist[1 - fd] - dist[fd]
            d_deal += dist[1 - dealer] - dist[dealer]
            rec = b.rounds[rnd]
            round_wins.append(int(rec[RF_OUTCOME] != OUT_DRAW and rec[RF_WINNER] == dealer))
            dealer_wins += round_wins[-1]
            turn = 0
        elif typ in (EV_DRAW, EV_DRAW_THREE):
            for x in ([a] if typ == EV_DRAW else [a, b1, c]):
                luck, dist = draw_luck(hands[s], n_rev[s], x, seen, core)
                draws.append((rnd, s == dealer, s == fd, shanten(hands[1 - s], n_rev[1 - s], core),
                              turn, candidates(hands[s], n_rev[s], seen, core), x))
                turn += 1
                bucket = min(max(dist, 0), 3)
                fd_draw[bucket] += luck if s == fd else -luck
                d_draw[bucket] += luck if s == dealer else -luck
                hands[s] = hands[s] + unit(x)
                seen = seen + unit(x)
        elif typ in (EV_KAI, EV_PON, EV_CHI):
            taken = [int(x) for x in rows[a]]
            if typ != EV_KAI:
                taken.remove(b1)     # the called card came from the other's discards
            for x in taken:
                hands[s] = hands[s] - unit(x)
            n_rev[s] += 1
        elif typ == EV_KAN:
            hands[s] = hands[s] - np.uint64(d & MASK64)
            n_rev[s] += 1
        elif typ == EV_DISCARD:
            hands[s] = hands[s] - unit(a)
    return won, dealer_wins, rnd + 1, fd_deal, fd_draw, d_deal, d_draw, draws, round_wins


def _cell(dist_after, other, turn):
    return min(max(dist_after, -1), 4) + 1, min(max(other, -1), 4) + 1, min(turn // 6, 7)


def round_win_luck(out):
    """Per game, the draw luck in units of a fitted round-win table: P(the dealer wins the
    round | the drawer's distance after the draw, the other's distance, the turn), fitted on the
    dealer's draws of the other half of the games (so each half's table is fixed for it) and
    evaluated for every card the drawer might have drawn. Returns (first dealer's sign, the
    dealer's sign), float[n] each."""
    tables = []
    for fold in (1, 0):   # the table fold f uses is fitted on the other fold
        num, den = np.zeros((6, 6, 8)), np.zeros((6, 6, 8))
        for g, o in enumerate(out):
            if g % 2 != fold:
                continue
            for rnd, is_dealer, _, other, turn, cand, card in o[7]:
                if is_dealer:
                    i = _cell(cand[card, 1], other, turn)
                    num[i] += o[8][rnd]
                    den[i] += 1
        tables.append((num + 1) / (den + 2))
    lf, ld = np.zeros(len(out)), np.zeros(len(out))
    for g, o in enumerate(out):
        t = tables[g % 2]
        for rnd, is_dealer, is_fd, other, turn, cand, card in o[7]:
            vals = np.array([t[_cell(cand[k, 1], other, turn)] for k in range(N_KINDS)])
            luck = vals[card] - (cand[:, 0] * vals).sum() / cand[:, 0].sum()
            lf[g] += luck if is_fd else -luck
            ld[g] += luck if is_dealer else -luck
    return lf, ld


def cross_fitted_factor(y, X):
    """var(y) / var(y - X b), b fitted by least squares on the other half (even/odd games)."""
    X1 = np.column_stack([X, np.ones(len(y))])
    res = np.empty_like(y, dtype=float)
    idx = np.arange(len(y))
    for fold in (0, 1):
        fit, use = idx % 2 != fold, idx % 2 == fold
        beta, *_ = np.linalg.lstsq(X1[fit], y[fit], rcond=None)
        res[use] = y[use] - X1[use] @ beta
    return float(np.var(y) / np.var(res))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="new_edition")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    fam, sc = families.load(args.scenario)
    sim = fam.simulator(sc)
    core = sim.T.core
    t0 = time.perf_counter()
    out = [game_controls(sim, args.seed, g, core) for g in range(args.games)]
    seconds = time.perf_counter() - t0
    won = np.array([o[0] for o in out])
    dwin, rounds = np.array([o[1] for o in out]), np.array([o[2] for o in out])
    rate = dwin.sum() / rounds.sum()
    u = dwin - rate * rounds          # the ratio's per-game linearised contribution
    print(f"{args.scenario}, {args.games} games (seed {args.seed}), replayed in {seconds:.1f} s")
    print(f"{'control':28s} {'first dealer win':>18s} {'dealer round win':>18s}")
    for name, j in (("deal", 3), ("draw", 4), ("draw by distance", 4), ("deal + draw by distance", 0),
                    ("draw in round-win units", -1)):
        if j == -1:
            xf, xd = (x[:, None] for x in round_win_luck(out))
        elif j == 0:
            xf = np.column_stack([[o[3] for o in out], [o[4] for o in out]])
            xd = np.column_stack([[o[5] for o in out], [o[6] for o in out]])
        elif name == "draw":
            xf = np.array([o[4].sum() for o in out])[:, None]
            xd = np.array([o[6].sum() for o in out])[:, None]
        elif name == "draw by distance":
            xf, xd = np.array([o[4] for o in out]), np.array([o[6] for o in out])
        else:
            xf = np.array([o[3] for o in out], float)[:, None]
            xd = np.array([o[5] for o in out], float)[:, None]
        print(f"{name:28s} {cross_fitted_factor(won, xf):17.2f}x {cross_fitted_factor(u, xd):17.2f}x")
    hand = np.uint64(0)
    for k in range(7):
        hand += unit(k * 5)
    draw_luck(hand, 0, 3, hand, core)
    n = 200000
    t = time.perf_counter()
    for _ in range(n // 1000):
        _many(hand, core, 1000)
    per_draw = (time.perf_counter() - t) / n * 1e6
    print(f"cost: {per_draw:.2f} us per draw-luck term (about 25 draws a round; value against "
          f"value plays a round in about 48 us on this machine)")


@nb.njit(cache=True)
def _many(hand, core, n):
    t = 0.0
    for i in range(n):
        t += draw_luck(hand, 0, i % 36, hand, core)[0]
    return t


if __name__ == "__main__":
    main()

"""Round-robin tournaments between policies in duplicate format (issue 9, item 6).

Every pair of entrants plays the same games twice, seats swapped, on the same seed: game i of seed s
starts from the same shuffle both times (later rounds share their shuffles as long as the two bots
draw the same random numbers), so luck of the deal largely cancels. A game counts 1 for its winner,
1/2 each for a drawn game.

Reported: the win-rate matrix (row beats column) with Wilson 95% intervals, and a Bradley-Terry
rating per entrant on the Elo scale (400 log10 odds, mean 0), fitted by maximum likelihood (Hunter's
MM iterations, one half win added to each side of every pair so that a 100% record stays finite),
with a 95% interval from the inverse Fisher information under the sum-zero constraint.

What this implementation simplifies: one process (no workers); the interval of a rating treats
games as independent (the paired duplicate games make it conservative).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .stats import Z95, wilson

ELO = 400.0 / math.log(10.0)


@dataclass
class Tournament:
    scenario: str
    entrants: list[str]          # entry strings as given (``value:call=0.8``)
    games_per_side: int          # games per ordered seating of each pair
    seed: int
    wins: np.ndarray             # float[n, n]: games row won against column (draws count 1/2)
    played: np.ndarray           # int[n, n]
    ratings: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        n = len(self.entrants)
        matrix = {a: {b: (wilson_half(self.wins[i, j], int(self.played[i, j]))
                          if i != j else None) for j, b in enumerate(self.entrants)}
                  for i, a in enumerate(self.entrants)}
        return {"scenario": self.scenario, "entrants": self.entrants,
                "games_per_pair": 2 * self.games_per_side, "seed": self.seed,
                "win_rate": matrix, "ratings": self.ratings,
                "format": "duplicate round robin: each pair plays every game twice, seats swapped",
                "n": n}


def wilson_half(wins: float, n: int) -> dict:
    """Wilson interval for a count that may hold halves (drawn games): rounded to whole games."""
    out = wilson(int(round(wins)), n)
    out["value"] = round(wins / n, 6) if n else None
    return out


def bradley_terry(wins: np.ndarray, played: np.ndarray, prior: float = 0.5, iters: int = 2000):
    """Ratings (Elo scale, mean 0) and their 95% half-widths from a win matrix.

    Parameters
    ----------
    wins : float[n, n], games row won against column. played : int[n, n], games between them.
    prior : wins added to each side of every pair that met (keeps perfect records finite).

    Returns
    -------
    (ratings float[n], half_width float[n])
    """
    n = wins.shape[0]
    met = played > 0
    w = np.where(met, wins + prior, 0.0)
    g = np.where(met, played + 2 * prior, 0.0)
    strength = np.ones(n)
    for _ in range(iters):  # Hunter (2004), MM update
        denom = np.array([sum(g[i, j] / (strength[i] + strength[j]) for j in range(n) if j != i)
                          for i in range(n)])
        new = w.sum(axis=1) / np.maximum(denom, 1e-300)
        new /= np.exp(np.mean(np.log(np.maximum(new, 1e-300))))
        if np.max(np.abs(new - strength)) < 1e-12:
            strength = new
            break
        strength = new
    theta = np.log(strength)
    theta -= theta.mean()
    # Fisher information of theta; the sum-zero constraint via the pseudo-inverse.
    info = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j and g[i, j] > 0:
                p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                v = g[i, j] * p * (1 - p)
                info[i, j] -= v
                info[i, i] += v
    cov = np.linalg.pinv(info)
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return theta * ELO, Z95 * se * ELO


def run_tournament(scenario, entrants: list[str], games: int, seed: int, progress=None) -> Tournament:
    """Play the duplicate round robin of ``entrants`` (``--players`` entries, one seat each) under
    ``scenario`` (a loaded :class:`Scenario`): ``games`` games per ordered seating of each pair."""
    from policies.players import parse_players, with_players
    from .momojan.engine import GF_WINNER
    from .momojan.simulate import Simulator

    seats = [parse_players(e, n_seats=1, option="--policies")[0] for e in entrants]
    n = len(entrants)
    wins = np.zeros((n, n))
    played = np.zeros((n, n), np.int64)
    idx = np.arange(games)
    for i in range(n):
        for j in range(i + 1, n):
            for a, b in ((i, j), (j, i)):
                sim = Simulator(with_players(scenario, [seats[a], seats[b]]))
                winner = sim.play(idx, seed=seed).games[:, GF_WINNER]
                wins[a, b] += np.sum(winner == 0) + 0.5 * np.sum(winner < 0)
                wins[b, a] += np.sum(winner == 1) + 0.5 * np.sum(winner < 0)
                played[a, b] += games
                played[b, a] += games
                if progress:
                    progress(entrants[a], entrants[b])
    t = Tournament(scenario.name, list(entrants), games, seed, wins, played)
    rating, half = bradley_terry(wins, played)
    order = np.argsort(-rating)
    t.ratings = [{"entrant": entrants[k], "rating": round(float(rating[k]), 1),
                  "ci": [round(float(rating[k] - half[k]), 1), round(float(rating[k] + half[k]), 1)]}
                 for k in order]
    return t


def tournament_table(t: Tournament) -> str:
    """The ratings, then the win-rate matrix (row's win rate against column, 95% interval)."""
    lines = [f"{t.scenario}: duplicate round robin, {2 * t.games_per_side} games per pair, seed {t.seed}",
             "", f"{'rating (Elo scale, 95% CI)':<34}"]
    for r in t.ratings:
        lines.append(f"  {r['entrant']:<24} {r['rating']:7.1f}  [{r['ci'][0]:7.1f}, {r['ci'][1]:7.1f}]")
    width = max(12, max(len(e) for e in t.entrants) + 2)
    lines += ["", "win rate of row against column:", " " * width
              + "".join(f"{e[:18]:>20}" for e in t.entrants)]
    for i, a in enumerate(t.entrants):
        cells = []
        for j in range(len(t.entrants)):
            if i == j:
                cells.append(f"{'-':>20}")
            else:
                w = wilson_half(t.wins[i, j], int(t.played[i, j]))
                cells.append(f"{w['value']:.3f} [{w['ci'][0]:.2f},{w['ci'][1]:.2f}]".rjust(20))
        lines.append(f"{a:<{width}}" + "".join(cells))
    return "\n".join(lines)

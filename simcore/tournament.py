"""Round-robin tournaments between policies in duplicate format, for 2 or 3 seats (issues 9, 13).

A tournament is a study (:func:`simcore.study.run_study`) whose variants are *seatings*: one
scenario per arrangement of entrants in the seats, all played on the same game indices from the
same seed, so game i starts from the same deal in every seating (later rounds share their deals
as long as the bots draw the same random numbers) and the luck of the deal largely cancels. Being
a study, it runs on the local pool or Ray (``--backend``), in chunks, with progress, a result
directory and ``--resume``, like ``run``.

Seatings (:func:`seatings`): with at least as many entrants as seats, every combination of
``n_seats`` entrants in *every permutation* (2 seats: both orders of each pair; 3 seats: all 6
orders of each triple, so each entrant sits both upstream and downstream of each other one, not
only in the 3 rotations); with 2 entrants in a 3-seat game, the 6 seatings in which both play
(one entrant twice: AAB, ABA, BAA, ABB, BAB, BBA).

Scores: row *finishes ahead of* column. Per game and pair of seats held by two different entrants
the family's catalogue gives ``seat{s}_ahead_of_seat{t}`` (6 ahead, 3 level, 0 behind, out of 6);
with 2 seats ``seat{s}_win_share`` (the game's winner is ahead; a tied game 1/2 each) serves.
Reported: the win-rate matrix (row's share of the comparisons against column, a level finish
counting 1/2) with Wilson 95% intervals, and a Bradley-Terry rating per entrant on the Elo scale
(400 log10 odds, mean 0), fitted by maximum likelihood (Hunter's MM iterations, one half win
added to each side of every pair so that a 100% record stays finite), with a 95% interval from
the inverse Fisher information under the sum-zero constraint.

What this implementation simplifies: the intervals treat every comparison as independent (the
duplicate games are positively related, which makes them conservative; with one entrant twice
at a 3-seat table, both of its comparisons with the other entrant in one game count); a chunk
keeps only the seat metrics (no histograms, example games or per-game tables), and its sums hold
no cross products between seatings (nothing reads them).
"""

from __future__ import annotations

import importlib
import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from .errors import InputError
from .stats import MomentSums, Z95, wilson

ELO = 400.0 / math.log(10.0)
SHARE = 6   # a seat metric's per-game denominator: 6 = the whole game (see simcore.families)


@dataclass
class Tournament:
    scenario: str
    entrants: list[str]          # entry strings as given (``value:call=0.8``)
    games_per_side: int          # games per seating (the study's games per variant)
    seed: int
    wins: np.ndarray             # float[n, n]: comparisons row finished ahead of column (level 1/2)
    played: np.ndarray           # int[n, n]: comparisons between row and column
    ratings: list[dict] = field(default_factory=list)
    n_seats: int = 2
    seatings: list = field(default_factory=list)   # tuples of entrant indices, seat by seat
    study: object = None         # the simcore.study.StudyResult played (seconds, workers)

    def to_json(self) -> dict:
        n = len(self.entrants)
        matrix = {a: {b: (wilson_half(self.wins[i, j], int(self.played[i, j]))
                          if i != j else None) for j, b in enumerate(self.entrants)}
                  for i, a in enumerate(self.entrants)}
        return {"scenario": self.scenario, "entrants": self.entrants, "n_seats": self.n_seats,
                "games_per_seating": self.games_per_side,
                "games_per_pair": int(self.played[0, 1]) if n > 1 else 0, "seed": self.seed,
                "seatings": [[self.entrants[i] for i in st] for st in self.seatings],
                "win_rate": matrix, "ratings": self.ratings,
                "format": format_text(self.n_seats, n), "n": n}


def format_text(n_seats: int, n_entrants: int) -> str:
    if n_seats == 2:
        return "duplicate round robin: each pair plays every game twice, seats swapped"
    if n_entrants < n_seats:
        return (f"duplicate, {n_seats} seats: every game in the 6 seatings where both entrants "
                f"play (one of them twice)")
    return (f"duplicate round robin, {n_seats} seats: each group of {n_seats} entrants plays "
            f"every game in all {math.factorial(n_seats)} seat orders")


def seatings(n_entrants: int, n_seats: int) -> list[tuple]:
    """The seatings of a tournament (tuples of entrant indices, seat 0 first): see the module
    docstring."""
    if n_entrants >= n_seats:
        return [p for combo in itertools.combinations(range(n_entrants), n_seats)
                for p in itertools.permutations(combo)]
    return [p for p in itertools.product(range(n_entrants), repeat=n_seats)
            if len(set(p)) == n_entrants]


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


# ---------------------------------------------------------------------------------------------
# The tournament as a study
# ---------------------------------------------------------------------------------------------

def seat_metrics(family, n_seats: int) -> list[str]:
    """The catalogue metrics a tournament of ``n_seats`` keeps: each seat's win share, the
    pairwise finishing order where the family has it (required for 3 seats), and the family's
    rounds metric (for rounds/s)."""
    from .families import seat_metric_names
    have = {m.name for m in family.CATALOGUE}
    keep = [n for n in seat_metric_names(n_seats) if n in have]
    missing = [n for n in seat_metric_names(n_seats) if n not in have
               and (n_seats > 2 or "_win_share" in n)]
    if missing:
        raise InputError(f"tournament: the {family.NAME} family's metric catalogue lacks "
                         f"{', '.join(missing)} (a {n_seats}-seat tournament needs them)")
    rounds = getattr(family, "ROUNDS_METRIC", None)
    if rounds in have and rounds not in keep:
        keep.append(rounds)
    return keep


class SeatingFamily:
    """A family as a tournament study sees it: the same scenarios, seats and YAML, a catalogue
    cut to :func:`seat_metrics`, and :func:`seating_chunk_stats` as the chunk function. A
    payload carries the family module and the kept metrics, so the chunk function needs nothing
    else (any worker, any backend)."""

    def __init__(self, family, n_seats: int):
        self.base = family
        self.n = n_seats
        self.keep = seat_metrics(family, n_seats)
        by = {m.name: m for m in family.CATALOGUE}
        self.CATALOGUE = tuple(by[k] for k in self.keep)
        self.chunk_stats = seating_chunk_stats

    def __getattr__(self, name):   # NAME, TITLE, seats, scenario_yaml, kernels_cached, ...
        return getattr(self.base, name)

    def payload(self, sc) -> dict:
        return {"family": self.base.__name__, "keep": list(self.keep),
                "scenario": self.base.payload(sc)}

    def from_payload(self, data: dict):
        return self.base.from_payload(data["scenario"])

    def rules_data(self, data: dict) -> dict:
        return self.base.rules_data(data["scenario"])

    def rounds_played(self, sums, v: int = 0) -> int:
        rounds = getattr(self.base, "ROUNDS_METRIC", None)
        if rounds not in self.keep:
            return 0
        return int(sums.s[self.keep.index(rounds), 2 * v])


def seating_chunk_stats(task):
    """The chunk function of a tournament: each seating played through its family's own chunk
    function (one variant per call) and cut to the kept metrics. Picklable (module level)."""
    from .study import ChunkResult, ChunkTask
    first = task.variants[0]
    fam = importlib.import_module(first["family"])
    names = [m.name for m in fam.CATALOGUE]
    idx = [names.index(k) for k in first["keep"]]
    k, m = len(idx), 2 * len(task.variants)
    s = np.zeros((k, m), np.int64)
    c = np.zeros((k, m, m), np.int64)
    for v, (data, seed) in enumerate(zip(task.variants, task.seeds)):
        res = fam.chunk_stats(ChunkTask((data["scenario"],), (seed,), task.start, task.stop,
                                        task.debug))
        s[:, 2 * v:2 * v + 2] = res.sums.s[idx]
        c[:, 2 * v:2 * v + 2, 2 * v:2 * v + 2] = res.sums.c[idx]
    return ChunkResult(task.start, task.stop, MomentSums(task.stop - task.start, s, c))


def chunk_games_for(n_seatings: int) -> int:
    """Games per chunk: about 2,000 games of all seatings together, at least 100 per seating."""
    from .study import CHUNK_GAMES
    return max(100, CHUNK_GAMES // max(1, n_seatings))


def check_entrants(family, entrants: list[str]) -> None:
    """Two or more distinct entrants whose policies the family knows (one line otherwise)."""
    import difflib
    if len(entrants) < 2:
        raise InputError("--policies: a tournament needs at least two entrants")
    if len(set(entrants)) != len(entrants):
        raise InputError("--policies: an entrant is listed twice")
    known = list(family.policy_names())
    for e in entrants:
        name = e.split(":")[0].strip()
        if name not in known:
            hint = difflib.get_close_matches(name, known, n=1)
            raise InputError(f"--policies: unknown policy {name!r}"
                             + (f" (did you mean {hint[0]!r}?)" if hint else
                                f" (known: {', '.join(known)})"))


def _family_for(scenario):
    from . import families
    path = getattr(scenario, "path", None)
    return families.family_of(path) if path else families.get(families.DEFAULT)


def prepare(family, scenario, entrants: list[str]):
    """(SeatingFamily, seatings, their scenarios, result-directory labels)."""
    check_entrants(family, entrants)
    n_seats = family.n_seats(scenario)
    if n_seats not in (2, 3):
        raise InputError(f"tournament: {scenario.name} has {n_seats} seats (2 or 3 supported)")
    view = SeatingFamily(family, n_seats)
    order = seatings(len(entrants), n_seats)
    scenarios, labels = [], []
    for st in order:
        seated = [entrants[i] for i in st]
        scenarios.append(family.with_players(scenario, ",".join(seated), "--policies"))
        labels.append((" / ".join(seated), {"seats": seated}))
    return view, order, scenarios, labels


def saved_scenario(family, path: str):
    """The scenario of a saved tournament's first seating (``--resume``)."""
    import os
    from .results import _read_json
    return family.from_payload(_read_json(os.path.join(path, "variants.json"),
                                          "--resume")[0]["scenario"])


def run_tournament(scenario, entrants: list[str], games: int, seed: int, progress=None, *,
                   family=None, workers: int = 1, notice=None, sink=None,
                   chunk_games: int | None = None, debug: bool = False) -> Tournament:
    """Play the duplicate tournament of ``entrants`` (``--players`` entries, one seat each)
    under ``scenario`` (a loaded scenario of ``family``; None: the scenario file's family):
    ``games`` games per seating.

    ``progress``, ``notice``, ``workers`` and the backend (``simcore.backends.use_runner``) are
    those of :func:`simcore.study.run_study`. ``sink``: None, or a callable
    ``sink(view, scenarios, labels, chunk_games)`` returning a result directory to stream to
    (:class:`simcore.results.ResultDir` created or reopened with ``view`` as its family).
    """
    from .study import run_study
    fam = family or _family_for(scenario)
    view, order, scenarios, labels = prepare(fam, scenario, entrants)
    chunk = chunk_games or chunk_games_for(len(order))
    rd = sink(view, scenarios, labels, chunk) if sink else None
    res = run_study(view, scenarios, seed, games, workers, paired=True, debug=debug,
                    progress=progress, notice=notice, chunk_games=chunk, sink=rd)
    t = from_sums(view, scenario.name, entrants, order, games, seed, res.sums)
    t.study = res
    return t


def from_sums(view, scenario_name, entrants, order, games, seed, sums) -> Tournament:
    """The win matrix and ratings from a tournament study's sums."""
    n = len(entrants)
    index = {k: j for j, k in enumerate(view.keep)}
    wins = np.zeros((n, n))
    played = np.zeros((n, n), np.int64)
    for v, st in enumerate(order):
        for s_, t_ in itertools.combinations(range(view.n), 2):
            a, b = st[s_], st[t_]
            if a == b:
                continue
            ahead = index.get(f"seat{s_}_ahead_of_seat{t_}")
            if ahead is not None:
                num, den = int(sums.s[ahead, 2 * v]), int(sums.s[ahead, 2 * v + 1])
                wins[a, b] += num / SHARE
                wins[b, a] += (den - num) / SHARE
            else:   # 2 seats: the game's winner finished ahead
                j0, j1 = index["seat0_win_share"], index["seat1_win_share"]
                den = int(sums.s[j0, 2 * v + 1])
                wins[a, b] += int(sums.s[j0, 2 * v]) / SHARE
                wins[b, a] += int(sums.s[j1, 2 * v]) / SHARE
            played[a, b] += den // SHARE
            played[b, a] += den // SHARE
    t = Tournament(scenario_name, list(entrants), games, seed, wins, played, n_seats=view.n,
                   seatings=list(order))
    rating, half = bradley_terry(wins, played)
    ranked = np.argsort(-rating)
    t.ratings = [{"entrant": entrants[k], "rating": round(float(rating[k]), 1),
                  "ci": [round(float(rating[k] - half[k]), 1), round(float(rating[k] + half[k]), 1)]}
                 for k in ranked]
    return t


def tournament_table(t) -> str:
    """The ratings, then the win-rate matrix (row's win rate against column, 95% interval), of
    a :class:`Tournament` or its JSON (:meth:`Tournament.to_json`, a saved summary.json)."""
    d = t.to_json() if isinstance(t, Tournament) else t
    names = d["entrants"]
    per_seating = d.get("games_per_seating", d.get("games_per_pair", 0) // 2)
    lines = [f"{d['scenario']}: {format_text(d.get('n_seats', 2), len(names))}; "
             f"{per_seating} games per seating ({len(d.get('seatings', [])) or '-'} seatings), "
             f"{d['games_per_pair']} comparisons per pair, seed {d['seed']}",
             "", f"{'rating (Elo scale, 95% CI)':<34}"]
    for r in d["ratings"]:
        lines.append(f"  {r['entrant']:<24} {r['rating']:7.1f}  "
                     f"[{r['ci'][0]:7.1f}, {r['ci'][1]:7.1f}]")
    width = max(12, max(len(e) for e in names) + 2)
    lines += ["", "win rate of row against column (finishing ahead; level = 1/2):", " " * width
              + "".join(f"{e[:18]:>20}" for e in names)]
    for a in names:
        cells = []
        for b in names:
            w = d["win_rate"][a][b]
            cells.append(f"{'-':>20}" if w is None or w["value"] is None else
                         f"{w['value']:.3f} [{w['ci'][0]:.2f},{w['ci'][1]:.2f}]".rjust(20))
        lines.append(f"{a:<{width}}" + "".join(cells))
    return "\n".join(lines)

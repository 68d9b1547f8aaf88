"""Round-robin tournaments between policies in duplicate format, for any seat count (issues 9, 13).

A tournament is a study (:func:`simcore.studies.study.run_study`) whose variants are *seatings*: one
scenario per arrangement of entrants in the seats, all played on the same game indices from the
same seed, so game i starts from the same deal in every seating (later rounds share their deals
as long as the bots draw the same random numbers) and the luck of the deal largely cancels. Being
a study, it runs on the local pool or Ray (``--backend``), in chunks, with progress, a result
directory and ``--resume``, like ``run``.

Seatings (:func:`seatings`): with at least as many entrants as seats, every combination of
``n_seats`` entrants in *every permutation* (2 seats: both orders of each pair; 3 seats: all 6
orders of each triple, so each entrant sits both upstream and downstream of each other one, not
only in the 3 rotations; 4 seats: all 24); with fewer entrants than seats, every seating in
which each entrant plays (2 entrants in a 3-seat game: AAB, ABA, BAA, ABB, BAB, BBA).

Scores: row *finishes ahead of* column. Per game and pair of seats held by two different entrants
the family's catalogue gives ``seat{s}_ahead_of_seat{t}`` (6 ahead, 3 level, 0 behind, out of 6;
every family has them for every pair of its seats, :func:`simcore.family.metrics.seat_metrics`).
Reported: the win-rate matrix (row's share of the comparisons against column, a level finish
counting 1/2) with Wilson 95% intervals, and a Bradley-Terry rating per entrant on the Elo scale
(400 log10 odds, mean 0), fitted by maximum likelihood (Hunter's MM iterations, one half win
added to each side of every pair so that a 100% record stays finite), with a 95% interval from
the inverse Fisher information under the sum-zero constraint.

The rating intervals are cluster-robust, the deal the cluster: the games of one deal are played
in every seating, so their comparisons are related (negatively across a seat swap, positively
for one entrant against two opponents, or for one entrant twice at a table), and an interval
that treats every comparison as independent covers 0.92 for one entrant and 0.97 for another.
The variance is the sandwich I^-1 B I^-1 (Huber 1967; White 1980): I the Fisher information of
the fit, B the sum over deals of the outer product of each deal's score vector. A deal's score
for an entrant is its finishes ahead in every comparison of that deal minus their expectation
under the fitted ratings; its sum and cross products stream as one extra row of the chunk sums
(:data:`DEAL_ROW`: per game, component 2e is entrant e's finishes ahead in sixths over all
seatings), so B is exact at any number of games and chunks.

What this implementation simplifies: a chunk keeps only the seat metrics (no histograms,
example games or per-game tables).
"""

from __future__ import annotations

import importlib
import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from simcore.errors import InputError
from simcore.family.chunks import chunk_stats
from simcore.family.metrics import Metric
from simcore.family.players import with_players
from simcore.stats.moments import MomentSums, Z95, wilson

ELO = 400.0 / math.log(10.0)
SHARE = 6   # an ahead-of metric's per-game denominator (simcore.family.metrics.seat_quantities)

# The last row of a tournament's sums: per game, component 2e = entrant e's finishes ahead (in
# sixths) over every comparison of every seating, 2e + 1 = those comparisons (x 6); entrants
# fill the first components (there are never more entrants than seatings), the rest stay 0.
DEAL_METRIC = Metric("deal_finishes_ahead", "game_rate", "(tournament)", "(tournament)",
                     "per entrant, finishes ahead over every comparison of a deal "
                     "(the cluster of the rating intervals)", 0.01)


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
    study: object = None         # the simcore.studies.study.StudyResult played (seconds, workers)

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
        k = len(seatings(n_entrants, n_seats))
        return (f"duplicate, {n_seats} seats: every game in the {k} seatings where all "
                f"{n_entrants} entrants play (some of them twice)")
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


def bradley_terry(wins: np.ndarray, played: np.ndarray, prior: float = 0.5, iters: int = 2000,
                  score_cov=None):
    """Ratings (Elo scale, mean 0) and their 95% half-widths from a win matrix.

    Parameters
    ----------
    wins : float[n, n], games row won against column. played : int[n, n], games between them.
    prior : wins added to each side of every pair that met (keeps perfect records finite).
    score_cov : None, or ``f(p) -> float[n, n]``: B, the sum over clusters of each cluster's
        score outer product given the fitted win probabilities ``p[i, j]``; the interval is
        then the sandwich's (cluster-robust), else the inverse information's (independent
        comparisons).

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
    if score_cov is not None:
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
        cov = cov @ score_cov(p) @ cov
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return theta * ELO, Z95 * se * ELO


# ---------------------------------------------------------------------------------------------
# The tournament as a study
# ---------------------------------------------------------------------------------------------

def seat_metrics(family, n_seats: int) -> list[str]:
    """The catalogue metrics a tournament of ``n_seats`` keeps: the pairwise finishing order of
    every pair of seats, and the family's rounds metric (for rounds/s)."""
    have = {m.name for m in family.CATALOGUE}
    keep = [f"seat{s}_ahead_of_seat{t}" for s, t in itertools.combinations(range(n_seats), 2)]
    missing = [n for n in keep if n not in have]
    if missing:
        raise InputError(f"tournament: the {family.NAME} family's metric catalogue lacks "
                         f"{', '.join(missing)} (a {n_seats}-seat tournament needs them)")
    rounds = family.ROUNDS_METRIC
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
        self.CATALOGUE = tuple(by[k] for k in self.keep) + (DEAL_METRIC,)
        self.SCENARIOS = SeatingScenarios(self)
        self.seating_of: dict = {}    # id(scenario) -> (entrant index per seat, entrants)

    def __getattr__(self, name):   # NAME, TITLE, SIMULATOR, scenario_yaml, ...
        return getattr(self.base, name)


class SeatingScenarios:
    """The family's scenario loader as a tournament sees it: a payload carries the family
    module, the kept metrics and the seating with the scenario's own payload."""

    def __init__(self, view: SeatingFamily):
        self.view = view

    def __getattr__(self, name):   # load, from_dict, with_overrides, RUNNER_KEYS, ...
        return getattr(self.view.base.SCENARIOS, name)

    def payload(self, sc) -> dict:
        view = self.view
        seating, n_entrants = view.seating_of[id(sc)]
        return {"family": type(view.base).__module__, "keep": list(view.keep),
                "seating": list(seating), "entrants": n_entrants,
                "scenario": view.base.SCENARIOS.payload(sc)}

    def from_payload(self, data: dict):
        return self.view.base.SCENARIOS.from_payload(data["scenario"])

    def rules_data(self, data: dict) -> dict:
        return self.view.base.SCENARIOS.rules_data(data["scenario"])


def seating_chunk_stats(task):
    """The chunk function of a tournament: each seating played through its family's own chunk
    function (one variant per call), cut to the kept metrics, and the deal row (each entrant's
    finishes ahead per game, over every seating). Picklable (module level)."""
    from simcore.family.chunks import ChunkResult, ChunkTask
    first = task.variants[0]
    fam = importlib.import_module(first["family"]).FAMILY
    names = [m.name for m in fam.CATALOGUE]
    keep = first["keep"]
    idx = [names.index(k) for k in keep]
    n_games, n_var = task.stop - task.start, len(task.variants)
    z = np.zeros((n_games, len(keep) + 1, 2 * n_var), np.int64)
    seconds = 0.0   # of play, every seating's: the result's steady rounds/s
    for v, (data, seed) in enumerate(zip(task.variants, task.seeds)):
        res = chunk_stats(fam, ChunkTask((data["scenario"],), (seed,), task.start, task.stop,
                                        task.debug, values=True))
        seconds += res.seconds
        z[:, :len(keep), 2 * v:2 * v + 2] = res.values[:, idx, :]
        for e, _, col, sign, const in _deal_parts(keep, data["seating"]):
            z[:, -1, 2 * e] += sign * z[:, col, 2 * v] + const
            z[:, -1, 2 * e + 1] += SHARE
    return ChunkResult(task.start, task.stop, MomentSums.from_values(z), worker=res.worker,
                       seconds=seconds)


def _deal_parts(keep, seating):
    """(entrant, opponent, kept metric, sign, constant) for every comparison between two
    different entrants in a seating: the entrant's finishes ahead of the opponent out of 6 are
    sign * the metric's numerator + constant."""
    index = {k: j for j, k in enumerate(keep)}
    n = len(seating)
    for s_, t_ in itertools.combinations(range(n), 2):
        a, b = seating[s_], seating[t_]
        if a == b:
            continue
        ahead = index[f"seat{s_}_ahead_of_seat{t_}"]
        yield a, b, ahead, 1, 0
        yield b, a, ahead, -1, SHARE


def chunk_games_for(n_seatings: int, scenarios=()) -> int:
    """Games per chunk: about 2,000 games of all seatings together, at least 100 per seating;
    with a ``search`` seat in ``scenarios`` (the seatings) about 16, at least 2 per seating."""
    from simcore.family import chunks
    if chunks.searches(scenarios):
        return max(2, chunks.SEARCH_CHUNK_GAMES // max(1, n_seatings))
    return max(100, chunks.CHUNK_GAMES // max(1, n_seatings))


def check_entrants(family, entrants: list[str]) -> None:
    """Two or more distinct entrants whose policies the family knows (one line otherwise)."""
    import difflib
    if len(entrants) < 2:
        raise InputError("--policies: a tournament needs at least two entrants")
    if len(set(entrants)) != len(entrants):
        raise InputError("--policies: an entrant is listed twice")
    known = list(list(family.POLICIES.names))
    for e in entrants:
        name = e.split(":")[0].strip()
        if name not in known:
            hint = difflib.get_close_matches(name, known, n=1)
            raise InputError(f"--policies: unknown policy {name!r}"
                             + (f" (did you mean {hint[0]!r}?)" if hint else
                                f" (known: {', '.join(known)})"))


def _family_for(scenario):
    from simcore.family import registry as families
    path = getattr(scenario, "path", None)
    return families.family_of(path) if path else families.get(families.DEFAULT)


def prepare(family, scenario, entrants: list[str]):
    """(SeatingFamily, seatings, their scenarios, result-directory labels)."""
    check_entrants(family, entrants)
    n_seats = len(scenario["players"])
    if n_seats < 2:
        raise InputError(f"tournament: {scenario.name} has {n_seats} seat (2 or more needed)")
    view = SeatingFamily(family, n_seats)
    order = seatings(len(entrants), n_seats)
    scenarios, labels = [], []
    for st in order:
        seated = [entrants[i] for i in st]
        sc = with_players(family, scenario, ",".join(seated), "--policies")
        view.seating_of[id(sc)] = (tuple(st), len(entrants))
        scenarios.append(sc)
        labels.append((" / ".join(seated), {"seats": seated}))
    return view, order, scenarios, labels


def saved_scenario(family, path: str):
    """The scenario of a saved tournament's first seating (``--resume``)."""
    import os
    from simcore.studies.results import _read_json
    return family.SCENARIOS.from_payload(_read_json(os.path.join(path, "variants.json"),
                                          "--resume")[0]["scenario"])


def new_tournament_dir(scenario, entrants, games: int, seed: int, workers: int,
                       out: str | None = None):
    """The ``sink`` of :func:`run_tournament` that saves into a new result directory (``out``,
    checked now; made when play starts, named after the scenario by default)."""
    from simcore.studies.results import ResultDir, check_default_root, check_out_dir, default_dir
    if out:
        check_out_dir(out)
    else:   # the default results folder: usable before anything is played (issue 46)
        check_default_root()

    def sink(view, scenarios, labels, chunk_games):
        opts = {"policies": list(entrants), "chunk_games": chunk_games}
        rd = ResultDir.create(out or default_dir(f"tournament-{scenario.name}"), view,
                              "tournament", scenarios, seed, games, opts, workers, labels)
        rd.records = False   # the seat metrics only: no per-game tables
        return rd
    return sink


def reopen_tournament(path: str):
    """An interrupted tournament's ``(family, scenario, entrants, games, seed, chunk games,
    sink)`` for :func:`run_tournament` (every saved file checked against its hashes)."""
    from simcore.family import registry as families
    from simcore.studies.results import ResultDir, read_provenance
    prov = read_provenance(path, "--resume")
    fam = families.of_result(prov)
    rd = ResultDir.reopen(path, fam, "tournament")
    sc = saved_scenario(fam, path)   # its first seating: the seats are replaced anyway

    def sink(view, scenarios, labels, chunk_games):
        rd.family = view
        rd.records = False
        return rd
    return (fam, sc, prov["options"]["policies"], prov["games"], prov["seed"],
            prov["options"].get("chunk_games"), sink)


def run_tournament(scenario, entrants: list[str], games: int, seed: int, progress=None, *,
                   family=None, workers: int = 1, notice=None, sink=None,
                   chunk_games: int | None = None, debug: bool = False) -> Tournament:
    """Play the duplicate tournament of ``entrants`` (``--players`` entries, one seat each)
    under ``scenario`` (a loaded scenario of ``family``; None: the scenario file's family):
    ``games`` games per seating.

    ``progress``, ``notice``, ``workers`` and the backend (``simcore.runners.use_runner``) are
    those of :func:`simcore.studies.study.run_study`. ``sink``: None, or a callable
    ``sink(view, scenarios, labels, chunk_games)`` returning a result directory to stream to
    (:class:`simcore.studies.results.ResultDir` created or reopened with ``view`` as its family).
    """
    from simcore.studies.study import run_study
    fam = family or _family_for(scenario)
    view, order, scenarios, labels = prepare(fam, scenario, entrants)
    chunk = chunk_games or chunk_games_for(len(order), scenarios)
    rd = sink(view, scenarios, labels, chunk) if sink else None
    res = run_study(view, scenarios, seed, games, workers, paired=True, debug=debug,
                    chunk_fn=seating_chunk_stats,
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
            ahead = index[f"seat{s_}_ahead_of_seat{t_}"]
            num, den = int(sums.s[ahead, 2 * v]), int(sums.s[ahead, 2 * v + 1])
            wins[a, b] += num / SHARE
            wins[b, a] += (den - num) / SHARE
            played[a, b] += den // SHARE
            played[b, a] += den // SHARE
    t = Tournament(scenario_name, list(entrants), games, seed, wins, played, n_seats=view.n,
                   seatings=list(order))
    rating, half = bradley_terry(wins, played,
                                 score_cov=lambda p: deal_score_cov(view, order, sums, p, n))
    ranked = np.argsort(-rating)
    t.ratings = [{"entrant": entrants[k], "rating": round(float(rating[k]), 1),
                  "ci": [round(float(rating[k] - half[k]), 1), round(float(rating[k] + half[k]), 1)]}
                 for k in ranked]
    for r, k in zip(t.ratings, ranked):
        won, total = float(wins[k].sum()), float(played[k].sum())
        if total and won in (0.0, total):
            # no win (or no loss) at all: the likelihood has no finite maximum; the half win
            # of the prior sets the number, and its interval does not hold
            r["separated"] = "no win" if won == 0 else "no loss"
    return t


def deal_score_cov(view, order, sums, p, n: int) -> np.ndarray:
    """B of the sandwich: the sum over deals of each deal's score outer product, in wins, from
    the deal row's sums and cross products (exact integers) and the fitted probabilities
    ``p[i, j]`` that i finishes ahead of j. A deal's score for entrant e is a_e - E_e: its
    finishes ahead over the deal's comparisons, less their expectation (the same in every deal:
    every deal is played in every seating)."""
    j = len(view.keep)
    expected = np.zeros(n)
    for st in order:
        for e, opponent, _, _, _ in _deal_parts(view.keep, st):
            expected[e] += SHARE * p[e, opponent]
    S = np.array([float(sums.s[j, 2 * e]) for e in range(n)])
    C = np.array([[float(sums.c[j, 2 * e, 2 * f]) for f in range(n)] for e in range(n)])
    N = float(sums.n)
    B = C - np.outer(expected, S) - np.outer(S, expected) + N * np.outer(expected, expected)
    return B / (SHARE * SHARE)


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
                     f"[{r['ci'][0]:7.1f}, {r['ci'][1]:7.1f}]"
                     + (f"  ({r['separated']} in any comparison: it is only known to be "
                        f"{'below' if r['separated'] == 'no win' else 'above'} the others; the "
                        f"number comes from a half-win prior and no interval holds)"
                        if r.get("separated") else ""))
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

"""``compare DIR_A DIR_B``: two saved ``run`` results compared without playing a game.

Paired when both played the same games from the same seed *and* kept their per-round records
(``run --records``): the per-game metric values of both are recomputed from the saved per-game
and per-round tables, chunk by chunk, and merged into the same paired sums a live ``compare``
streams (so the interval uses the game-by-game covariance). The per-chunk sums alone cannot pair
two runs (they hold each run's own cross products, not the products across runs). Otherwise the
comparison is independent: each run's saved sums, no covariance, and it says so.
"""

from __future__ import annotations

import os

import numpy as np

from simcore.errors import InputError, a_, shell_word
from simcore.family.tables import luck_from_tables, values_from_tables
from simcore.stats.moments import MomentSums
from simcore.studies.results import _parts, load, read_provenance, saved_sums, verify_files


def _check(path):
    prov = read_provenance(path, "compare")
    if prov["kind"] != "run":
        raise InputError(f"compare {path}: a {prov['kind']} result; compare takes two run "
                         f"results (or two scenarios)")
    if prov["status"] != "complete":
        raise InputError(f"compare {path}: incomplete (finish it with momojan-sim run "
                         f"--resume {shell_word(path)})")
    verify_files(path, prov, "compare")
    return prov


def _scenario(fam, path):
    """The resolved scenario a saved run played (None: an older result without variants.json)."""
    from simcore.studies.results import _read_json
    vp = os.path.join(path, "variants.json")
    if not os.path.isfile(vp):
        return None
    return fam.SCENARIOS.from_payload(_read_json(vp, "compare")[0])


def _paired_sums(fam, a, b):
    import pyarrow.parquet as pq
    pa_ = {s: p for s, p in _parts(os.path.join(a, "games"))}
    parts = []
    for sub in ("games", "rounds"):
        for d in (a, b):
            parts.append({s: p for s, p in _parts(os.path.join(d, sub))})
    starts = sorted(pa_)
    if any(sorted(p) != starts for p in parts):
        return None
    total = None
    for s in starts:
        tables = [pq.read_table(p[s]) for p in parts]
        cols = [{n: t.column(n).to_numpy() for n in t.column_names} for t in tables]
        ga, gb, ra, rb = cols
        num_a, den_a = values_from_tables(fam, ga, ra)
        num_b, den_b = values_from_tables(fam, gb, rb)
        z = np.stack([num_a, den_a, num_b, den_b], axis=2)
        la, lb = luck_from_tables(fam, ga, ra), luck_from_tables(fam, gb, rb)
        luck = None
        if la is not None and lb is not None:   # the per-round records hold the draws' luck
            from simcore.stats.luck_sums import LuckSums
            luck = LuckSums.from_values(ga["game"], z, np.concatenate([la, lb], axis=1),
                                        fam.LUCK_CONTROLS)
        m = MomentSums.from_values(z, luck)
        total = m if total is None else total.merge(m)
    return total


def _independent_sums(sa: MomentSums, sb: MomentSums) -> MomentSums:
    """Both runs' sums side by side with no cross products (independent variants). With unequal
    game counts the delta method's n/(n-1) factor uses the smaller count (a relative difference
    below 1/n)."""
    k = sa.s.shape[0]
    wide = sa.c.dtype == object or sb.c.dtype == object   # sums kept in Python integers
    c = np.zeros((k, 4, 4), object if wide else np.int64)
    c[:, :2, :2], c[:, 2:, 2:] = sa.c, sb.c
    return MomentSums(min(sa.n, sb.n), np.concatenate([sa.s, sb.s], axis=1), c)


class _Result:
    """Two saved runs compared: ``games`` and ``seed`` are run a's, ``games_b`` and ``seed_b``
    run b's (independent runs may differ in both: a QA trial found the header giving a's
    count and seed for both)."""

    def __init__(self, names, runs, sums, paired, reached=None):
        (self.games, self.seed), (self.games_b, self.seed_b) = runs
        self.names, self.sums, self.paired = names, sums, paired
        self.reached = reached or {}


def compare_saved(fam, dir_a, dir_b, alpha, metrics_spec, margins):
    """Compare two saved run results; ``fam``: their game family (None: the one their
    provenance.json names; two families are one line)."""
    from simcore.family.registry import DEFAULT, of_result
    from simcore.studies.compare import (compare_rows, comparison_json, comparison_text, parse_margins, scenario_pair_rows, seats_present, select_metrics)
    pa, pb = _check(dir_a), _check(dir_b)
    fa, fb = pa.get("family", DEFAULT), pb.get("family", DEFAULT)
    if fa != fb:
        raise InputError(f"compare: {dir_a} is {a_(fa)} result and {dir_b} {a_(fb)} one; compare "
                         f"needs results of one game family")
    fam = fam or of_result(pa)
    names = select_metrics(metrics_spec, fam.CATALOGUE)
    seats = pa["variants"][0].get("seats")
    seats_b = pb["variants"][0].get("seats")
    if not metrics_spec and isinstance(seats, list) and seats and isinstance(seats_b, list):
        # as a live compare: the seats both games have
        names = seats_present(names, min(len(seats), len(seats_b)))
    margin = parse_margins(margins, fam.CATALOGUE)
    same = pa["seed"] == pb["seed"] and pa["games_played"] == pb["games_played"]
    sums = None
    if same and pa["options"].get("records") and pb["options"].get("records"):
        sums = _paired_sums(fam, dir_a, dir_b)
    if sums is not None:
        how = (f"paired: the same seed ({pa['seed']}) and games, per-game values from the saved "
               f"per-game and per-round tables")
    else:
        sa, sb = saved_sums(dir_a), saved_sums(dir_b)
        if sa is None or sb is None:
            raise InputError(f"compare: {dir_a if sa is None else dir_b} holds no saved chunks")
        sums = _independent_sums(sa, sb)
        why = ("different seeds or game counts" if not same else
               "the per-round records were not saved (run both with --records to pair them)")
        how = f"independent ({why})"
    na, nb = pa["variants"][0]["name"], pb["variants"][0]["name"]
    from simcore.stats.luck import corrected, enabled
    if enabled():
        sums = corrected(sums, how.startswith("paired"))
    res = _Result([na, nb], [(p["games_played"], p["seed"]) for p in (pa, pb)], sums,
                  how.startswith("paired"))
    sc_a, sc_b = _scenario(fam, dir_a), _scenario(fam, dir_b)
    if sc_a is not None and sc_b is not None:
        from simcore.family.scenario.diff import rules_differ
        differ = rules_differ(fam, sc_a, sc_b)
        rows, off = scenario_pair_rows(fam, sums, sc_a, sc_b, names, margin, alpha,
                                       paired=res.paired)
    else:   # an older result without variants.json: its seats from provenance.json
        differ, off = None, []
        n_seats = len(seats) if isinstance(seats, list) and seats and \
            isinstance(seats_b, list) and len(seats_b) == len(seats) else None
        rows = compare_rows(fam.CATALOGUE, sums, [(0, 1)], names, margin, alpha,
                            paired=res.paired, n_seats=n_seats)
    data = comparison_json(res, rows, alpha, differ, off, fam.CATALOGUE)
    data.update({"saved": [dir_a, dir_b], "pairing": how,
                 "games_a": pa["games_played"], "games_b": pb["games_played"]})
    text = (f"saved results {dir_a} (a) and {dir_b} (b): {how}\n"
            + comparison_text(res, rows, fam.CATALOGUE, alpha, differ, off))
    return text, data

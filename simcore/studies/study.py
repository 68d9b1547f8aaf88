"""Playing variants on common game indices and streaming their statistics (any game family).

A *study* is one or more variants of a scenario (``run``: one; ``compare``: two; ``sweep``: the
base and its grid) played on the same game indices 0, 1, 2, ... Games are cut into chunks of
fixed indices; a family's pure chunk function turns a :class:`ChunkTask` into the chunk's
:class:`simcore.stats.moments.MomentSums`, and the sums are merged in chunk order (they are integers, so
the order does not even matter). Nothing here knows which game is played: the family supplies
``CATALOGUE`` (its metrics), ``chunk_stats`` (the chunk function, a picklable top-level
function) and ``payload(scenario)`` (the picklable data a worker rebuilds the scenario from).

Common random numbers: with ``paired=True`` every variant gets the same seed, so game i of each
variant draws from the same (seed, i) randomness; ``paired=False`` gives variant v an
independent seed (the calibration of the tests, and what independent runs would do).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from simcore.family.chunks import ChunkTask, all_search, chunk_games_for, searches
from simcore.runners import selected_runner
from simcore.runners.local import clamp_workers, usable_cores
from simcore.stats.moments import MomentSums, Z95, difference, games_for_half_width, ratio
import functools
from simcore.family.chunks import chunk_stats
from simcore.family.compiling import compile_helpers_for_run, has_compile_plan, kernels_cached

def variant_seed(seed: int, v: int, paired: bool) -> int:
    """The base seed of variant ``v``: the study's seed when paired, else an independent one."""
    if paired or v == 0:
        return seed
    return int(np.random.SeedSequence([seed, v]).generate_state(1, np.uint64)[0])


@dataclass
class Target:
    """Stop once the half-width of the headline metric (a difference, for two or more
    variants: the widest of variant v minus variant 0) is at most ``half_width``."""

    metric: str
    half_width: float
    # The half-width to watch instead of the metric's, from the merged sums (``solve``: the
    # solution's interval); its ``what`` names it in the stopping record.
    measure: object = None
    what: str | None = None


@dataclass
class StudyResult:
    names: list
    seed: int
    sums: MomentSums
    paired: bool
    workers: int
    seconds: float
    target: Target | None = None
    reached: dict = field(default_factory=dict)
    extras: object = None    # the chunks' extras merged (simcore.studies.results.Extras)

    @property
    def games(self) -> int:
        return self.sums.n


def headline_half_width(catalogue, sums: MomentSums, metric: str, paired: bool = True,
                        z: float = Z95) -> float:
    """Half-width of ``metric``'s 95% interval: the value's for one variant, the widest
    difference's (variant v minus variant 0) for more."""
    j = [m.name for m in catalogue].index(metric)
    if sums.variants == 1:
        r = ratio(sums, j)
        return z * r.se if r.se is not None else float("inf")
    widths = []
    for v in range(1, sums.variants):
        d = difference(sums, j, 0, v, paired)
        widths.append(z * d.se if d.se is not None else float("inf"))
    return max(widths)


def next_stop(n: int, hw: float, half_width: float, step: int, cap: int) -> int:
    """Where the next batch of a ``--target-ci`` study ends: ``n`` games played, their half-width
    ``hw``, the target ``half_width``; a multiple of ``step`` (the chunk size), at most ``cap``.

    The half-width shrinks as 1/sqrt(games), so the current one predicts the games the target
    needs; the prediction's error is the variance estimate's, about sqrt(2/n) of it for a metric
    with light tails. The batch aims two of those past the prediction (2.8% at 10,000 games, 20%
    at 200): measured on the README's compare (old vs new edition to +-0.2 pp), eight pilots of
    10,000 games predicted 389,000-402,000 games, and 430,000 gave a half-width of 0.00191, so
    392,000 were enough; aiming 10% past, as before, played 430,000. Short of the target, the
    next batch adds at least a twentieth (never a stream of tiny batches). No infinite width yet:
    double. Nothing here reads the worker count, so the games played, hence every number, are
    the same on any number of workers."""
    if math.isfinite(hw):
        aim = 1.0 + 2.0 * math.sqrt(2.0 / max(n, 1))
        need = int(games_for_half_width(hw / Z95, n, half_width) * aim)
    else:
        need = 2 * n
    stop = min(cap, max(need, n + max(step, n // 20)))
    return min(cap, -(-stop // step) * step)


def _replayed_stop(chunks, first: int, cap: int, step: int, target: float, half_width) -> int:
    """The stop of the batch a ``--target-ci`` study's saved chunks (``[(stop, sums), ...]`` in
    order, from game 0) belong to, replayed as the study chose its batches: the first ends at
    ``first``, and each following one where :func:`next_stop` put it from the games before it
    (``half_width(sums)`` gives the half-width the study watched). A resume takes this, not
    provenance.json's record of it, which a hand edit could change (a QA trial: 60,000 written
    over 14,000 gave a resumed run other numbers than an uninterrupted one)."""
    stop, merged = first, None
    for end, sums in chunks:
        merged = sums if merged is None else merged.merge(sums)
        if end == stop:
            hw = half_width(merged)[0]
            if hw <= target or end >= cap:
                return stop     # the study ended here (its last batch was saved whole)
            stop = next_stop(end, hw, target, step, cap)
    return stop


def _cold_share(family, requested: int) -> bool:
    """Whether a helper process should compile part of a cold start's kernels: the numba cache
    is cold, the family has a plan, the user did not ask for one worker and there is a second
    core. One local worker then compiles the kernel's helpers last-needed first (the family's
    ``compile_helpers``, :mod:`simcore.nb.compile_plan`) while another compiles the kernel for the
    first chunk and loads those helpers from the cache as it reaches them; the helper's worker
    then waits for that kernel in the cache rather than compile it too
    (:func:`simcore.family.compiling.compile_helpers_for_run`)."""
    if not has_compile_plan(family):
        return False
    if requested == 1 or usable_cores() < 2:
        return False
    return not kernels_cached(family)


def run_study(family, scenarios, seed: int, games: int, workers: int = 0, *, paired: bool = True,
              target: Target | None = None, max_games: int | None = None, debug: bool = False,
              progress=None, notice=None, chunk_games: int | None = None,
              sink=None, runner=None, luck: bool | None = None,
              chunk_fn=None) -> StudyResult:
    """Play ``games`` games of every variant (or, with ``target``, batches until the target
    half-width or ``max_games``) and return the merged sums.

    ``progress(games_done, games_planned, chunk_result)`` is called after every chunk; ``notice(text)`` gets
    one-line remarks for the user (a lowered worker count).

    ``chunk_fn(task)`` plays a chunk (default: the family's, :func:`simcore.family.chunks.chunk_stats`;
    a tournament gives its own, which plays each seating).

    ``sink`` (a :class:`simcore.studies.results.ResultDir`, or anything with the same methods) keeps
    the study on disk: ``sink.resume_point()`` gives the sums of the chunks already saved and
    the stop of the batch they belong to (a resumed run continues exactly where the saved one
    was, so its numbers are those of an uninterrupted run); every finished chunk goes to
    ``sink.chunk_done(result)`` in chunk order, each new batch's stop to ``sink.batch(stop)``;
    ``sink.records`` / ``sink.round_records`` ask the workers for the records.

    With ``luck`` (None: unless a command's ``--no-luck-correction`` switched it off) and a
    family that measures luck, the result's sums and the half-widths a target watches are
    luck-corrected (:func:`simcore.stats.luck.corrected`); the plain sums stay in
    ``result.sums.raw``.
    """
    from simcore.stats.luck import corrected, enabled
    luck = enabled() if luck is None else luck
    # games per chunk: the saved study's own (its batch stops are multiples of it), else the
    # scenarios' (a search seat plays small chunks: simcore.family.chunks.chunk_games_for)
    chunk_games = (chunk_games or (sink is not None and getattr(sink, "prov", {}).get(
        "chunk_games")) or chunk_games_for(scenarios))

    def view(merged):
        return corrected(merged, paired) if luck else merged
    payloads = tuple(family.SCENARIOS.payload(sc) for sc in scenarios)
    seeds = tuple(variant_seed(seed, v, paired) for v in range(len(scenarios)))
    cap = max(games, max_games or games) if target else games
    n_workers, note = clamp_workers(workers, -(-cap // chunk_games))
    if note and notice:
        notice(note)
    k = len(family.CATALOGUE)
    sums = MomentSums.empty(k, 2 * len(scenarios))
    reached = {}
    t0 = time.perf_counter()
    stop = min(games, cap)
    # the chunk function: the family's (a tournament's plays each seating)
    chunk_fn = chunk_fn or functools.partial(chunk_stats, family)
    records = bool(sink and sink.records)
    round_records = bool(sink and sink.round_records)
    def half_width(merged):
        """(the target's half-width on ``merged``, the view it was measured on)."""
        seen = view(merged)
        return (target.measure(seen) if target.measure is not None
                else headline_half_width(family.CATALOGUE, seen, target.metric, paired)), seen

    if sink is not None:
        saved, saved_stop = sink.resume_point()
        if saved is not None:
            # a batch ends between the first batch and the cap, never before the games saved
            # (provenance.json's batch_stop is outside its hash: a hand edit lands here)
            low = max(saved.n, stop)
            where = getattr(sink, "path", "")
            if saved_stop is not None and not low <= saved_stop <= cap:
                from simcore.errors import InputError
                raise InputError(f"--resume {where}: provenance.json: batch_stop is "
                                 f"{saved_stop:,}, outside {low:,}..{cap:,} (damaged)")
            chunks = getattr(sink, "saved_chunk_sums", None)
            if target is not None and chunks is not None:
                # the batches are a function of the games: replay them from the saved chunks
                implied = _replayed_stop(chunks, stop, cap, chunk_games, target.half_width,
                                         half_width)
                if saved_stop is not None and saved_stop != implied:
                    from simcore.errors import InputError
                    raise InputError(f"--resume {where}: provenance.json: batch_stop is "
                                     f"{saved_stop:,}, but its saved games end their batch at "
                                     f"{implied:,} (damaged)")
                saved_stop = implied
            sums = saved
            stop = saved_stop or stop
        else:
            sink.batch(stop)
    # runner: a factory like ChunkRunner (simcore.runners); None = the one --backend selected.
    from simcore.studies.results import Extras
    extras = sink.extras if sink is not None else Extras()
    factory = runner or selected_runner()
    if searches(scenarios) and getattr(family, "SEARCH_KERNEL", ""):
        from simcore.family.compiling import compile_search
        compile_search(family, notice or (lambda text: None), ticks=False)
    # a study whose every variant searches plays the search kernel alone (compiled above):
    # the policies' kernel's helpers are not worth a core
    share = not all_search(scenarios) and _cold_share(family, workers)
    # A run of one chunk gets the helper too when its runner is known to take jobs (local
    # processes): the helper plays nothing, so the numbers stay those of the chunk.
    pool = max(n_workers, 2) if share and hasattr(factory, "start_job") else n_workers
    if pool > 1 and not share and getattr(factory, "forks_workers", False):
        # A chunk of no games builds every variant's simulator here (tables, kernels loaded
        # from the cache), and the forked workers inherit them: each built its own before,
        # 1.3 s of CPU per worker for a MOMOJAN scenario. Its result is dropped.
        chunk_fn(ChunkTask(payloads, seeds, 0, 0, debug, records, round_records))
    with factory(pool) as runner:
        if share and pool >= 2 and hasattr(runner, "start_job"):
            runner.start_job(pool - 1, functools.partial(compile_helpers_for_run, family))
        while True:
            # Lazy: the runners draw tasks as workers free up (memory does not grow with games).
            tasks = (ChunkTask(payloads, seeds, s, min(s + chunk_games, stop), debug, records,
                               round_records)
                     for s in range(sums.n, stop, chunk_games))

            def tick(task, res, planned=stop):
                if progress:
                    progress(task.stop, planned, res)

            for res in runner.map(chunk_fn, tasks, tick):
                if sink is not None:
                    sink.chunk_done(res)    # merges the extras into sink.extras
                else:
                    extras.add(res.extras)
                sums = sums.merge(res.sums)
            if target is None:
                break
            hw, seen = half_width(sums)   # the loop ends on these sums: the result reuses seen
            # a half-width of 0 is no interval (the metric never varied): not a target reached,
            # and more games of the same would not give one
            reached = {"metric": target.what or target.metric, "target": target.half_width,
                       "half_width": hw,
                       "reached": 0 < hw <= target.half_width, "games": sums.n,
                       "max_games": cap}
            if hw == 0:
                reached["no_variation"] = True
            if hw <= target.half_width or sums.n >= cap:
                break
            # never by the worker count (so an early batch may not fill a large cluster)
            stop = next_stop(sums.n, hw, target.half_width, chunk_games, cap)
            if sink is not None:
                sink.batch(stop)
    final = seen if target is not None else view(sums)
    return StudyResult([sc.name for sc in scenarios], seed, final, paired, n_workers,
                       time.perf_counter() - t0, target, reached, extras)

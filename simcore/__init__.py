"""momojan-sim: balance testing of small-deck mahjong-like games by simulation.

The Python API (the CLI is a thin layer over these; imports are lazy so ``import simcore`` is
cheap)::

    import simcore
    fam, sc = simcore.load("new_edition")          # a family and a validated scenario
    summary = simcore.run("new_edition", games=2000, seed=1)
    print(simcore.summary_text(fam, summary))
    rows = simcore.compare_scenarios("old_edition", "new_edition", games=2000)
    table = simcore.sweep("new_edition", {"scoring.ron_bonus": [0, 2]}, games=2000)
    fix = simcore.solve("new_edition", "compensation.komi", games=10000)  # the komi for 50%
    result = simcore.load_result("results/run-...")   # a saved result directory
    simcore.check_family(fam)                      # the conformance check a family passes

The harness is in layers, lowest first: :mod:`simcore.nb` (numba helpers) and
:mod:`simcore.stats`, :mod:`simcore.runners`, :mod:`simcore.family` (what a game family is, and
the kit it builds on), the game families, :mod:`simcore.studies`, :mod:`simcore.report` and
:mod:`simcore.cli` (docs/engineering.md; tests/harness/test_import_graph.py keeps the order). Each
game family is a package of its own (``simcore/<name>/``) with its bots in ``policies/<name>/``;
the registry (:mod:`simcore.family.registry`) is the one list of them. (``compare_scenarios``, not
``compare``: :mod:`simcore.studies.compare` is the module of the comparison statistics.)
"""

from __future__ import annotations

from simcore import _moved

_moved.install()   # the module names of release 0.1 still import, for one release


def load(ref):
    """``(family, scenario)`` of a scenario file or bundled name (:mod:`simcore.family.registry`)."""
    from simcore.family.registry import load as _load
    return _load(ref)


def run(ref, games: int | None = None, seed: int | None = None, workers: int = 1, **study):
    """Play ``games`` games of a scenario (default: its ``run:`` section) and return its summary
    (every catalogue metric with its 95% interval); ``study`` goes to
    :func:`simcore.studies.study.run_study` (``target=``, ``progress=``, ``runner=``...)."""
    from simcore.family.summary import summarize
    from simcore.studies.study import run_study
    fam, sc = load(ref)
    g, s, _ = fam.SCENARIOS.run_defaults(sc)
    games, seed = games or g, seed if seed is not None else s
    res = run_study(fam, [sc], seed, games, workers, **study)
    return summarize(fam, sc, seed, res.sums)


def summary_text(fam, summary: dict) -> str:
    """A run's summary (:func:`run`'s) as the table ``run`` prints."""
    from simcore.family.summary import summary_table
    return summary_table(fam, summary)


def compare_scenarios(ref_a, ref_b, games: int = 2000, seed: int = 1, workers: int = 1,
                      metrics=None, alpha: float = 0.05) -> list:
    """Play both scenarios on the same deals and return the comparison rows (difference,
    interval, verdict per metric; :func:`simcore.studies.compare.scenario_pair_rows`)."""
    from simcore.family.registry import load_all
    from simcore.studies.compare import pair_metric_names, scenario_pair_rows
    from simcore.studies.study import run_study
    fam, (sc_a, sc_b) = load_all([ref_a, ref_b])
    res = run_study(fam, [sc_a, sc_b], seed, games, workers)
    names = pair_metric_names(fam, metrics, sc_a, sc_b)
    rows, _off = scenario_pair_rows(fam, res.sums, sc_a, sc_b, names, alpha=alpha)
    return rows


def sweep(ref, grid: dict, games: int = 2000, seed: int = 1, workers: int = 1, metrics=None,
          alpha: float = 0.05) -> dict:
    """Play the base scenario and every combination of ``grid`` (``{"scoring.ron_bonus": [0, 1,
    2]}``) on the same deals; each variant against the base, per metric (the ``sweep``
    command's JSON: the base and each variant with its settings, values, differences from the
    base with intervals, and verdicts)."""
    from simcore.studies.compare import select_metrics
    from simcore.studies.study import run_study
    from simcore.studies.sweeps import sweep_result, sweep_variants
    fam, base = load(ref)
    scenarios, labels = sweep_variants(fam, base, list(grid.items()))
    res = run_study(fam, scenarios, seed, games, workers)
    names = select_metrics(metrics or ",".join(fam.SWEEP_METRICS), fam.CATALOGUE)
    return sweep_result(fam, res, scenarios, labels, list(grid.items()), names, alpha)[1]


def solve(ref, param: str, metric: str | None = None, target=None, range=None,
          games: int | None = None, seed: int | None = None, workers: int = 1,
          pilot_games: int = 2000, **design) -> dict:
    """The value of rule ``param`` that brings ``metric`` (default: the family's headline) to
    ``target`` (a number or "50%"; default: its fair value) within ``range`` ("LO,HI"), with
    its 95% interval (a choice or boolean rule: every value it allows, ranked by distance to the
    target, :mod:`simcore.studies.solve_choice`): the ``solve`` command's JSON (:mod:`simcore.studies.solve_design`), nothing saved;
    ``design``: ``target_ci=``, ``max_games=`` and :func:`simcore.studies.study.run_study`'s options."""
    from simcore.studies.solve import solve as _solve
    fam, sc = load(ref)
    g, s, _ = fam.SCENARIOS.run_defaults(sc)
    choices = fam.SCENARIOS.choice_rule(param)
    if choices:   # a choice or boolean rule: every value it allows, ranked (no range, no pilot)
        from simcore.studies import solve_choice as sc_
        cs = sc_.choice_setup(fam, sc, param, metric, None if target is None else str(target),
                              choices)
        scenarios, _ = sc_.choice_variants(cs)
        return sc_.play_choices(cs, scenarios, s if seed is None else seed, games or g, workers,
                                **design)[1]
    return _solve(fam, sc, param, metric, None if target is None else str(target), range,
                  games=games or g, seed=s if seed is None else seed, workers=workers,
                  pilot_games=pilot_games, **design)


def design(ref, targets, budget_games: int = 600_000, search_games: int = 2000,
           seed: int | None = None, workers: int = 1) -> dict:
    """Search the rules ``targets`` lets change for a rule set that meets every target, and
    confirm it on fresh deals: the ``design`` command's JSON (:mod:`simcore.studies.design`),
    nothing saved. ``targets``: the targets file's text (YAML), or its data as a dict."""
    import yaml
    from simcore.studies import design as D
    from simcore.studies.design_spec import parse_spec
    fam, sc = load(ref)
    text = targets if isinstance(targets, str) else yaml.safe_dump(targets)
    spec = parse_spec(text, fam, sc, "targets")
    s = fam.SCENARIOS.run_defaults(sc)[1] if seed is None else seed
    D.check_budget(budget_games, search_games)
    plan = D.plan_budget(spec, budget_games, search_games)
    designer = D.Designer(fam, sc, spec, s, workers, plan)
    data = designer.run()
    data["seed"] = s
    return data


def game_codes(family: str = "momojan") -> dict:
    """What the per-game table's integer codes mean for a family: column -> {code: name}
    (``end_reason``; ``winner`` -1); a saved result has them as ``Result.codes``."""
    from simcore.family.registry import get
    from simcore.family.tables import game_codes as codes
    return codes(get(family))


def load_result(path: str, pandas: bool | None = None):
    """A saved result directory (:func:`simcore.studies.results.load`)."""
    from simcore.studies.results import load as _load_result
    return _load_result(path, pandas)


def check_family(fam, **options) -> list:
    """The conformance check (:func:`simcore.testing.check_family`)."""
    from simcore.testing import check_family as _check
    return _check(fam, **options)

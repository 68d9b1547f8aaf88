"""The ``compare``, ``sweep``, ``plan`` and ``metrics`` commands (registered on ``simcore.cli.main``).

Thin, like the rest of the CLI: options are parsed here, the work is in :mod:`simcore.study`
(playing, streaming sums, stopping by precision) and :mod:`simcore.compare` (intervals, tests,
verdicts, text).
"""

from __future__ import annotations

import functools
import itertools
import json
import sys
import time

import click

from .errors import InputError

TARGET_HELP = ("Play in batches until the 95% half-width of the headline metric ({what}) is at "
               "most W (in the metric's units: 0.002 = 0.2 percentage points), capped by "
               "--max-games. The stopping rule looks at the width only, never at the "
               "estimate or its significance, so the intervals stay honest.")


def _family():
    # One family for now; issue 13 picks it from the scenario's `game:` key.
    from .momojan import family
    return family


def fail(message: str) -> None:
    click.echo(f"momojan-sim: error: {message}", err=True)
    sys.exit(2)


def cli_errors(fn):
    """Bad input: one line and exit 2. Ctrl-C: the workers are already stopped by the runner;
    one line and exit 130 (128 + SIGINT, what shells expect)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            Progress.clear_line()
            click.echo("momojan-sim: interrupted", err=True)
            sys.exit(130)

    return wrapper


class Progress:
    """Games done, on stderr: a rewritten line on a terminal, otherwise a line every few
    seconds (none for a run shorter than that); nothing with ``quiet``."""

    EVERY = 5.0
    _open_line = False

    def __init__(self, quiet: bool = False, label: str = "games"):
        self.quiet, self.label = quiet, label
        self.t0 = time.perf_counter()
        self.last = self.t0

    def __call__(self, done: int, planned: int):
        if self.quiet:
            return
        now = time.perf_counter()
        rate = done / max(now - self.t0, 1e-9)
        text = f"{done}/{planned} {self.label} ({rate:,.0f}/s)"
        if sys.stderr.isatty():
            click.echo(f"\r{text}", err=True, nl=False)
            Progress._open_line = True
        elif now - self.last >= self.EVERY:
            click.echo(f"momojan-sim: {text}", err=True)
            self.last = now

    def done(self):
        Progress.clear_line()

    @staticmethod
    def clear_line():
        if Progress._open_line:
            click.echo("", err=True)
            Progress._open_line = False


def notice(text: str):
    Progress.clear_line()
    click.echo(f"momojan-sim: {text}", err=True)


def _settings(fam, sc, games, seed, workers):
    d_games, d_seed, d_workers = fam.run_defaults(sc)
    return (games or d_games, d_seed if seed is None else seed,
            d_workers if workers is None else workers)


def target_for(fam, target_ci, target_metric, games, max_games):
    from .compare import select_metrics
    from .study import Target

    if target_ci is None:
        if max_games is not None:
            raise InputError("--max-games only applies with --target-ci")
        return None, games
    metric = select_metrics(target_metric or fam.HEADLINE, fam.CATALOGUE)[0]
    max_games = max_games or 1_000_000
    return Target(metric, target_ci), max_games


_common = [
    click.option("--games", type=click.IntRange(min=1),
                 help="Games per variant [A's run.games]; with --target-ci, the first batch."),
    click.option("--seed", type=click.IntRange(min=0, max=2 ** 64 - 1),
                 help="Base seed [A's run.seed]."),
    click.option("--workers", type=click.IntRange(min=0),
                 help="Worker processes, 0 = one per core [A's run.workers]; more than the "
                      "cores or chunks is lowered (and said)."),
    click.option("--alpha", type=click.FloatRange(min=0, max=0.5, min_open=True),
                 default=0.05, show_default=True,
                 help="Family-wise error rate of the `different` verdicts."),
    click.option("--metrics", "metrics_spec", metavar="M1,M2,...",
                 help="Compare only these metrics (see `momojan-sim metrics`)."),
    click.option("--max-games", type=click.IntRange(min=1),
                 help="Cap for --target-ci [1,000,000]."),
    click.option("--target-metric", metavar="METRIC",
                 help="The metric --target-ci watches [first_dealer_win_rate]."),
    click.option("--json", "as_json", is_flag=True, help="Print only JSON on stdout."),
    click.option("--quiet", is_flag=True, help="No progress on stderr."),
]


def _with_common(fn):
    for opt in reversed(_common):
        fn = opt(fn)
    return fn


@click.command()
@click.argument("a_ref", metavar="A")
@click.argument("b_ref", metavar="B")
@_with_common
@click.option("--margin", "margins", multiple=True, metavar="METRIC=VALUE",
              help="Equivalence margin of a metric (repeatable) [the catalogue's].")
@click.option("--target-ci", type=click.FloatRange(min=0, min_open=True), metavar="W",
              help=TARGET_HELP.format(what="the difference B - A"))
@click.option("--no-pairing", is_flag=True,
              help="Give B independent randomness (to see what the pairing buys).")
@cli_errors
def compare(a_ref, b_ref, games, seed, workers, alpha, metrics_spec, max_games, target_metric,
            as_json, quiet, margins, target_ci, no_pairing):
    """Compare rule variant B with A on the same deals: every metric's difference with a 95%
    interval, p-value, Holm-adjusted p-value and a verdict (different, equivalent, inconclusive).

    A and B are scenario files or bundled names. Game i of both plays from the same (seed, i)
    randomness, so where the decks agree they get the same deals and the noise of the deal
    cancels from the difference.

    Example: momojan-sim compare old_edition new_edition --games 20000
    """
    from .compare import comparison_json, comparison_text, compare_rows, parse_margins, \
        select_metrics
    from .study import run_study

    fam = _family()
    sc_a, sc_b = fam.load(a_ref), fam.load(b_ref)
    games, seed, workers = _settings(fam, sc_a, games, seed, workers)
    names = select_metrics(metrics_spec, fam.CATALOGUE)
    margin = parse_margins(margins, fam.CATALOGUE)
    target, cap = target_for(fam, target_ci, target_metric, games, max_games)
    progress = Progress(quiet)
    result = run_study(fam, [sc_a, sc_b], seed, games, workers, paired=not no_pairing,
                       target=target, max_games=cap, progress=progress, notice=notice)
    progress.done()
    rows = compare_rows(fam.CATALOGUE, result.sums, [(0, 1)], names, margin, alpha,
                        paired=not no_pairing)
    if as_json:
        click.echo(json.dumps(comparison_json(result, rows, alpha)))
    else:
        click.echo(comparison_text(result, rows, fam.CATALOGUE, alpha))


def _split_values(text: str) -> list:
    """Comma-separated values, commas inside [...] or {...} kept (YAML flow lists)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [v.strip() for v in out]


def parse_sets(items) -> list:
    """``["a.b=1,2", "c=x"]`` -> [("a.b", [1, 2]), ("c", ["x"])], values read as YAML scalars."""
    import yaml

    grid = []
    for item in items:
        key, sep, vals = item.partition("=")
        key = key.strip()
        if not sep or not key or not vals.strip():
            raise InputError(f"--set {item}: expected KEY=V1,V2,... (e.g. scoring.ron_bonus=0,1)")
        values = []
        for v in _split_values(vals):
            if v == "":
                raise InputError(f"--set {item}: an empty value")
            try:
                values.append(yaml.safe_load(v))
            except yaml.YAMLError:
                raise InputError(f"--set {item}: cannot read value {v!r}") from None
        if any(k == key for k, _ in grid):
            raise InputError(f"--set {key}: given twice (list all its values in one --set)")
        grid.append((key, values))
    return grid


def _nested(key: str, value) -> dict:
    d = value
    for part in reversed(key.split(".")):
        d = {part: d}
    return d


def _merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def sweep_variants(fam, base, grid) -> tuple[list, list]:
    """Every combination of the grid as a validated scenario, and (label, settings) pairs."""
    scenarios, labels = [base], [(f"{base.name} (base)", {})]
    for combo in itertools.product(*[vals for _, vals in grid]):
        settings = {k: v for (k, _), v in zip(grid, combo)}
        over = {}
        for k, v in settings.items():
            over = _merge(over, _nested(k, v))
        label = " ".join(f"{k}={json.dumps(v)}" for k, v in settings.items())
        scenarios.append(fam.with_overrides(base, over, f"{base.name} {label}"))
        labels.append((label, settings))
    return scenarios, labels


@click.command()
@click.argument("scenario_ref", metavar="SCENARIO")
@click.option("--set", "sets", multiple=True, required=True, metavar="KEY=V1,V2,...",
              help="A scenario key (dotted path) and the values to try; repeat for a grid.")
@_with_common
@click.option("--target-ci", type=click.FloatRange(min=0, min_open=True), metavar="W",
              help=TARGET_HELP.format(what="the widest difference from the base"))
@cli_errors
def sweep(scenario_ref, sets, games, seed, workers, alpha, metrics_spec, max_games,
          target_metric, as_json, quiet, target_ci):
    """Every combination of --set values, each compared with SCENARIO on common random numbers.

    Each KEY is validated like a YAML override. Holm's adjustment runs across every variant and
    metric, and a table per metric shows value, difference from the base and verdict.

    Example: momojan-sim sweep new_edition --set scoring.double_threshold=6,7,8,9
    """
    from .compare import compare_rows, select_metrics, sweep_json, sweep_text
    from .study import run_study

    fam = _family()
    base = fam.load(scenario_ref)
    grid = parse_sets(sets)
    scenarios, labels = sweep_variants(fam, base, grid)
    games, seed, workers = _settings(fam, base, games, seed, workers)
    names = select_metrics(metrics_spec or ",".join(fam.SWEEP_METRICS), fam.CATALOGUE)
    target, cap = target_for(fam, target_ci, target_metric, games, max_games)
    progress = Progress(quiet)
    result = run_study(fam, scenarios, seed, games, workers, target=target, max_games=cap,
                       progress=progress, notice=notice)
    progress.done()
    pairs = [(0, v) for v in range(1, len(scenarios))]
    rows = compare_rows(fam.CATALOGUE, result.sums, pairs, names, None, alpha)
    if as_json:
        click.echo(json.dumps(sweep_json(result, fam.CATALOGUE, labels, rows, names, alpha)))
    else:
        click.echo(sweep_text(result, fam.CATALOGUE, labels, rows, names, alpha))


@click.command()
@click.argument("a_ref", metavar="A")
@click.argument("b_ref", metavar="[B]", required=False)
@click.option("--metric", metavar="METRIC", help="The metric to plan for [first_dealer_win_rate].")
@click.option("--detect", type=click.FloatRange(min=0, min_open=True), required=True,
              metavar="D", help="The smallest true difference worth detecting (metric units: "
              "0.01 = 1 percentage point).")
@click.option("--power", type=click.FloatRange(min=0.5, max=0.999), default=0.8,
              show_default=True, help="Probability of detecting a true difference D.")
@click.option("--alpha", type=click.FloatRange(min=0, max=0.5, min_open=True), default=0.05,
              show_default=True, help="Two-sided significance level of the test.")
@click.option("--pilot-games", type=click.IntRange(min=200), default=8000, show_default=True,
              help="Games of the pilot run that estimates the (paired) variance and the speed.")
@click.option("--seed", type=click.IntRange(min=0, max=2 ** 64 - 1),
              help="Base seed [A's run.seed].")
@click.option("--workers", type=click.IntRange(min=0),
              help="Worker processes, 0 = one per core [A's run.workers].")
@click.option("--json", "as_json", is_flag=True, help="Print only JSON on stdout.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@cli_errors
def plan(a_ref, b_ref, metric, detect, power, alpha, pilot_games, seed, workers, as_json, quiet):
    """How many games a run (A alone: a difference from the metric's current value) or a
    comparison (A vs B, paired) needs to detect a difference D, and how long that takes here.

    Example: momojan-sim plan old_edition new_edition --detect 0.005
    """
    from .compare import select_metrics
    from .plan import plan_games, plan_text

    fam = _family()
    scenarios = [fam.load(a_ref)] + ([fam.load(b_ref)] if b_ref else [])
    _, seed, workers = _settings(fam, scenarios[0], 1, seed, workers)
    metric = select_metrics(metric or fam.HEADLINE, fam.CATALOGUE)[0]
    progress = Progress(quiet)
    out = plan_games(fam, scenarios, metric, detect, power, alpha, pilot_games, seed, workers,
                     progress, notice)
    progress.done()
    click.echo(json.dumps(out) if as_json else plan_text(out))


@click.command(name="metrics")
@click.option("--json", "as_json", is_flag=True, help="Print the catalogue as JSON.")
def metrics_cmd(as_json):
    """The metric catalogue: every metric's name, what it counts, and its equivalence margin."""
    fam = _family()
    rows = [{"name": m.name, "kind": m.kind, "numerator": m.numerator,
             "denominator": m.denominator, "description": m.description, "margin": m.margin,
             "reference": m.reference} for m in fam.CATALOGUE]
    if as_json:
        click.echo(json.dumps(rows))
        return
    click.echo(f"{'metric':<30}{'per':<8}{'margin':>8}  description")
    for m in fam.CATALOGUE:
        click.echo(f"{m.name:<30}{m.per:<8}{m.margin:>8g}  {m.description}")


def register(group):
    """Add this module's commands to the ``momojan-sim`` group."""
    for cmd in (compare, sweep, plan, metrics_cmd):
        group.add_command(cmd)

"""The ``compare``, ``sweep``, ``plan`` and ``metrics`` commands (registered on ``simcore.cli.main``).

Thin, like the rest of the CLI: options are parsed here, the work is in :mod:`simcore.studies.study`
(playing, streaming sums, stopping by precision) and :mod:`simcore.studies.compare` (intervals, tests,
verdicts, text).
"""

from __future__ import annotations

import json
import os

import click

from simcore.cli.common import (NO_REPORT_HELP, Progress, TARGET_HELP, _settings, backend_options,
                                cli_errors, luck_option, notice, replay_hint, saved_line,
                                target_for)
from simcore.cli.output import check_writable, render_report, write_out
from simcore.cli.types import FiniteFloat
from simcore.errors import InputError, cut
from simcore.family.players import with_players
from simcore.family.scenario.files import load_yaml
from simcore.family.summary import luck_note
from simcore.studies.notes import play_note
from simcore.studies.sweeps import sweep_result, sweep_variants


_common = [
    click.option("--games", type=click.IntRange(min=1),
                 help="Games per variant [A's run.games]; with --target-ci, the first batch."),
    click.option("--seed", type=click.IntRange(min=0, max=2 ** 64 - 1),
                 help="Base seed [A's run.seed]."),
    click.option("--workers", type=click.IntRange(min=0),
                 help="Worker processes, 0 = one per core [A's run.workers]; more than the "
                      "cores or chunks is lowered (and said)."),
    click.option("--alpha", type=FiniteFloat(min=0, max=0.5, min_open=True),
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
    click.option("--out", metavar="DIR", help="Result directory [results/<kind>-<name>-<UTC "
                 "time>]; a name ending in .json writes only the JSON there."),
    click.option("--no-save", is_flag=True, help="Write nothing; print only."),
    click.option("--no-report", is_flag=True, help=NO_REPORT_HELP),
    click.option("--records", is_flag=True, help="Also keep per-round records (Parquet)."),
    click.option("--resume", metavar="DIR", help="Finish an interrupted result directory of "
                 "this command (its variants and settings; no scenario arguments)."),
]


def _with_common(fn):
    for opt in reversed(_common):
        fn = opt(fn)
    return fn


@click.command()
@click.argument("a_ref", metavar="A", required=False)
@click.argument("b_ref", metavar="B", required=False)
@_with_common
@click.option("--margin", "margins", multiple=True, metavar="METRIC=VALUE",
              help="Equivalence margin of a metric (repeatable) [the catalogue's].")
@click.option("--target-ci", type=FiniteFloat(min=1e-6), metavar="W",
              help=TARGET_HELP.format(what="the difference B - A"))
@click.option("--no-pairing", is_flag=True,
              help="Give B independent randomness (to see what the pairing buys).")
@click.option("--players", metavar="SEATS", help="Seats for both variants instead of their "
              "players: greedy,value or value:call=0.8,greedy (one entry seats both).")
@click.option("--pairings", metavar="P1,P2,...", help="Compare under each bot pairing (e.g. "
              "greedy:greedy,value:value,value:greedy; value:call=0.8:greedy passes a "
              "parameter), all on the same deals, and flag the metrics whose verdict changes "
              "with the pairing. Prints only (no result directory).")
@click.option("--tuned", is_flag=True, help="First tune the seats' policy to each variant "
              "(momojan-sim tune, against the seats as they are) and compare the adapted play: "
              "a tuned entry is seated where it beats the seats' own on fresh deals.")
@click.option("--tune-budget", type=click.IntRange(1, 10_000), metavar="N",
              help="Trials of each --tuned search [20].")
@click.option("--tune-games", type=click.IntRange(10, 10_000_000), metavar="G",
              help="Games per seating per --tuned trial, and fresh deals of its check [1000].")
@click.option("--tune-params", metavar="P1,P2,...", help="Only these parameters in --tuned "
              "[all the policy declares but temperature].")
@cli_errors
@backend_options
@luck_option
def compare(a_ref, b_ref, games, seed, workers, alpha, metrics_spec, max_games, target_metric,
            as_json, quiet, out, no_save, no_report, records, resume, margins, target_ci,
            no_pairing, players, pairings, tuned, tune_budget, tune_games, tune_params):
    """Compare rule variant B with A on the same deals: every metric's difference with a 95%
    interval, p-value, Holm-adjusted p-value and a verdict (different, equivalent, inconclusive).

    A and B are scenario files or bundled names. Game i of both plays from the same (seed, i)
    randomness, so where the decks agree they get the same deals and the noise of the deal
    cancels from the difference.

    A and B may also be two saved result directories (of `run`): see the README.

    Example: momojan-sim compare old_edition new_edition --games 20000
    """
    from simcore.studies.compare import (comparison_json, comparison_text, pair_metric_names, parse_margins, scenario_pair_rows)
    from simcore.studies.results import is_result_dir
    from simcore.studies.study import run_study

    dirs = [r for r in (a_ref, b_ref) if r and os.path.isdir(r)]
    if dirs and not resume and not (a_ref and b_ref and len(dirs) == 2):
        if not (a_ref and b_ref) or any(is_result_dir(d) for d in dirs):
            other = b_ref if dirs[0] == a_ref else a_ref
            raise InputError(f"compare: {dirs[0]} is a directory and {other} is not: compare "
                             f"takes two run result directories or two scenarios")
        raise InputError(f"compare {dirs[0]}: a directory, not a scenario (nor a result "
                         f"directory: no provenance.json)")
    if a_ref and b_ref and not resume and len(dirs) == 2:
        play_options = {"--games": games, "--seed": seed, "--out": out, "--records": records,
                        "--target-ci": target_ci, "--max-games": max_games,
                        "--target-metric": target_metric, "--players": players,
                        "--pairings": pairings, "--no-pairing": no_pairing,
                        "--no-save": no_save, "--tuned": tuned}
        given = [k for k, v in play_options.items() if v not in (None, False)]
        if given:
            raise InputError(f"compare of two saved results plays nothing: give no "
                             f"{', '.join(given)} with it")
        from simcore.studies.compare_saved import compare_saved
        from simcore.studies.results import reading
        with reading(f"{a_ref} / {b_ref}", "compare"):
            text, data = compare_saved(None, a_ref, b_ref, alpha, metrics_spec, margins)
        click.echo(json.dumps(data) if as_json else text)
        return
    if (tune_budget or tune_games or tune_params) and not tuned:
        raise InputError("--tune-budget, --tune-games and --tune-params shape a --tuned "
                         "compare: give --tuned with them")
    tune_names = None if tune_params is None else [
        n.strip() for n in tune_params.split(",") if n.strip()]
    if tune_names == []:
        raise InputError("--tune-params: an empty list")
    if pairings:
        if resume or out or records or target_ci or players or tuned:
            raise InputError("--pairings prints one table and keeps no result directory: give "
                             "no --resume, --out, --records, --target-ci, --players or --tuned "
                             "with it")
        return _compare_pairings(a_ref, b_ref, pairings, games, seed, workers, alpha,
                                 metrics_spec, margins, no_pairing, quiet, as_json)
    opts = dict(alpha=alpha, metrics=metrics_spec, margins=list(margins), no_pairing=no_pairing,
                target_ci=target_ci, target_metric=target_metric, max_games=max_games,
                records=records, players=players,
                tuned={"budget": tune_budget or 20, "games": tune_games or 1000,
                       "params": tune_names} if tuned else None)
    st = _open_study("compare", [a_ref, b_ref], ["A", "B"], games, seed, workers, opts, out,
                     no_save, resume)
    if tuned:
        if st.save and out and not resume:   # taken now: the tunes' play is not lost to
            from simcore.studies.results import reserve_dir   # another command taking --out meanwhile
            reserve_dir(out)
        _tune_variants(st, quiet or as_json)
    adapted = (st.options.get("tuned") or {}).get("variants")   # a resumed one's too
    fam, (sc_a, sc_b), games, seed, workers, opts = (st.family, st.scenarios, st.games, st.seed,
                                                     st.workers, st.options)
    alpha, metrics_spec, margins, no_pairing = (opts["alpha"], opts["metrics"], opts["margins"],
                                                opts["no_pairing"])
    target_ci, target_metric, max_games = opts["target_ci"], opts["target_metric"], \
        opts["max_games"]
    names = pair_metric_names(fam, metrics_spec, sc_a, sc_b)
    margin = parse_margins(margins, fam.CATALOGUE)
    target, cap = target_for(fam, target_ci, target_metric, games, max_games)
    sink = st.create()
    progress = Progress(quiet, family=fam)
    progress.starting(fam, [sc_a, sc_b])
    result = run_study(fam, [sc_a, sc_b], seed, games, workers, paired=not no_pairing,
                       target=target, max_games=cap, progress=progress, notice=notice, sink=sink)
    progress.done()
    from simcore.family.scenario.diff import rules_differ
    rows, off = scenario_pair_rows(fam, result.sums, sc_a, sc_b, names, margin, alpha,
                                   paired=not no_pairing)
    differ = rules_differ(fam, sc_a, sc_b)
    data = comparison_json(result, rows, alpha, differ, off, fam.CATALOGUE)
    luck = luck_note(fam, result.sums)
    if luck:
        data["luck_correction"] = luck
    from simcore.family.players import seat_entries
    data["seats"] = [seat_entries(sc, fam.POLICIES.by_name) for sc in (sc_a, sc_b)]
    note = play_note(fam, [sc_a, sc_b])
    if note:
        data["note"] = note
    if adapted:
        data["tuned"] = adapted
    _finish(st, data, result, not no_report)
    if as_json:
        click.echo(json.dumps({**data, "result_dir": sink.path} if sink else data))
    else:
        from simcore.studies.tune import tuned_variant_text
        head = ("play adapted to each variant:\n" + "\n".join(
            "  " + tuned_variant_text(t) for t in adapted) + "\n\n") if adapted else ""
        click.echo(head + comparison_text(result, rows, fam.CATALOGUE, alpha, differ, off,
                                          data["seats"])
                   + (f"\n\n{note}" if note else ""))
    _saved_note(sink, out, data, quiet or as_json, not no_report, st)


def _tune_variants(st, quiet: bool) -> list:
    """``compare --tuned``: each variant's seats tuned to it (:func:`simcore.studies.tune.tune_variant`,
    on the study's seed and workers), the study's scenarios replaced by the adapted ones before
    anything is saved, and what each tune found kept in its options (``--resume`` reads it)."""
    from simcore.studies.tune import check_inputs, seat_entry, tune_variant
    fam, t = st.family, st.options["tuned"]
    for sc in st.scenarios:       # both checked before either tune plays
        e = seat_entry(fam, sc)
        check_inputs(fam, sc, e.split(":", 1)[0], e, t["params"], option="--tune-params")
    out = []
    for i, sc in enumerate(st.scenarios):
        talk = None if quiet else (lambda text, n=sc.name: click.echo(
            f"momojan-sim: tune {n}: {text}", err=True))
        tv = tune_variant(fam, sc, budget=t["budget"], games=t["games"], seed=st.seed,
                          workers=st.workers, names=t["params"], progress=talk)
        st.scenarios[i] = tv.scenario
        out.append(tv.to_json())
    t["variants"] = out


_OPTION_NAMES = {"metrics": "--metrics", "margins": "--margin", "no_pairing": "--no-pairing",
                 "target_ci": "--target-ci", "target_metric": "--target-metric",
                 "max_games": "--max-games", "records": "--records", "players": "--players",
                 "alpha": "--alpha", "tuned": "--tuned"}


def _open_study(kind, refs, what, games, seed, workers, opts, out, no_save, resume):
    """The study of ``compare``/``sweep`` (:mod:`simcore.studies.directory`) after the options' checks:
    a new one (``--out`` a directory, or a JSON file written at the end, or nothing saved) or
    the ``--resume`` one, whose family, scenarios and settings are the saved result's."""
    from simcore.studies.directory import open_study, resume_study

    for option, value in (("--resume", resume), ("--out", out)):
        if value is not None and not value.strip():
            raise InputError(f"{option}: an empty path")
    if no_save and out:
        raise InputError("--no-save writes nothing: give no --out with it")
    if resume:
        given = [_OPTION_NAMES.get(k, "--" + k.replace("_", "-")) for k, v in opts.items()
                 if v not in (None, False, [], ()) and not (k == "alpha" and v == 0.05)]
        if given:
            raise InputError(f"--resume DIR takes its analysis from DIR: give no "
                             f"{', '.join(given)} with it")
        if any(refs) or out or no_save:
            raise InputError(f"--resume DIR takes the scenarios and settings from DIR: give no "
                             f"{' or '.join(what)}, --out or --no-save with it")
        if games is not None or seed is not None:
            raise InputError("--resume DIR plays the games and seed saved in DIR: give no "
                             "--games or --seed with it")
        return resume_study(kind, resume, workers)
    for ref, w in zip(refs, what):
        if not ref:
            raise InputError(f"{kind}: Missing argument '{w}' (a scenario file or bundled "
                             f"name; or --resume DIR)")
    save = not (no_save or (out and out.lower().endswith(".json")))
    if out and not save:
        check_writable(out)
    return open_study(kind, refs, games=games, seed=seed, workers=workers, options=opts,
                      players=opts.get("players"), out=out if save else None, save=save)


def _finish(st, data, result, report=True):
    """Save the summary in the study's directory (``data`` becomes the saved summary) and draw
    its report."""
    from simcore.studies.directory import finish_study
    if st.sink is None:
        return
    summary = finish_study(st, data, result)
    data.clear()
    data.update(summary)
    if report and not st.unsaved:
        render_report(st.sink.path, notice)


def _compare_pairings(a_ref, b_ref, spec, games, seed, workers, alpha, metrics_spec,
                      margins, no_pairing, quiet, as_json):
    """``compare --pairings``: both variants under every pairing in one study (same deals)."""
    from simcore.family import registry as families
    from simcore.studies.compare import pair_metric_names, parse_margins, scenario_pair_rows
    from simcore.studies.pairings import pairing_json, pairing_table, pairing_text, parse_pairings
    from simcore.studies.study import run_study

    if not (a_ref and b_ref):
        raise InputError("compare: Missing argument 'A' or 'B' (two scenario files or bundled "
                         "names)")
    fam, (sc_a, sc_b) = families.load_all([a_ref, b_ref], "compare")
    pairs = parse_pairings(spec)
    games, seed, workers = _settings(fam, sc_a, games, seed, workers)
    scenarios = []
    for _, seats in pairs:
        scenarios += [with_players(fam, sc_a, seats, "--pairings"),
                      with_players(fam, sc_b, seats, "--pairings")]
    names = pair_metric_names(fam, metrics_spec, sc_a, sc_b)
    margin = parse_margins(margins, fam.CATALOGUE)
    progress = Progress(quiet, family=fam)
    progress.starting(fam, scenarios)
    result = run_study(fam, scenarios, seed, games, workers, paired=not no_pairing,
                       progress=progress, notice=notice)
    progress.done()
    rows, _ = scenario_pair_rows(fam, result.sums, sc_a, sc_b, names, margin, alpha,
                                 paired=not no_pairing,
                                 pairs=[(2 * i, 2 * i + 1) for i in range(len(pairs))])
    labels = [label for label, _ in pairs]
    by_pairing, changes = pairing_table(labels, rows, len(rows) // len(pairs))
    if as_json:
        click.echo(json.dumps(pairing_json(sc_a.name, sc_b.name, result.games, seed, alpha,
                                           not no_pairing, by_pairing, changes)))
    else:
        click.echo(pairing_text(sc_a.name, sc_b.name, result.games, seed, alpha, by_pairing,
                                changes))


def _saved_note(sink, out, data, quiet=False, reported=True, st=None):
    """After the output: where it was saved (or, --out FILE.json, write that file now); the
    one line of a summary that could not be saved (``st.unsaved``: the answer is printed)."""
    if st is not None and st.unsaved:
        raise InputError(st.unsaved)
    if sink is None and out:
        write_out(out, json.dumps(data) + "\n")
    if sink is not None and not quiet:
        notice(saved_line(sink.path, reported))
        if data.get("kind") in ("compare", "sweep"):
            names = ([data["a"], data["b"]] if data["kind"] == "compare"
                     else ["I (0: the base)"] * len(data.get("variants", [])))
            notice(replay_hint(sink.path, names))


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


# Scenario keys that are not rules: a sweep over them would compare a variant with itself.
NOT_RULES = {"run": "a run setting (--games, --seed, --workers are options)",
             "name": "the scenario's name", "description": "the scenario's description",
             "extends": "the base file"}


def same_value(a, b) -> bool:
    """Two --set values that make the same variant (36 and 36.0; not true and 1)."""
    return type(a) is type(b) and a == b or (
        not isinstance(a, bool) and not isinstance(b, bool)
        and isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b)


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
                value = load_yaml(v)
            except yaml.YAMLError:
                raise InputError(f"--set {key}: cannot read value {cut(v)!r}") from None
            if isinstance(value, dict):   # it would merge into the section, or change nothing
                raise InputError(f"--set {key}: value {cut(v)!r} is a mapping; a sweep sets "
                                 f"one key to each value (name the key inside it, e.g. "
                                 f"--set {key}.KEY=V1,V2)")
            if any(same_value(value, w) for w in values):
                raise InputError(f"--set {cut(item)}: the value {cut(v)!r} is given twice "
                                 f"(each value is one variant)")
            values.append(value)
        if any(k == key for k, _ in grid):
            raise InputError(f"--set {key}: given twice (list all its values in one --set)")
        top = key.split(".")[0]
        if top in NOT_RULES:
            raise InputError(f"--set {key}: {NOT_RULES[top]}, not a rule a sweep varies")
        grid.append((key, values))
    return grid


@click.command()
@click.argument("scenario_ref", metavar="SCENARIO", required=False)
@click.option("--set", "sets", multiple=True, metavar="KEY=V1,V2,...",
              help="A scenario key (dotted path) and the values to try; repeat for a grid.")
@_with_common
@click.option("--target-ci", type=FiniteFloat(min=1e-6), metavar="W",
              help=TARGET_HELP.format(what="the widest difference from the base"))
@click.option("--players", metavar="SEATS", help="Seats for every variant instead of the "
              "scenario's players: greedy,value or search (one entry seats all).")
@cli_errors
@backend_options
@luck_option
def sweep(scenario_ref, sets, games, seed, workers, alpha, metrics_spec, max_games,
          target_metric, as_json, quiet, out, no_save, no_report, records, resume, target_ci,
          players):
    """Every combination of --set values, each compared with SCENARIO on common random numbers.

    Each KEY is validated like a YAML override. Holm's adjustment runs across every variant and
    metric, and a table per metric shows value, difference from the base and verdict.

    Example: momojan-sim sweep new_edition --set scoring.double_threshold=6,7,8,9
    """
    from simcore.studies.compare import select_metrics, sweep_text
    from simcore.studies.study import run_study

    if resume and sets:
        raise InputError("--resume DIR takes the grid from DIR: give no --set with it")
    if not resume and not sets:
        raise InputError("sweep: Missing option '--set' (KEY=V1,V2,...; or --resume DIR)")
    opts = dict(alpha=alpha, metrics=metrics_spec, sets=list(sets), target_ci=target_ci,
                target_metric=target_metric, max_games=max_games, records=records,
                players=players)
    st = _open_study("sweep", [scenario_ref], ["SCENARIO"], games, seed, workers, opts, out,
                     no_save, resume)
    fam, (base, *_), games, seed, workers, opts = (st.family, st.scenarios, st.games, st.seed,
                                                   st.workers, st.options)
    grid = parse_sets(opts["sets"])
    merged = []   # said once every option is checked (a bad one is the only line)
    scenarios, labels = sweep_variants(fam, base, grid, None if resume else merged.append)
    if resume:
        if len(labels) != len(st.scenarios):   # saved before a base-equal value was merged
            labels = sweep_variants(fam, base, grid, merge=False)[1]
        scenarios = st.scenarios
    alpha, metrics_spec = opts["alpha"], opts["metrics"]
    target_ci, target_metric, max_games = opts["target_ci"], opts["target_metric"], \
        opts["max_games"]
    names = select_metrics(metrics_spec or ",".join(fam.SWEEP_METRICS), fam.CATALOGUE)
    target, cap = target_for(fam, target_ci, target_metric, games, max_games)
    for line in merged:
        notice(line)
    sink = st.create(scenarios, labels)
    progress = Progress(quiet, family=fam)
    progress.starting(fam, scenarios)
    result = run_study(fam, scenarios, seed, games, workers, target=target, max_games=cap,
                       progress=progress, notice=notice, sink=sink)
    progress.done()
    rows, data = sweep_result(fam, result, scenarios, labels, grid, names, alpha)
    luck = luck_note(fam, result.sums)
    if luck:
        data["luck_correction"] = luck
    note = data.get("note")
    _finish(st, data, result, not no_report)
    if as_json:
        click.echo(json.dumps({**data, "result_dir": sink.path} if sink else data))
    else:
        click.echo(sweep_text(result, fam.CATALOGUE, labels, rows, names, alpha)
                   + (f"\n\n{note}" if note else ""))
    _saved_note(sink, out, data, quiet or as_json, not no_report, st)


@click.command()
@click.argument("a_ref", metavar="A")
@click.argument("b_ref", metavar="[B]", required=False)
@click.option("--metric", metavar="METRIC", help="The metric to plan for [first_dealer_win_rate].")
@click.option("--detect", metavar="D", help="The smallest true difference worth detecting, "
              "in the metric's unit (a rate's: 0.01 or 1pp = one percentage point).")
@click.option("--equivalence", metavar="M", help="Instead of --detect: games until compare "
              "can conclude `equivalent` within +-M (same units) when nothing changed.")
@click.option("--power", type=FiniteFloat(min=0.5, max=0.999), default=0.8,
              show_default=True, help="Probability of detecting a true difference D.")
@click.option("--alpha", type=FiniteFloat(min=0, max=0.5, min_open=True), default=0.05,
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
@backend_options
@luck_option
def plan(a_ref, b_ref, metric, detect, equivalence, power, alpha, pilot_games, seed, workers,
         as_json, quiet):
    """How many games a run (A alone: a difference from the metric's current value) or a
    comparison (A vs B, paired) needs to detect a difference D, and how long that takes here.

    Example: momojan-sim plan old_edition new_edition --detect 0.005
    """
    from simcore.family.metrics import by_name
    from simcore.studies.compare import select_metrics
    from simcore.studies.plan import parse_size, plan_games, plan_text

    from simcore.family import registry as families

    if (detect is None) == (equivalence is None):
        raise InputError("plan: give --detect D (a difference to find) or --equivalence M (a "
                         "margin to prove), one of them")
    if equivalence is not None and not b_ref:
        raise InputError("plan --equivalence: needs two scenarios A and B (a comparison)")
    fam, scenarios = families.load_all([a_ref] + ([b_ref] if b_ref else []), "plan")
    _, seed, workers = _settings(fam, scenarios[0], 1, seed, workers)
    metric = select_metrics(metric or fam.HEADLINE, fam.CATALOGUE, "--metric")[0]
    m = by_name(fam.CATALOGUE)[metric]
    detect = None if detect is None else parse_size(detect, m, "--detect")
    equivalence = None if equivalence is None else parse_size(equivalence, m, "--equivalence")
    progress = Progress(quiet)
    out = plan_games(fam, scenarios, metric, detect, power, alpha, pilot_games, seed, workers,
                     progress, notice, equivalence=equivalence)
    out["unit"], out["is_rate"] = ("pp" if m.is_rate else f" {m.unit}"), m.is_rate
    progress.done()
    click.echo(json.dumps(out) if as_json else plan_text(out))


@click.command(name="metrics")
@click.argument("scenario_ref", metavar="[SCENARIO]", required=False)
@click.option("--game", metavar="NAME", help="The game family whose catalogue to list "
              "[the SCENARIO's; momojan].")
@click.option("--json", "as_json", is_flag=True, help="Print the catalogue as JSON.")
@cli_errors
def metrics_cmd(scenario_ref, game, as_json):
    """The metric catalogue of a game family (``--game NAME``, or the family of SCENARIO): every
    metric's name, what it counts, and its equivalence margin."""
    from simcore.family import registry as families

    if game and scenario_ref:
        raise InputError("metrics: give --game NAME or a SCENARIO, not both")
    fam = families.load(scenario_ref)[0] if scenario_ref else \
        families.get(game or families.DEFAULT)
    rows = [{"name": m.name, "kind": m.kind, "numerator": m.numerator,
             "denominator": m.denominator, "description": m.description, "margin": m.margin,
             "margin_relative": m.margin_relative, "unit": m.diff_unit,
             "reference": m.reference, "fair_per_seat": m.fair_per_seat}
            for m in fam.CATALOGUE]
    if as_json:
        click.echo(json.dumps(rows))
        return
    click.echo(f"{'metric':<30}{'per':<8}{'unit':<10}{'margin':>8}  description")
    for m in fam.CATALOGUE:
        margin = (f"{100 * m.margin:.0f}%" if m.margin_relative else
                  f"{100 * m.margin:g}" if m.is_rate else f"{m.margin:g}")
        fair = (" [fair: 1/n of n seats]" if m.fair_per_seat else
                f" [fair: {m.reference:g}]" if m.reference is not None else "")
        click.echo(f"{m.name:<30}{m.per:<8}{m.diff_unit:<10}{margin:>8}  {m.description}{fair}")
    click.echo("margin: in the unit shown (pp: percentage points), or % of a's value")


def register(group):
    """Add this module's commands to the ``momojan-sim`` group."""
    for cmd in (compare, sweep, plan, metrics_cmd):
        group.add_command(cmd)

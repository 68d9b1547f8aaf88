"""The ``solve`` command (registered on ``simcore.cli.main``): options here, the work in
:mod:`simcore.studies.solve` (playing) and :mod:`simcore.studies.solve_design` (the method)."""

from __future__ import annotations

import json

import click

from simcore.cli.common import (backend_options, cli_errors, luck_option, NO_REPORT_HELP, notice,
                                Progress)
from simcore.cli.study import _finish, _open_study, _saved_note
from simcore.cli.types import FiniteFloat
from simcore.errors import InputError


@click.command()
@click.argument("scenario_ref", metavar="SCENARIO", required=False)
@click.option("--param", "key", metavar="KEY", help="The rule to solve for (a dotted scenario "
              "key: a number, e.g. compensation.komi, or a choice or boolean rule, e.g. "
              "game.tie_break, whose every value is played and ranked).")
@click.option("--metric", "metric_name", metavar="METRIC",
              help="The metric to bring to the target [the family's headline metric].")
@click.option("--target", "target_text", metavar="V", help="The value to reach: a number, a "
              "rate also as 50% [the metric's fair value].")
@click.option("--range", "range_text", metavar="LO,HI", help="The values to search [the "
              "scenario's value +- max(10, |value|), within the rule's bounds].")
@click.option("--games", type=click.IntRange(min=1), help="Games per design value [the "
              "scenario's run.games]; with --target-ci, the first batch.")
@click.option("--pilot-games", type=click.IntRange(min=100),
              help="Games per pilot value (the pilot places the design) [2,000].")
@click.option("--seed", type=click.IntRange(min=0, max=2 ** 64 - 1),
              help="Base seed [the scenario's run.seed].")
@click.option("--workers", type=click.IntRange(min=0),
              help="Worker processes, 0 = one per core [the scenario's run.workers].")
@click.option("--target-ci", type=FiniteFloat(min=1e-9), metavar="W",
              help="Play the design in batches until the solution's 95% interval has a "
                   "half-width of at most W (in the rule's units), capped by --max-games.")
@click.option("--max-games", type=click.IntRange(min=1), help="Cap per value for --target-ci "
              "[1,000,000].")
@click.option("--players", metavar="SEATS", help="Seats instead of the scenario's players "
              "(greedy,value or value:call=0.8,greedy).")
@click.option("--json", "as_json", is_flag=True, help="Print only JSON on stdout.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--out", metavar="DIR", help="Result directory [results/solve-<name>-<UTC "
              "time>]; a name ending in .json writes only the JSON there.")
@click.option("--no-save", is_flag=True, help="Write nothing; print only.")
@click.option("--no-report", is_flag=True, help=NO_REPORT_HELP)
@click.option("--resume", metavar="DIR", help="Finish an interrupted solve directory (its "
              "rule, design and settings; no other options).")
@cli_errors
@backend_options
@luck_option
def solve(scenario_ref, key, metric_name, target_text, range_text, games, pilot_games, seed,
          workers, target_ci, max_games, players, as_json, quiet, out, no_save, no_report,
          resume):
    """Find the value of one rule that brings a metric to a target (by default its fair
    value), with a 95% interval, playing every candidate value on the same deals.

    A pilot spreads a few values over the range; the design then plays values around where
    the pilot found the target crossed, and the interval is every value at which the
    metric's own test of "metric = target" is not rejected. An integer rule says which whole
    values are compatible with the target. A choice or boolean rule (game.tie_break) plays
    every value it allows and ranks them by their distance to the target.

    Example: momojan-sim solve new_edition --param compensation.komi --metric
    first_dealer_win_rate
    """
    from simcore.studies import solve as ss

    if resume:   # every option here is one --resume refuses (the directory has them)
        given = dict(param=key, metric=metric_name, target=target_text, range=range_text,
                     pilot_games=pilot_games, target_ci=target_ci, max_games=max_games,
                     players=players)
        st = _open_study("solve", [scenario_ref], ["SCENARIO"], games, seed, workers, given,
                         out, no_save, resume)
        if "solve_choice" in st.options:
            return _solve_choice(st, None, None, None, quiet, as_json, out, no_report, True)
        su = ss.from_options(st.family, st.scenarios[0], st.options["solve"])
        pilot = st.options["solve"]["pilot"]
        values = pilot["design"]
        scenarios = st.scenarios
        target_ci, max_games = st.options.get("target_ci"), st.options.get("max_games")
    else:
        if not key:
            raise InputError("solve: Missing option '--param' (the rule to solve for, e.g. "
                             "compensation.komi)")
        st = _open_study("solve", [scenario_ref], ["SCENARIO"], games, seed, workers,
                         {"target_ci": target_ci, "max_games": max_games, "players": players},
                         out, no_save, None)
        choices = st.family.SCENARIOS.choice_rule(key.strip())
        if choices:
            for option, given in (("--range", range_text), ("--pilot-games", pilot_games)):
                if given is not None:
                    raise InputError(f"{option}: {key.strip()} is a choice rule: solve plays "
                                     f"every value it allows ({', '.join(map(str, choices))})")
            return _solve_choice(st, key.strip(), metric_name, target_text, quiet, as_json, out,
                                 no_report, False, choices)
        su = ss.setup(st.family, st.scenarios[0], key, metric_name, target_text, range_text)
        if max_games is not None and target_ci is None:
            raise InputError("--max-games only applies with --target-ci")
        if max_games is not None and max_games < st.games:
            raise InputError(f"--max-games {max_games:,} is below --games {st.games:,}")
        pilot_games = pilot_games or ss.PILOT_GAMES
        if st.save and out:   # taken now: the pilot's play is not lost to another command
            from simcore.studies.results import reserve_dir
            reserve_dir(out)
        progress = Progress(quiet, family=st.family)
        progress.starting(st.family)
        if not quiet:
            notice(f"pilot: {ss.PILOT_VALUES} values of {su.param.key} x {pilot_games:,} games (where to look)")
        pilot = ss.play_pilot(su, st.seed, pilot_games, st.workers, progress, notice,
                              None if quiet else notice)
        progress.done()
        values = pilot["design"]
        scenarios, labels = ss.variants(st.family, su.scenario, su.param, values)
        st.options["solve"] = ss.options_of(su, pilot)
        st.create(scenarios, labels)
    fam = st.family
    if not quiet:
        notice(f"design: {len(values)} values of {su.param.key} ({values[0]} .. {values[-1]}) "
               f"x {st.games:,} games on the same deals")
    progress = Progress(quiet, family=fam)
    progress.starting(fam)
    result, data = ss.play_design(su, pilot, scenarios, st.seed, st.games, st.workers,
                                  target_ci, max_games, progress=progress, notice=notice,
                                  sink=st.sink)
    progress.done()
    _answer(st, data, result, lambda d: ss.solve_text(d, su.metric), quiet, as_json, out,
            no_report)


def _answer(st, data, result, text_of, quiet, as_json, out, no_report):
    """Save the solve's summary and report, and print it (text or JSON)."""
    note = data.get("note")
    _finish(st, data, result, not no_report)
    sink = st.sink
    if as_json:
        click.echo(json.dumps({**data, "result_dir": sink.path} if sink else data))
    else:
        click.echo(text_of(data) + (f"\n\n{note}" if note else ""))
    _saved_note(sink, out, data, quiet or as_json, not no_report, st)


def _solve_choice(st, key, metric_name, target_text, quiet, as_json, out, no_report, resumed,
                  choices=()):
    """``solve --param`` of a choice or boolean rule (:mod:`simcore.studies.solve_choice`):
    every allowed value on the same deals, ranked by distance to the target."""
    from simcore.studies import solve_choice as sc_
    fam = st.family
    if resumed:
        cs = sc_.from_options(fam, st.scenarios[0], st.options["solve_choice"])
        scenarios = st.scenarios
    else:
        cs = sc_.choice_setup(fam, st.scenarios[0], key, metric_name, target_text, choices)
        scenarios, labels = sc_.choice_variants(cs)
        st.options["solve_choice"] = sc_.options_of(cs)
        st.create(scenarios, labels)
    if not quiet:
        notice(f"{cs.key}: {len(cs.values)} values x {st.games:,} games on the same deals")
    progress = Progress(quiet, family=fam)
    progress.starting(fam)
    result, data = sc_.play_choices(cs, scenarios, st.seed, st.games, st.workers,
                                    st.options.get("target_ci"), st.options.get("max_games"),
                                    progress=progress, notice=notice, sink=st.sink)
    progress.done()
    _answer(st, data, result, lambda d: sc_.choice_text(d, cs.metric), quiet, as_json, out,
            no_report)


def register(group):
    group.add_command(solve)

"""The ``tune`` command (registered on ``simcore.cli.main``): options here, the work in
:mod:`simcore.studies.tune`."""

from __future__ import annotations

import json

import click

from simcore.cli.common import backend_options, cli_errors, NO_REPORT_HELP, notice, saved_line
from simcore.cli.output import render_report
from simcore.errors import InputError


@click.command()
@click.argument("scenario_ref", metavar="SCENARIO")
@click.option("--policy", default="value", show_default=True,
              help="The policy whose declared parameters are tuned.")
@click.option("--against", metavar="ENTRY", help="The field it plays against: one policy with "
              "optional name=value parameters joined by ':', not a list [the --policy with its "
              "defaults].")
@click.option("--budget", type=click.IntRange(1, 10_000), default=40, show_default=True,
              help="Trials (candidate parameter sets) of the search.")
@click.option("--games", type=click.IntRange(10, 10_000_000), default=1000,
              show_default=True, help="Games per seating per trial (every trial on the same "
              "deals).")
@click.option("--check-games", type=click.IntRange(10, 10_000_000), default=10000,
              show_default=True, help="Fresh deals (games per seating) on which the tuned "
              "and the default policy are measured against the field.")
@click.option("--params", "names", metavar="P1,P2,...", help="Only these parameters [all the "
              "policy declares but temperature].")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True,
              help="Seed of the tuning deals (the fresh deals' seed derives from it).")
@click.option("--workers", type=click.IntRange(min=0),
              help="Worker processes, 0 = one per core [scenario run.workers].")
@click.option("--json", "as_json", is_flag=True, help="Print only the JSON result on stdout.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--out", metavar="DIR", help="Result directory [results/tune-<name>-<UTC time>].")
@click.option("--no-save", is_flag=True, help="Write nothing; print only.")
@click.option("--no-report", is_flag=True, help=NO_REPORT_HELP)
@cli_errors
@backend_options
def tune(scenario_ref, policy, against, budget, games, check_games, names, seed, workers,
         as_json, quiet, out, no_save, no_report):
    """Search a policy's style parameters for the best win rate against a field under
    SCENARIO: duplicate deals (both seatings), the same deals for every trial, Optuna's TPE
    search; the tuned policy is then measured on fresh deals, with a 95% interval, beside the
    default one.

    Example: momojan-sim tune new_edition --policy value --against greedy --budget 40
    """
    from simcore.family import registry as families
    from simcore.studies.results import ResultDir, check_default_root, default_dir
    from simcore.studies.tune import check_inputs, tune as run_tune, tune_text

    if no_save and out:
        raise InputError("--no-save writes nothing: give no --out with it")
    if out is not None and not out.strip():
        raise InputError("--out: an empty path")
    fam, sc = families.load(scenario_ref)
    workers = fam.SCENARIOS.run_defaults(sc)[2] if workers is None else workers
    wanted = None if names is None else [n.strip() for n in names.split(",") if n.strip()]
    if wanted == []:
        raise InputError("--params: an empty list")
    check_inputs(fam, sc, policy, against or policy, wanted)
    talk = None if (quiet or as_json) else (lambda text: click.echo(f"momojan-sim: {text}",
                                                                    err=True))
    if talk:
        talk(f"tuning {policy} against {against or policy} under {sc.name}: {budget} trials "
             f"x {2 * games:,} games, then {2 * check_games:,} fresh games each for the tuned "
             f"and the default")
    rd = None
    if not no_save:
        # The directory is made (and locked) before a game is played: a destination that
        # cannot be written, or that another tune took, is refused now, not after the search
        # (issue 46). A tune that fails or is stopped before it saves removes it again.
        if not out:
            check_default_root()
        path = out or default_dir(f"tune-{sc.name}")
        from simcore.studies.results import check_out_dir
        check_out_dir(path)
        rd = ResultDir.create(path, fam, "tune", [sc], seed, games,
                              {"policy": policy, "against": against or policy,
                               "budget": budget, "check_games": check_games,
                               "params": wanted}, workers)
    res = run_tune(fam, sc, policy, against or policy, budget=budget, games=games,
                   check_games=check_games, seed=seed, workers=workers, names=wanted,
                   progress=talk)
    data = res.to_json()
    path, unsaved = None, None
    if rd is not None:
        try:
            rd.games_done = games
            rd.finish({"kind": "tune", **data}, res.seconds or 0.0, workers)
            path = rd.path
        except InputError as exc:   # the tuned parameters are printed all the same
            rd.games_done = 0       # nothing of it is kept: its directory is removed
            unsaved = f"the tune finished (printed above) but could not be saved: {exc}"
        if path and not no_report:
            render_report(path, notice)
    if as_json:
        click.echo(json.dumps({**data, "result_dir": path} if path else data))
    else:
        click.echo(tune_text(data))
        if path and not quiet:
            notice(saved_line(path, not no_report))
    if unsaved:
        raise InputError(unsaved)


def register(group):
    """Add the ``tune`` command to the ``momojan-sim`` group."""
    group.add_command(tune)

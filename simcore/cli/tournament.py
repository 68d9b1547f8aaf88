"""The ``tournament`` command (thin: parsing and printing; the work is :mod:`simcore.studies.tournament`)."""

from __future__ import annotations

import json

import click

from simcore.cli.common import backend_options, cli_errors, NO_REPORT_HELP, saved_line
from simcore.cli.output import render_report


@click.command()
@click.argument("scenario_ref", metavar="SCENARIO", required=False)
@click.option("--policies", "entrants", metavar="LIST",
              help="Comma-separated entrants, each a policy with optional name=value parameters "
                   "joined by ':' (random,baseline,greedy,value:call=0.8,defensive).")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=500, show_default=True,
              help="Games per seating (2 seats: each pair plays twice this many).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True)
@click.option("--workers", type=click.IntRange(min=0),
              help="Worker processes, 0 = one per core [scenario run.workers].")
@click.option("--json", "as_json", is_flag=True, help="Print only the JSON result on stdout.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--out", metavar="DIR", help="Result directory [results/tournament-<name>-<UTC "
              "time>].")
@click.option("--no-save", is_flag=True, help="Write nothing; print only.")
@click.option("--no-report", is_flag=True, help=NO_REPORT_HELP)
@click.option("--resume", metavar="DIR", help="Finish an interrupted tournament's result "
              "directory (its scenario, entrants, games and seed; no SCENARIO argument).")
@cli_errors
@backend_options
def tournament(scenario_ref, entrants, games, seed, workers, as_json, quiet, out, no_save,
               no_report, resume):
    """Duplicate tournament of policies under SCENARIO (any number of seats): every deal in
    every seating (same seed), a win-rate matrix (row finishes ahead of column) with 95%
    intervals and a Bradley-Terry rating per policy. 2 seats: each pair both ways round; n
    seats: each group of n in all n! seat orders (fewer entrants than seats: every seating
    where each of them plays).

    Example: momojan-sim tournament new_edition --policies random,baseline,greedy,value,defensive
    """
    from simcore.cli.common import Progress, notice
    from simcore.errors import InputError
    from simcore.family import registry as families
    from simcore.studies.tournament import (check_entrants, new_tournament_dir, reopen_tournament, run_tournament, tournament_table)

    if resume:
        if scenario_ref or entrants or out or no_save:
            raise InputError("--resume DIR takes the scenario, entrants and settings from DIR: "
                             "give no SCENARIO, --policies, --out or --no-save with it")
        fam, sc, names, games, seed, chunk, sink = reopen_tournament(resume)
        workers = 0 if workers is None else workers
    else:
        if not scenario_ref:
            raise InputError("tournament: Missing argument 'SCENARIO' (a scenario file or "
                             "bundled name; or --resume DIR)")
        if not entrants:
            raise InputError("tournament: Missing option '--policies' (e.g. greedy,value)")
        names = [e.strip() for e in entrants.split(",")]
        if not all(names):
            raise InputError(f"--policies {entrants}: an empty entry (entrants are separated "
                             f"by single commas)")
        fam, sc = families.load(scenario_ref)
        workers = fam.SCENARIOS.run_defaults(sc)[2] if workers is None else workers
        chunk = None
        if no_save and out:
            raise InputError("--no-save writes nothing: give no --out with it")
        if out is not None and not out.strip():
            raise InputError("--out: an empty path")
        sink = None if no_save else new_tournament_dir(sc, names, games, seed, workers, out)

    made = []

    def keep(view, scenarios, labels, chunk_games):
        rd = sink(view, scenarios, labels, chunk_games) if sink else None
        made.append(rd)
        return rd

    check_entrants(fam, names)   # before the progress line starts
    progress = Progress(quiet or as_json, family=None)
    progress.starting(fam)
    t = run_tournament(sc, names, games, seed, progress, family=fam, workers=workers,
                       notice=notice, sink=keep, chunk_games=chunk)
    progress.done()
    data = t.to_json()
    rd = made[0] if made else None
    error = None
    if rd is not None:
        try:  # a finished tournament is printed even when it cannot be saved
            rd.finish({"kind": "tournament", **data}, t.study.seconds, t.study.workers)
        except (OSError, InputError) as exc:   # results.SaveError: one line naming it
            why = exc.strerror if isinstance(exc, OSError) else str(exc)
            error = InputError(f"--out: the tournament finished (printed above) but {rd.path} "
                               f"could not be completed: {why}")
            rd = None
        else:
            if not no_report:
                render_report(rd.path, notice)
    if as_json:
        click.echo(json.dumps({**data, "result_dir": rd.path} if rd else data))
    else:
        click.echo(tournament_table(t))
        if rd is not None and not quiet:
            notice(saved_line(rd.path, not no_report))
    if error is not None:
        raise error


def register(group):
    """Add the ``tournament`` command to the ``momojan-sim`` group."""
    group.add_command(tournament)

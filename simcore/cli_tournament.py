"""The ``tournament`` command (thin: parsing and printing; the work is :mod:`simcore.tournament`)."""

from __future__ import annotations

import json
import sys
import time

import click

from .cli_study import cli_errors


@click.command()
@click.argument("scenario_ref", metavar="SCENARIO")
@click.option("--policies", "entrants", required=True, metavar="LIST",
              help="Comma-separated entrants, each a policy with optional name=value parameters "
                   "joined by ':' (random,baseline,greedy,value:call=0.8,defensive).")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=500, show_default=True,
              help="Games per pair and seating (each pair plays twice this many).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print only the JSON result on stdout.")
@click.option("--out", metavar="DIR", help="Result directory [results/tournament-<name>-<UTC "
              "time>].")
@click.option("--no-save", is_flag=True, help="Write nothing; print only.")
@cli_errors
def tournament(scenario_ref, entrants, games, seed, as_json, out, no_save):
    """Duplicate round robin of policies under SCENARIO: every deal twice with the seats swapped
    (same seed), a win-rate matrix with 95% intervals and a Bradley-Terry rating per policy.

    Example: momojan-sim tournament new_edition --policies random,baseline,greedy,value,defensive
    """
    from .errors import InputError
    from .momojan import scenario as scenario_mod
    from .tournament import run_tournament, tournament_table

    names = [e.strip() for e in entrants.split(",") if e.strip()]
    if len(names) < 2:
        raise InputError("--policies: a tournament needs at least two entrants")
    if len(set(names)) != len(names):
        raise InputError("--policies: an entrant is listed twice")
    sc = scenario_mod.load(scenario_ref)

    def progress(a, b):
        if not as_json and sys.stderr.isatty():
            click.echo(f"  {a} vs {b} done", err=True)

    started = time.monotonic()
    t = run_tournament(sc, names, games, seed, progress)
    data = t.to_json()
    path, error = None, None
    if not no_save:
        from .momojan import family
        from .results import save_result
        try:  # a finished tournament is printed even when it cannot be saved
            path = save_result(family, "tournament", [sc], seed, games, data, out=out,
                               options={"policies": names}, workers=1,
                               seconds=time.monotonic() - started)
        except InputError as exc:
            error = exc
    if as_json:
        click.echo(json.dumps({**data, "result_dir": path} if path else data))
    else:
        click.echo(tournament_table(t))
    if error is not None:
        raise error
    if path and not as_json:
        click.echo(f"momojan-sim: saved {path}", err=True)


def register(group):
    """Add the ``tournament`` command to the ``momojan-sim`` group."""
    group.add_command(tournament)

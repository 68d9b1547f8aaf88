"""The ``mechanics`` command (thin: parsing and printing; the work is
:mod:`simcore.studies.mechanics`)."""

from __future__ import annotations

import json

import click

from simcore.cli.common import cli_errors
from simcore.cli.output import check_writable, write_file


@click.command()
@click.argument("scenario_ref", metavar="SCENARIO")
@click.option("--games", type=click.IntRange(2, 10_000_000), default=1000, show_default=True,
              help="Deals per kind of decision (each played in every seating).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=1, show_default=True)
@click.option("--workers", type=click.IntRange(min=0),
              help="Worker processes, 0 = one per core [scenario run.workers]; the numbers are "
                   "the same whatever the count.")
@click.option("--chart", metavar="FILE", help="Also draw the costs with their intervals "
              "(.png or .svg).")
@click.option("--json", "as_json", is_flag=True, help="Print only the JSON result on stdout.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@cli_errors
def mechanics(scenario_ref, games, seed, workers, chart, as_json, quiet):
    """Which decisions carry skill under SCENARIO: the family's best bot against itself with
    one seat restricted from one kind of decision at a time (never call, never riichi, always
    riichi, ...: what the family declares), in duplicate (every deal in every seating). Each
    restriction's cost in share of game wins, with a 95% interval and a verdict.

    Example: momojan-sim mechanics new_edition --games 2000 --chart mechanics.png
    """
    import os

    from simcore.cli.common import Progress, notice
    from simcore.errors import InputError
    from simcore.family import registry as families
    from simcore.studies.mechanics import mechanics_chart, mechanics_study, mechanics_table

    fam, sc = families.load(scenario_ref)
    if not fam.MECHANICS:
        raise InputError(f"mechanics: the {fam.NAME} family declares no kinds of decision")
    if chart is not None:
        if os.path.splitext(chart)[1].lower() not in (".png", ".svg"):
            raise InputError(f"--chart {chart!r}: expected a .png or .svg file")
        check_writable(chart, "--chart")   # held before play: never overwritten
    workers = fam.SCENARIOS.run_defaults(sc)[2] if workers is None else workers
    progress = Progress(quiet or as_json, label="games", family=None)
    progress.starting(fam)
    res = mechanics_study(fam, sc, games, seed, progress=progress, workers=workers,
                          notice=None if quiet or as_json else notice)
    progress.done()
    if chart:
        res["chart"] = chart
    # the numbers first: a chart that cannot be written (a full disk) never loses them
    click.echo(json.dumps(res, indent=1) if as_json else mechanics_table(res))
    if chart:
        try:
            write_file(chart, mechanics_chart(res, os.path.splitext(chart)[1][1:].lower()),
                       "--chart")
        except OSError as exc:
            raise InputError(f"--chart: {chart} could not be written ({exc.strerror}); the "
                             f"table above is the result") from None
        if not as_json:
            click.echo(f"\nchart: {chart}")


def register(group):
    """Add the ``mechanics`` command to the ``momojan-sim`` group."""
    group.add_command(mechanics)

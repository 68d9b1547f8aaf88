"""The ``play`` command (registered on ``simcore.cli.main``): a designer plays one game of a
scenario against its bots in the terminal. The game itself is :mod:`simcore.studies.play`; this
module is the prompt: the table, the legal actions with short keys, undo, the rules in play,
and the game saved after every decision (Ctrl-C or ``q`` keeps it: ``--resume FILE``)."""

from __future__ import annotations

import sys
import time

import click

from simcore.cli.common import cli_errors
from simcore.errors import InputError, shell_word

HELP = ("keys: a number takes that action · h shows what each bot would do · u undoes your "
        "last decision · ? shows the rules this scenario changes · q saves and stops")


def _rules_in_play(fam, sc) -> list:
    """The scenario's rule values that differ from the family's default scenario."""
    from simcore.family.tables import flat
    base = flat(fam.SCENARIOS.load(fam.DEFAULT_SCENARIO).to_dict())
    mine = flat(sc.to_dict())
    skip = ("name", "description", "players", "run")
    diff = [f"  {k}: {mine[k]}  (default {base.get(k)})" for k in sorted(mine)
            if k.split(".")[0] not in skip and base.get(k) != mine[k]]
    return diff or ["  (the family's default rules)"]


@click.command()
@click.argument("scenario_ref", metavar="SCENARIO", required=False)
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True,
              help="Your seat; the scenario's players sit at the others.")
@click.option("--seed", type=click.IntRange(min=0, max=2 ** 64 - 1),
              help="The deal's seed [the scenario's run.seed]: game --game of this seed is the "
              "game run plays.")
@click.option("--game", type=click.IntRange(min=0, max=2 ** 63 - 1), default=0, show_default=True,
              help="Which game of the seed.")
@click.option("--save", "save_path", metavar="DIR", help="The result directory the game is "
              "kept in, after every decision [results/play-<scenario>-<UTC time>]; a name "
              "ending in .json: that file alone.")
@click.option("--resume", metavar="DIR", help="Go on with a saved game (its scenario, seat, "
              "seed and decisions).")
@click.option("--web", is_flag=True, help="Play in the browser: a page served on 127.0.0.1 "
              "only (open the address it prints).")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=0, show_default=True,
              help="With --web: the port (0: a free one).")
@cli_errors
def play(scenario_ref, seat, seed, game, save_path, resume, web, port):
    """Play one game of SCENARIO yourself against its bots, on the same engine and rules as
    run.

    At each of your decisions the table is drawn (what your seat may see: your hand, every
    seat's revealed sets and discards, the indicators, scores, pot and stock) and your legal
    actions are listed with a number each; a decision with one legal action is taken for you.
    The game is saved after every decision.

    Example: momojan-sim play new_edition --seat 0 --seed 7
    """
    from simcore.studies.play import PlaySession, refuse_foreign_save
    if resume:
        if scenario_ref:
            raise InputError("--resume: the saved game names its scenario; give no SCENARIO")
        session = PlaySession.load(resume)
        save_path = save_path or resume
    else:
        from simcore.family import registry
        fam, sc = registry.load(scenario_ref or registry.get(registry.DEFAULT).DEFAULT_SCENARIO)
        if seed is None:
            seed = int(sc.get("run.seed"))
        session = PlaySession(fam, sc, seat, seed, game)
        if not save_path:
            stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            save_path = f"results/play-{sc.name or fam.NAME}-{stamp}"
    fam = session.fam
    if not fam.SEAT_VIEW:
        raise InputError(f"play: the {fam.NAME} family draws no table for a human seat yet "
                         "(Family.SEAT_VIEW)")
    bound = None
    if web:
        from .play_web import bind
        bound = bind(port)
    if not resume or not PlaySession.same_game(save_path, resume):
        refuse_foreign_save(save_path)
    try:
        session.save(save_path)
    except OSError as e:
        raise InputError(f"--save {save_path}: cannot write ({e.strerror})") from None
    click.echo(f"momojan-sim: you are seat {session.seat} of {session.sc.name or fam.NAME} "
               f"({fam.TITLE}), seed {session.seed}, game {session.game}; saved as you go in "
               f"{save_path}")
    try:
        if web:
            from .play_web import serve
            title = f"seat {session.seat} of {session.sc.name or fam.NAME} ({fam.TITLE})"
            serve(session, save_path, title, bound, echo=click.echo)
            click.echo(f"momojan-sim: saved {save_path} ({len(session.decisions)} decisions)")
            return
        click.echo(HELP)
        _loop(session, save_path)
    except (KeyboardInterrupt, EOFError, click.exceptions.Abort) as stop:
        # click's prompt turns Ctrl-C, a stop signal (simcore.runners.signals remembers which)
        # and the end of input into Abort (the first two it saw as KeyboardInterrupt, the last
        # as EOFError, kept as the Abort's context): each keeps the game and says how to go on,
        # as q does; the end of input is no interrupt (exit 1, as a shell's `read` gives)
        session.save(save_path)
        from simcore.runners.signals import received
        if isinstance(stop, click.exceptions.Abort):
            try:   # the prompt's line is open: the stop's line starts a line of its own
                click.echo("")
            except OSError:   # the terminal is gone (SIGHUP): its line is cli_errors' to try
                pass
        kept = (f"the game so far is in {save_path}: momojan-sim play --resume "
                f"{shell_word(save_path)}")
        ended = isinstance(stop, EOFError) or isinstance(stop.__context__, EOFError)
        if ended and received() is None:   # a stop signal met at the end of input is the signal
            click.echo(f"momojan-sim: the input ended before the game did ({kept})", err=True)
            sys.exit(1)
        exc = KeyboardInterrupt()
        exc.kept = kept
        raise exc from None


def _loop(session, save_path: str) -> None:
    from simcore.studies.play import Finished
    fam = session.fam
    rounds_seen = 0
    while True:
        turn = session.step()
        if isinstance(turn, Finished):
            from simcore.studies.play import game_over_lines
            for line in ["", *session.round_end_lines(turn, since=max(rounds_seen - 1, 0)), "",
                         *game_over_lines(fam, turn, session.seat)]:
                click.echo(line)
            click.echo(f"momojan-sim: saved {save_path} ({len(session.decisions)} decisions)")
            return
        rounds = session.rounds_started(turn)
        if rounds != rounds_seen:
            if rounds > 1:   # the rounds since the last shown ended: how, who paid whom
                click.echo("")
                for line in session.round_end_lines(turn, since=max(rounds_seen - 1, 0)):
                    click.echo(line)
            click.echo(f"\n--- round {rounds} ---")
            rounds_seen = rounds
        if len(turn.actions) == 1:   # nothing to choose: taken for you, said in one line
            a, label = turn.actions[0]
            click.echo(f"  ({label})")
            session.play(a, turn)
            session.save(save_path)
            continue
        click.echo("")
        for line in turn.lines:
            click.echo(line)
        for i, (_, label) in enumerate(turn.actions, 1):
            click.echo(f"  {i:>2}  {label}")
        while True:
            key = click.prompt(f"your move [1-{len(turn.actions)}, h, u, ?, q]", default="",
                               show_default=False).strip().lower()
            if key.isdigit() and 1 <= int(key) <= len(turn.actions):
                session.play(turn.actions[int(key) - 1][0], turn)
                break
            if key == "u":
                click.echo("  undone" if session.undo() else "  nothing to undo")
                break
            if key == "h":
                for bot, label in session.hints(turn):
                    click.echo(f"  {bot:<12} would {label}")
                continue
            if key == "?":
                for line in _rules_in_play(fam, session.sc):
                    click.echo(line)
                continue
            if key == "q":
                raise KeyboardInterrupt
            click.echo(f"  {key!r} is not a choice. {HELP}")
        session.save(save_path)


@click.command()
@click.argument("files", metavar="PLAYED...", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print only JSON on stdout.")
@cli_errors
def played(files, as_json):
    """Your finished games (the result directories play saved) against the scenario's bot in
    your seat on the same deals: your share of wins, the bot's, and the difference with a 95%
    interval.

    Example: momojan-sim played results/play-*
    """
    import json as _json
    from simcore.studies.play import played_summary
    out = played_summary(files)
    if as_json:
        click.echo(_json.dumps(out, indent=1))
        return

    def pct(e):
        ci = "" if e["ci"][0] is None else f" [{100 * e['ci'][0]:.1f}, {100 * e['ci'][1]:.1f}]"
        return f"{100 * e['value']:.1f}%{ci}"
    for r in out["games_list"]:
        click.echo(f"  {r['file']}: {r['scenario']} seat {r['seat']}, seed {r['seed']} game "
                   f"{r['game']}: you {r['yours']:.2f}, {r['bot_policy']} {r['bot']:.2f}")
    for f in out["unfinished"]:
        click.echo(f"  {f}: not finished, left out")
    click.echo(f"{out['games']} games: your share of wins {pct(out['yours'])}, the bot's in your "
               f"seat on the same deals {pct(out['bot'])}; difference "
               f"{100 * out['difference']['value']:+.1f} pp"
               + ("" if out["difference"]["ci"][0] is None else
                  f" [{100 * out['difference']['ci'][0]:+.1f}, "
                  f"{100 * out['difference']['ci'][1]:+.1f}]")
               + f": {out['verdict']}.")


def register(group):
    group.add_command(play)
    group.add_command(played)

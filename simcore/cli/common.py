"""What every command of the CLI shares: one-line errors, the progress display, notices, the
target and the options common to the playing commands (``--backend``, ``--no-luck-correction``).

The only layer that imports click is :mod:`simcore.cli`; the runner and the luck correction it
switches are plain library code (:mod:`simcore.runners`, :mod:`simcore.stats.luck`).
"""

from __future__ import annotations

import functools
import os
import sys
import time

import click

from simcore.errors import InputError, one_line, shell_word

from simcore.family.chunks import rounds_played
from simcore.family.compiling import kernels_cached
from simcore.runners import RAY_INSTALL, runner_factory, use_runner
from simcore.runners.local import WorkerDied
from simcore.stats.luck import switched

TARGET_HELP = ("Play in batches until the 95% half-width of the headline metric ({what}) is at "
               "most W (in the metric's units: 0.002 = 0.2 percentage points), capped by "
               "--max-games. The stopping rule looks at the width only, never at the "
               "estimate or its significance, so the intervals stay honest.")
NO_REPORT_HELP = ("Save the result but draw no report (figures take seconds; "
                  "`momojan-sim report DIR` draws it later).")


def saved_line(path, reported: bool) -> str:
    """The line saying where a result was saved, and where its report is."""
    if reported:
        return f"saved {path}/ (report: {os.path.join(path, 'report.html')})"
    return f"saved {path}/ (no report: `momojan-sim report {shell_word(path)}` draws it)"


def replay_hint(path, variants: list) -> str:
    """How to replay one of a saved result's games from anywhere (its scenario, seats, seed)."""
    which = f" --variant {variants[-1]}" if len(variants) > 1 else ""
    # the directory as given (not an absolute path into this checkout: issue 46)
    return (f"replay any of its games: momojan-sim replay {shell_word(path)} --game N{which}"
            f" (the report links games that show each metric)")


def fail(message: str) -> None:
    click.echo(f"momojan-sim: error: {one_line(message)}", err=True)
    sys.exit(2)


def cli_errors(fn):
    """Bad input: one line and exit 2. Ctrl-C: the workers are already stopped by the runner;
    one line and exit 130 (128 + SIGINT, what shells expect). SIGTERM and SIGHUP take the same
    path (:mod:`simcore.runners.signals`): exit 143 and 129. An interrupt may carry ``kept``, a
    phrase saying what the command keeps of its work (``tune``: its best trial so far)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        before = _active()   # only a result directory this command made is its to handle
        reserved = set(getattr(sys.modules.get("simcore.studies.results"), "_RESERVED", ()))
        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            _discard_unplayed(before)
            fail(str(exc))
        except WorkerDied as exc:   # the OOM killer, a kill -9 of one worker: not a bug here
            Progress.clear_line()
            _discard_unplayed(before)
            click.echo(f"momojan-sim: error: {one_line(str(exc))}" + _resume_hint(before),
                       err=True)
            sys.exit(1)
        except KeyboardInterrupt as exc:
            from simcore.runners.signals import exit_status, what
            try:
                Progress.clear_line()
                kept = getattr(exc, "kept", None)
                click.echo(f"momojan-sim: {what(exc)}" + (f" ({kept})" if kept else "")
                           + _resume_hint(before), err=True)
            except OSError:   # the terminal is gone (SIGHUP)
                pass
            sys.exit(exit_status(exc))
        finally:  # an error after progress.starting(): its slow-start line must not come later
            Progress.cancel_timers()
            from simcore.cli.output import drop_placeholders
            drop_placeholders()   # an --out FILE.json it held and did not write
            _release_active(before)
            res = sys.modules.get("simcore.studies.results")
            if res is not None:
                res.drop_reservations(reserved)   # an --out taken before play, not written

    return wrapper


def _active(before=None):
    """The result directory this command is writing (None: none, or still ``before``, the
    one that was active when the command started: another command's in this process)."""
    res = sys.modules.get("simcore.studies.results")
    rd = getattr(res, "ACTIVE", None) if res else None
    return None if rd is before and before is not None else rd


def _discard_unplayed(before=None) -> None:
    """A command that fails before its first chunk leaves no result directory behind."""
    rd = _active(before)
    if rd is not None and rd.discard_if_unplayed():
        sys.modules["simcore.studies.results"].ACTIVE = None


def _release_active(before=None) -> None:
    """The command is over: let go of its result directory's write lock (a process that ends
    lets go anyway; tests that run commands in one process must too)."""
    rd = _active(before)
    if rd is not None:
        rd.release()


def _resume_hint(before=None) -> str:
    """Where the saved chunks of an interrupted result directory are, and how to finish it
    (a command without --resume, tune, leaves nothing: its unfinished directory is removed);
    where a finished one is, when the command was stopped after saving it."""
    res = sys.modules.get("simcore.studies.results")
    rd = _active(before)
    if rd is None or rd.family is None:
        return ""
    if rd.prov.get("status") == "complete":   # stopped while its report was drawn (a QA trial)
        where = shell_word(rd.path)
        return (f" (the result is saved in {rd.path}: momojan-sim show {where} prints it, "
                f"momojan-sim report {where} draws its report)")
    if rd.prov.get("kind") not in getattr(res, "RESUMABLE", ()):
        if rd.discard_if_unplayed():
            res.ACTIVE = None
        return ""
    return (f" ({rd.games_done:,} {rd.family.GAME_WORDS[1]} saved in {rd.path}; finish with "
            f"momojan-sim {rd.prov['kind']} --resume {shell_word(rd.path)})")


class Progress:
    """Progress on stderr: a bar (tqdm) with games, rounds/s and ETA on a terminal, otherwise a
    line every few seconds (none for a run shorter than that); nothing with ``quiet``.

    Before the first chunk: one line when the compiled kernels are not cached yet (they compile,
    about a minute on 2 cores), or, if the first chunk is slow to come for another reason, one
    line saying the workers are still starting.
    """

    EVERY = 5.0
    SLOW_START = 10.0
    _open_line = False
    _bar = None
    _timers: list = []        # slow-start timers not yet cancelled (every Progress)

    def __init__(self, quiet: bool = False, label: str | None = None, family=None):
        # a family's own word: P-style counts matches
        label = label or getattr(family, "GAME_WORDS", ("game", "games"))[1]
        self.quiet, self.label, self.family = quiet, label, family
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.rounds = 0
        self.first = None         # (time, games done) at the first chunk: rates exclude start-up
        self._timer = None
        self._said_compiling = False
        self._kernels = "the game kernels"   # what a slow start is loading or compiling

    def starting(self, family=None, scenarios=None):
        """Say so when the kernels have to compile (and if the first chunk is slow anyway).
        When every one of ``scenarios`` (if given) seats a ``search`` bot, the policies' kernel
        is not played (nor its helpers compiled: :func:`simcore.studies.study.run_study`), so
        its cache is not asked about; the search kernel's compile speaks for itself
        (:func:`simcore.family.compiling.compile_search`). Commands that do not pass their
        variants (tournament, solve, design, mechanics) say the line when the policies' kernel
        is cold."""
        if self.quiet:
            return
        fam = family or self.family
        from simcore.family.chunks import all_search
        searching = all_search(scenarios)
        self._kernels = "the search bot's kernel" if searching else "the game kernels"
        cached = searching or kernels_cached(fam)
        if not cached:
            notice(COMPILE_NOTE)
            self._said_compiling = True
        self._arm()

    def _arm(self):
        import threading
        self._timer = threading.Timer(self.SLOW_START, self._slow)
        self._timer.daemon = True
        self._timer.start()
        Progress._timers.append(self._timer)

    @staticmethod
    def cancel_timers():
        """Cancel every pending slow-start line (a command that failed after starting)."""
        while Progress._timers:
            Progress._timers.pop().cancel()

    def _slow(self):
        """Every SLOW_START seconds until the first chunk: say it is still starting (no silent
        wait longer than that)."""
        if self.first is not None:
            return
        waited = time.perf_counter() - self.t0
        if self._said_compiling:
            notice(f"still compiling the game kernels ({waited:.0f} s)")
        elif waited < 1.5 * self.SLOW_START:
            notice(f"still starting after 10 s: loading or compiling {self._kernels} (a "
                   "compile takes about a minute on 2 cores, once; a busy machine slows the load)")
        else:
            notice(f"still starting ({waited:.0f} s)")
        if self._timer in Progress._timers:
            Progress._timers.remove(self._timer)
        self._arm()

    def __call__(self, done: int, planned: int, res=None):
        if self._timer is not None:
            self._timer.cancel()
        if self.quiet:
            return
        now = time.perf_counter()
        if res is not None and self.family is not None:
            self.rounds += sum(rounds_played(self.family, res.sums, v)
                               for v in range(res.sums.variants))
        if self.first is None:
            self.first = (now, done, self.rounds)
        t1, g1, r1 = self.first
        span = now - t1
        # rates and ETA from the first chunk on, never the start-up (loading or compiling the
        # kernels): until a second chunk is in there is no rate to give
        steady = span > 0 and done > g1
        grate = (done - g1) / span if steady else 0.0
        rrate = (self.rounds - r1) / span if steady else 0.0
        eta = (planned - done) / grate if grate > 0 else 0
        if sys.stderr.isatty():
            self._tty(done, planned, rrate)
            return
        if now - self.last >= self.EVERY:
            if steady:
                extra = f", {rrate:,.0f} rounds/s" if self.rounds else ""
                click.echo(f"momojan-sim: {done}/{planned} {self.label} ({grate:,.0f}/s{extra})"
                           f", ETA {_hms(eta)}", err=True)
            else:
                click.echo(f"momojan-sim: {done}/{planned} {self.label} (the first chunk, "
                           f"after {_hms(now - self.t0)} of start-up; ETA from the next)",
                           err=True)
            self.last = now

    def _tty(self, done, planned, rrate):
        try:
            from tqdm import tqdm
        except ImportError:  # a plain rewritten line
            click.echo(f"\r{done}/{planned} {self.label}", err=True, nl=False)
            Progress._open_line = True
            return
        bar = Progress._bar
        if bar is None or bar.total != planned:
            if bar is not None:
                bar.close()
            # from the games done at the first chunk: tqdm's rate and ETA count from there
            bar = Progress._bar = tqdm(total=planned, unit=" " + self.label, file=sys.stderr,
                                       dynamic_ncols=True, leave=False, unit_scale=True,
                                       initial=done)
        bar.update(done - bar.n)
        if self.rounds and rrate:
            bar.set_postfix_str(f"{rrate:,.0f} rounds/s", refresh=True)

    def done(self):
        if self._timer is not None:
            self._timer.cancel()
        Progress.clear_line()

    @staticmethod
    def clear_line():
        if Progress._bar is not None:
            Progress._bar.close()
            Progress._bar = None
        if Progress._open_line:
            click.echo("", err=True)
            Progress._open_line = False


COMPILE_NOTE = ("compiling the game kernels (first run after a change, or of a family the "
                "install did not compile: about a minute on 2 cores; cached after that)")


def _hms(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def notice(text: str):
    Progress.clear_line()
    click.echo(f"momojan-sim: {text}", err=True)


def _settings(fam, sc, games, seed, workers):
    d_games, d_seed, d_workers = fam.SCENARIOS.run_defaults(sc)
    return (games or d_games, d_seed if seed is None else seed,
            d_workers if workers is None else workers)


def target_for(fam, target_ci, target_metric, games, max_games):
    from simcore.studies.compare import select_metrics
    from simcore.studies.study import Target

    if target_ci is None:
        if max_games is not None:
            raise InputError("--max-games only applies with --target-ci")
        if target_metric is not None:
            raise InputError("--target-metric only applies with --target-ci")
        return None, games
    metric = select_metrics(target_metric or fam.HEADLINE, fam.CATALOGUE, "--target-metric")[0]
    if max_games is not None and max_games < games:
        raise InputError(f"--max-games {max_games:,} is below --games {games:,} (the first "
                         f"batch of --target-ci): raise --max-games or lower --games")
    max_games = max_games or max(1_000_000, games)
    return Target(metric, target_ci), max_games


def backend_options(fn):
    """Click decorator: ``--backend local|ray`` and ``--address HOST:PORT|auto``; the command
    body runs with the chosen runner as :func:`selected_runner`. Put it just above ``def`` (under
    the command's error handler, so a bad choice is one line and exit 2)."""

    @functools.wraps(fn)
    def wrapper(*args, backend="local", address=None, **kwargs):
        with use_runner(runner_factory(backend, address)):
            return fn(*args, **kwargs)

    wrapper = click.option(
        "--address", metavar="HOST:PORT|auto",
        help="With --backend ray: the cluster to join (`auto`: the one `ray start` runs on "
             "this node) [start a local Ray instance with --workers CPUs].")(wrapper)
    wrapper = click.option(
        "--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
        help=f"Run chunks in local worker processes or as Ray tasks ({RAY_INSTALL}).")(wrapper)
    return wrapper


def luck_option(fn):
    """Click decorator: ``--no-luck-correction``; the command body runs with the correction
    :func:`switched` off when given. Put it just above ``def``."""
    @functools.wraps(fn)
    def wrapper(*args, no_luck_correction=False, **kwargs):
        with switched(not no_luck_correction):
            return fn(*args, **kwargs)

    return click.option(
        "--no-luck-correction", is_flag=True,
        help="Plain estimates: do not subtract the luck of the draws the engine measures "
             "(README: luck correction).")(wrapper)

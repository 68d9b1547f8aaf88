"""The ``momojan-sim`` command line. Thin: it parses options and calls library functions."""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import json
import os
import sys

import click

from simcore.cli.common import (backend_options, cli_errors, luck_option, NO_REPORT_HELP,
                                replay_hint, saved_line)
from simcore.cli.output import check_writable, drop_placeholders, render_report, write_file, write_out
from simcore.cli.design import register as _register_design
from simcore.cli.play import register as _register_play
from simcore.cli.solve import register as _register_solve
from simcore.cli.study import register as _register_study
from simcore.cli.tournament import register as _register_tournament
from simcore.cli.mechanics import register as _register_mechanics
from simcore.cli.tune import register as _register_tune
from simcore.cli.types import FiniteFloat
from simcore.errors import InputError, a_, one_line, shell_word
from simcore.family import registry as _registry
from simcore.family.players import with_players
from simcore.family.summary import summarize, summary_table
from simcore.family.tables import waits_table

SEED_MAX = 2**64 - 1   # the engine takes the base seed as a uint64
GAME_MAX = 2**63 - 1   # game indices are int64


def _fail(message: str) -> None:
    click.echo(f"momojan-sim: error: {one_line(message)}", err=True)
    sys.exit(2)


class _OneLineError(click.ClickException):
    """A usage error (bad option value, missing argument) shown as the one line every bad input
    gets, instead of click's usage block."""

    def __init__(self, exc: click.ClickException):
        ctx = getattr(exc, "ctx", None)
        where = f"{ctx.info_name}: " if ctx is not None and ctx.parent is not None else ""
        super().__init__(where + exc.format_message())
        self.exit_code = exc.exit_code

    def show(self, file=None):
        click.echo(f"momojan-sim: error: {one_line(self.message)}", err=True)


# click >= 8.2 raises this for a bare `momojan-sim`: the help text, which stays as it is
_HELP_AS_ERROR = getattr(click.exceptions, "NoArgsIsHelpError", ())


@contextlib.contextmanager
def _one_line_errors():
    try:
        yield
    except (_OneLineError, _HELP_AS_ERROR):
        raise
    except click.ClickException as exc:
        raise _OneLineError(exc) from None
    except ValueError as exc:
        if "null byte" not in str(exc):
            raise
        # a path option's check (click.Path) meets a NUL byte before any command code runs
        raise _OneLineError(click.UsageError("a NUL byte in an argument (a path cannot hold "
                                             "one)", click.get_current_context(True))) from None


class _PlainHelp(click.HelpFormatter):
    """--help without the docstrings' markup: ``x`` and `x` (reST and Markdown quoting) are
    written as 'x'."""

    @staticmethod
    def plain(text: str) -> str:
        import re
        return re.sub(r"``?([^`]+?)``?", r"'\1'", text)

    def write_text(self, text):
        super().write_text(self.plain(text))

    def write_dl(self, rows, *args, **kwargs):
        super().write_dl([(a, self.plain(b)) for a, b in rows], *args, **kwargs)

    def write_usage(self, prog, args="", prefix=None):
        super().write_usage(prog, self.plain(args), prefix)


class _Context(click.Context):
    formatter_class = _PlainHelp


class _Command(click.Command):
    context_class = _Context


def _refusing_empty_values(cmd):
    """``cmd``'s callback, refusing an option or argument given as an empty string
    (``--players ''``, ``--metrics ''``, ``--html ''``, ``--file ''``, ``plan A ''``): each
    meant "the default" without a word, or was ignored (issue 46). An option whose bare form
    stands for a value (``show --diff``) keeps it."""
    fn = cmd.callback
    options = {p.name: p for p in cmd.params if isinstance(p, click.Option) and not p.is_flag
               and not getattr(p, "_flag_needs_value", False)}
    options.update({p.name: p for p in cmd.params   # SCENARIO, DIR, HAND: '' is none of them
                    if isinstance(p, click.Argument) and p.nargs == 1})

    every = {p.name: p for p in cmd.params}

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        for name, value in kwargs.items():
            p = options.get(name)
            values = value if isinstance(value, (tuple, list)) else (value,)
            if p is not None and any(isinstance(v, str) and not v.strip() for v in values):
                raise click.BadParameter("an empty value", ctx=click.get_current_context(),
                                         param=p)
            # a NUL byte (a path with one was a ValueError traceback; no command line holds
            # one, but Python callers of main() and test runners can)
            if name in every and any(isinstance(v, str) and "\0" in v for v in values):
                raise click.BadParameter("a NUL byte in the value",
                                         ctx=click.get_current_context(), param=every[name])
        return fn(*args, **kwargs)

    wrapper._refuses_empty = True
    return wrapper


class _Group(click.Group):
    """The ``momojan-sim`` group: click's own usage errors become one line too (commands that
    other modules register on ``main`` included); --help without markup (:class:`_PlainHelp`)."""

    context_class = _Context
    command_class = _Command

    def add_command(self, cmd, name=None):
        cmd.context_class = _Context   # commands other modules register: plain help too
        if cmd.callback is not None and not getattr(cmd.callback, "_refuses_empty", False):
            cmd.callback = _refusing_empty_values(cmd)
        super().add_command(cmd, name)

    def make_context(self, *args, **kwargs):
        try:
            with _one_line_errors():
                return super().make_context(*args, **kwargs)
        except OSError as exc:   # --help or --version > /dev/full (a QA trial: a traceback)
            if not _stdout_failed(exc):
                raise
            _fail(f"cannot write the output to stdout: {exc.strerror or exc}")

    def invoke(self, ctx):
        # SIGTERM and SIGHUP stop a command as Ctrl-C does (simcore.runners.signals); a command
        # that does not catch it itself (cli_errors does, with what it saved) still ends with
        # one line and 128 + the signal, not click's "Aborted!" and exit 1.
        from simcore.runners.signals import exit_status, stop_on_signals, what
        if sys.stdout is None:   # `>&-`: the answer would vanish without a word (a QA trial)
            _fail("stdout is closed: nowhere to print the answer (give it a file: > out.txt, "
                  "or > /dev/null to drop it)")
        with stop_on_signals():
            try:
                with _one_line_errors():
                    return super().invoke(ctx)
            except KeyboardInterrupt as exc:
                try:
                    click.echo(f"momojan-sim: {what(exc)}", err=True)
                except OSError:   # the terminal is gone (SIGHUP)
                    pass
                sys.exit(exit_status(exc))
            except OSError as exc:
                if not _stdout_failed(exc):
                    raise
                if isinstance(exc, BrokenPipeError):   # `| head`: the reader has what it wanted
                    sys.exit(128 + 13)                # as a process SIGPIPE ends (sh: 141)
                # `> /dev/full`, a full disk under `> out.txt`: one line, not a traceback
                # (a result directory says for itself where it could not save)
                _fail(f"cannot write the output to stdout: {exc.strerror or exc}")


def _stdout_failed(exc: OSError) -> bool:
    """Whether ``exc`` came from writing to stdout (``click.echo``'s ``file`` is stdout in the
    frame that raised it); if so, stdout is pointed at /dev/null, so that Python's own flush at
    exit adds no second error."""
    tb, hit = exc.__traceback__, False
    while tb is not None and not hit:
        f = tb.tb_frame.f_locals.get("file")
        hit = f is not None and (f is sys.stdout or f is sys.__stdout__
                                 or getattr(f, "name", None) == "<stdout>")
        tb = tb.tb_next
    if hit:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, sys.stdout.fileno())
            finally:
                os.close(null)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            pass
    return hit


def input_errors_exit_2(fn):
    """Bad input becomes one line on stderr and exit status 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            _fail(str(exc))
        finally:
            drop_placeholders()   # an --html it held and did not write

    return wrapper


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="momojan-sim", prog_name="momojan-sim")
def main():
    """Simulation-based balance testing for small mahjong-like card games: MOMOJAN (桃雀) and
    the other game families ({families}; 'momojan-sim scenarios' lists their scenarios). Start
    with 'momojan-sim run new_edition'; the README shows how to read what it prints."""


main.help = main.help.replace("{families}", ", ".join(_registry.names()))   # the one list


def _read_lines(hands, file):
    """(line label, text) pairs from arguments or a file (``-`` for stdin); blank lines skipped."""
    if hands and file:
        raise InputError("give hands as arguments or with --file, not both")
    if file:
        lines = [(label, _hand_text(label, line)) for label, line in _file_lines(file)
                 if line.strip() and not line.lstrip().startswith("#")]
        if not lines:   # an empty file drew an empty table: a TypeError
            raise InputError(f"--file: {'stdin' if file == '-' else file} holds no hand (every "
                             f"line is blank or a # comment)")
        return lines
    if not hands:
        raise InputError("no hand given (pass hands as arguments or use --file PATH)")
    return [(f"argument {i}", _hand_text(f"argument {i}", h)) for i, h in enumerate(hands, 1)]


MAX_HAND_CHARS = 500   # a hand is a few dozen characters; the parsers need not see 100 kB


def _hand_text(label: str, text: str) -> str:
    if len(text) > MAX_HAND_CHARS:
        raise InputError(f"{label}: a hand of {len(text):,} characters (at most "
                         f"{MAX_HAND_CHARS})")
    return text


MAX_FILE_BYTES = 64 * 2**20   # --file: a million hands fit; /dev/zero or a disk image does not


def _file_lines(file):
    """(label, text) of every line of ``--file`` (``-``: stdin), read in bounded pieces: a line
    longer than a hand can be, a NUL byte (a binary file), bytes that are not UTF-8 or more than
    :data:`MAX_FILE_BYTES` in all stop at once with one line naming the file and the line
    (``/dev/zero`` is refused after one piece, not read into memory for ever)."""
    name = "stdin" if file == "-" else file
    if file == "-" and sys.stdin is None:   # `<&-`: no stdin at all
        raise InputError("--file -: stdin is closed (give the hands on stdin or a file)")
    stream = getattr(sys.stdin, "buffer", None) if file == "-" else _open(file)
    if stream is None:   # a text stdin without bytes beneath (a test harness)
        stream = io.BytesIO(sys.stdin.read().encode("utf-8", "surrogateescape"))
    piece = 4 * MAX_HAND_CHARS + 2   # a whole hand, in UTF-8's widest, and its line end
    out, total = [], 0
    with contextlib.ExitStack() as stack:
        if file != "-":
            stack.enter_context(stream)
        for n in itertools.count(1):
            try:
                raw = stream.readline(piece)
            except OSError as exc:
                raise InputError(f"--file: cannot read {name}: {exc.strerror}") from None
            if not raw:
                break
            total += len(raw)
            if total > MAX_FILE_BYTES:
                raise InputError(f"--file: {name} holds more than {MAX_FILE_BYTES // 2**20} MB "
                                 f"of hands (split it)")
            if b"\0" in raw:
                raise InputError(f"--file: {name} line {n}: a NUL byte (a binary file, not hands "
                                 f"in text)")
            if len(raw) >= piece and not raw.endswith(b"\n"):
                raise InputError(f"--file: {name} line {n}: longer than a hand can be (at most "
                                 f"{MAX_HAND_CHARS} characters)")
            try:
                # an editor's byte-order mark before the first hand is not part of it
                text = raw.decode("utf-8-sig" if n == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(f"--file: {name} is not UTF-8 text (byte 0x{raw[exc.start]:02x} "
                                 f"at offset {total - len(raw) + exc.start}), line {n}") from None
            out.append((f"line {n}", text.rstrip("\r\n")))
    return out


def _open(path):
    try:
        return open(path, "rb")
    except OSError as exc:
        raise InputError(f"--file: cannot read {path}: {exc.strerror}") from None


def _hand_family(game, rules, command):
    """(family, scenario) for the hand command ``command`` (``waits``, ``score``): ``--game``
    names the family (its default scenario unless ``--rules``), else the ``--rules`` scenario's
    family, else MOMOJAN; an error if the family has no hands to analyse."""
    from simcore.family import registry as families
    from simcore.family.base import Family

    if game is None and rules is not None:
        fam = families.family_of(rules)
    else:
        fam = families.get(game or families.DEFAULT)
        if rules is not None and families.family_name_of(rules) != fam.NAME:
            raise InputError(f"--rules {rules}: {a_(families.family_name_of(rules))} scenario, "
                             f"not {a_(fam.NAME)} one (--game {game})")
    method = f"{command}_json"
    if getattr(type(fam), method) is getattr(Family, method):
        raise InputError(f"{command}: the {fam.NAME} family has no hands to analyse (its "
                         f"family writes no {method})")
    return fam, fam.SCENARIOS.load(rules or fam.DEFAULT_SCENARIO)


def _game_help() -> str:
    from simcore.family.registry import DEFAULT, FAMILIES
    return f"The game family ({', '.join(FAMILIES)}) [the --rules scenario's; else {DEFAULT}]."


_GAME_HELP = _game_help()
_RULES_HELP = "Scenario file or bundled scenario name [the game family's default scenario]."


@main.command()
@click.argument("hands", nargs=-1)
@click.option("--file", "file", metavar="PATH", help="Read one hand per line ('-' for stdin).")
@click.option("--rules", metavar="SCENARIO", help=_RULES_HELP)
@click.option("--game", metavar="NAME", help=_GAME_HELP)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand, in input order.")
@input_errors_exit_2
def waits(hands, file, rules, game, as_json):
    """Waits, completeness and distance to tenpai of hands in card notation.

    Example: momojan-sim waits "kai:111z chi:789o 23o 44z 123l"
    """
    lines = _read_lines(hands, file)
    fam, sc = _hand_family(game, rules, "waits")
    # Everything first: a bad line stops the run before anything is printed.
    reports = []
    for label, text in lines:
        try:
            reports.append(fam.waits_json(text, sc))
        except InputError as exc:
            raise InputError(f"{label}: {exc}{_other_family_hint(text, fam, game)}") from None
    if as_json:
        for r in reports:
            click.echo(json.dumps(r, ensure_ascii=False))
    else:
        click.echo(waits_table(reports))


def _other_family_hint(text: str, fam, game) -> str:
    """Where a hand does not read in the family asked for but does in another: say which."""
    if game:
        return ""
    from simcore.family import registry as families
    for name in families.FAMILIES:
        other = families.get(name)
        if other is fam:
            continue
        try:
            other.waits_json(text, other.SCENARIOS.load(other.DEFAULT_SCENARIO))
        except Exception:  # noqa: BLE001  (any failure: no hint)
            continue
        return f" (a {other.TITLE} hand? add --game {name})"
    return ""


@main.command()
@click.argument("files", nargs=-1, required=True)
def validate(files):
    """Check scenario files (and what they extend): OK, or every error of the file (a line each),
    for every file; exit status 2 if any was bad."""
    from simcore.family import registry as families

    from simcore.errors import InputErrors

    bad = 0
    for f in files:
        try:
            _, sc = families.load(f, every_error=True)
        except InputErrors as exc:   # every wrong key of the file, a line each
            for m in exc.messages:
                click.echo(f"momojan-sim: error: {one_line(InputError(m))}", err=True)
            bad += 1
            continue
        except InputError as exc:
            click.echo(f"momojan-sim: error: {one_line(exc)}", err=True)
            bad += 1
            continue
        click.echo(f"{f}: OK ({sc.name})")
    if bad:
        sys.exit(2)


@main.command()
@click.argument("file")
@click.option("--diff", "diff_base", is_flag=False, flag_value="", default=None,
              metavar="[BASE]", help="Also mark every value that differs from BASE (a scenario "
              "file or bundled name; --diff alone: the scenario FILE extends).")
@input_errors_exit_2
def show(file, diff_base):
    """Print the fully resolved scenario (after extends, defaults filled in) as YAML, each value
    with its tag ([R] rulebook, [I] interpretation, reconstructed [X]) and meaning as a comment;
    a value the file itself sets is marked [set by FILE] instead, and with --diff a value that
    differs from the base [differs: BASE has V].

    Given a result directory, print its summary (the table `run` printed; JSON of compare and
    sweep results) and where it came from."""
    from simcore.family import registry as families
    from simcore.family.scenario.marks import base_of, mark_yaml, show_marks
    from simcore.studies.results import is_result_dir

    if is_result_dir(file):
        if diff_base is not None:
            raise InputError(f"show {file}: --diff is for scenarios, not result directories")
        from simcore.studies.results import reading
        with reading(file, "show"):
            click.echo(_show_result(file))
        return
    try:
        fam, sc = families.load(file)
    except InputError as exc:
        if os.path.exists(file):
            raise
        # show also reads result directories: say so where neither was found
        raise InputError(f"{one_line(exc)}; nor a result directory (results/<name>-<time>/, "
                         f"as run, compare and sweep print)") from None
    base, base_name = None, None
    if diff_base is not None:
        ref = diff_base or base_of(sc)
        if not ref:
            raise InputError(f"show --diff: {file} extends no scenario; name the base "
                             f"(--diff BASE)")
        try:
            base_fam, base = families.load(str(ref))
        except InputError as exc:
            raise InputError(f"show --diff: {exc}") from None
        if base_fam is not fam:
            raise InputError(f"show --diff {ref}: {a_(families.family_name_of(str(ref)))} "
                             f"scenario; {file} is another game's")
        base_name = base.name
    title = f"{sc.name}: resolved from {sc.path}" if sc.path else sc.name
    if base is not None:
        title += f"; compared with {base_name}"
    text = mark_yaml(fam.scenario_yaml(sc, title), show_marks(fam, sc, base, base_name))
    click.echo(text, nl=False)


def _show_result(path):
    from simcore.family.registry import of_result
    from simcore.studies.results import load

    res = load(path)
    prov = res.provenance
    fam = of_result(prov)
    words = fam.GAME_WORDS[1]
    played = prov.get("games_played") or 0
    if res.summary is None:
        from simcore.studies.results import saved_games
        played = saved_games(path)   # the chunks on disk (provenance lags behind them)
    head = (f"{path}: {prov['kind']}, {prov['status']}, {played:,} {words}"
            + (f" of {prov['games']:,} saved" if res.summary is None else "")
            + f", seed {prov['seed']}, {prov['started_utc']} .. "
              f"{prov.get('finished_utc') or '-'}; {prov['command_line']}"
            + ("; plain estimates (no luck correction)"
               if prov["options"].get("luck_correction") is False else ""))
    if res.summary is None:
        from simcore.studies.results import RESUMABLE
        if prov["kind"] not in RESUMABLE:   # tune: saved at its end, and has no --resume
            return (head + f"\nunfinished: no summary yet (a {prov['kind']} still running, "
                           f"or one stopped before it could save; {prov['kind']} has no "
                           f"--resume)")
        if prov["status"] == "complete":
            return (head + f"\nits summary.json is missing (deleted or lost): write it again "
                           f"from the saved {words}, playing nothing, with momojan-sim "
                           f"{prov['kind']} --resume {path}")
        return (head + f"\nincomplete: {played:,} of {prov['games']:,} {words} saved, no "
                       f"summary yet (finish it with momojan-sim {prov['kind']} --resume "
                       f"{path})")
    if prov["kind"] == "run":
        body = summary_table(fam, res.summary)
    elif prov["kind"] == "compare":
        from simcore.studies.compare import VERDICTS
        s = res.summary
        lines = [f"compare {s['a']} (a) with {s['b']} (b): {s['games']} games, "
                 f"{'paired' if s['paired'] else 'independent'}"]
        if s.get("tuned"):
            from simcore.studies.tune import tuned_variant_text
            lines += ["play adapted to each variant:"] + [
                "  " + tuned_variant_text(t) for t in s["tuned"]]
        cat = {m.name: m for m in fam.CATALOGUE}
        from simcore.studies.compare import sentence
        for n, r in s["metrics"].items():
            if r["verdict"] in VERDICTS[:1]:
                lines.append("- " + sentence(dict(r, metric=n), cat[n], s["b"]))
        body = "\n".join(lines)
    elif prov["kind"] == "sweep":
        s = res.summary
        cat = {m.name: m for m in fam.CATALOGUE}
        lines = [f"sweep of {s['base']}: {len(s['variants']) - 1} variants, {s['games']} games "
                 f"each, seed {s['seed']}"]
        for name in s["variants"][0]["metrics"]:
            m = cat[name]
            lines += ["", f"{name}: {m.description} (per {m.per})"]
            for v in s["variants"]:
                e = v["metrics"][name]
                val = "-" if e["value"] is None else (
                    f"{100 * e['value']:.2f}% [{100 * e['ci'][0]:.2f}, {100 * e['ci'][1]:.2f}]"
                    if m.is_rate else f"{e['value']:.3f} [{e['ci'][0]:.3f}, {e['ci'][1]:.3f}]")
                lines.append(f"  {v['label']:<40} {val:<30} {e.get('verdict', '(base)')}")
        body = "\n".join(lines)
    elif prov["kind"] == "solve" and "verdict" in res.summary:
        from simcore.studies.solve import solve_text
        cat = {m.name: m for m in fam.CATALOGUE}
        body = solve_text(res.summary, cat[res.summary["metric"]])
    elif prov["kind"] == "tune" and "fresh" in res.summary:
        from simcore.studies.tune import tune_text
        body = tune_text(res.summary)
    elif prov["kind"] == "tournament" and "ratings" in res.summary:
        from simcore.studies.tournament import tournament_table
        body = tournament_table(res.summary)
    else:
        body = json.dumps(res.summary, indent=1)[:20000]
    if res.summary.get("note"):
        body += "\n\n" + res.summary["note"]
    return head + "\n\n" + body


@main.command()
@click.argument("directory", metavar="DIR")
@input_errors_exit_2
def report(directory):
    """(Re)draw the report of a result directory: report.md (figures in figures/) and a
    self-contained report.html (images inline)."""
    from simcore.report.html import render
    from simcore.studies.results import read_provenance

    from simcore.studies.results import reading
    read_provenance(directory, "report")
    with reading(directory, "report"):
        html_path, md_path = render(directory)
    click.echo(html_path)
    click.echo(md_path)


@main.command("scenarios")
@input_errors_exit_2
def list_scenarios():
    """List the bundled scenarios (usable by name anywhere a scenario is asked for), each with
    its game family and description."""
    from simcore.family import registry as families

    rows = families.bundled()
    width = max(len(name) for name, _, _ in rows)
    fwidth = max(len(f) for _, f, _ in rows)
    for name, fam_name, description in rows:
        click.echo(f"{name:<{width}}  {fam_name:<{fwidth}}  {description}")


@main.command()
@click.argument("hand")
@click.option("--win", "win", metavar="CARD", help="The winning card (in a family whose hand "
              "text does not carry it, e.g. the default).")
@click.option("--by", "by", type=click.Choice(["ron", "tsumo"]), help="How the win came [tsumo].")
@click.option("--riichi", is_flag=True, help="The winner had declared riichi.")
@click.option("--ippatsu", is_flag=True, help="Won before their next discard after riichi.")
@click.option("--dora-indicator", "dora", metavar="CARD", help="The face-up dead-wall card.")
@click.option("--last-card", is_flag=True, help="Tsumo on the last stock card / ron on the last discard.")
@click.option("--rinshan", is_flag=True, help="Won on a kan replacement card (old edition).")
@click.option("--rules", metavar="SCENARIO", help=_RULES_HELP)
@click.option("--game", metavar="NAME", help=_GAME_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@input_errors_exit_2
def score(hand, win, by, riichi, ippatsu, dora, last_card, rinshan, rules, game, as_json):
    """Score a win: HAND holds the revealed groups and the concealed cards without the winning card
    (given with --win and the other options); in a game family whose hand text carries the win
    and its context, HAND alone (docs/commands.md, "momojan-sim score").

    Example: momojan-sim score "kai:111z kai:456o chi:789o 23o 44z" --win 1o --by ron --riichi
    --dora-indicator 3l --rules new_edition_confirmed_only
    """
    hand = _hand_text("HAND", hand)
    fam, sc = _hand_family(game, rules, "score")
    given = {"win": win, "by": by, "riichi": riichi, "ippatsu": ippatsu, "dora": dora,
             "last_card": last_card, "rinshan": rinshan}
    # Only the options given reach the family (one whose hand text carries the context gets
    # none; an option it does not know is its error to report).
    opts = {k: v for k, v in given.items() if v not in (None, False)}
    if as_json:
        click.echo(json.dumps(fam.score_json(hand, sc, **opts)))
    else:
        click.echo(fam.score_text(hand, sc, **opts))


@main.command()
@click.argument("scenario_ref", metavar="SCENARIO", required=False)
@click.option("--games", type=click.IntRange(1, GAME_MAX), help="Games to play [scenario run.games].")
@click.option("--seed", type=click.IntRange(0, SEED_MAX), help="Base seed [scenario run.seed].")
@click.option("--workers", type=click.IntRange(min=0),
              help="Worker processes, 0 = one per core [scenario run.workers].")
@click.option("--json", "as_json", is_flag=True, help="Print only the summary JSON on stdout.")
@click.option("--out", metavar="DIR", help="Result directory [results/<name>-<UTC time>]; a name "
              "ending in .json writes only the summary JSON there (no directory).")
@click.option("--resume", metavar="DIR", help="Finish an interrupted run's result directory "
              "(its scenario, seed and games; no SCENARIO argument).")
@click.option("--records", is_flag=True, help="Also keep the per-round records "
              "(rounds/*.parquet in the result directory).")
@click.option("--no-save", is_flag=True, help="Write nothing; print the summary only.")
@click.option("--no-report", is_flag=True, help=NO_REPORT_HELP)
@click.option("--debug", is_flag=True, help="Check the engine's invariants as it plays (slower).")
@click.option("--target-ci", type=FiniteFloat(min=1e-6), metavar="W",
              help="Play in batches until the 95% half-width of --target-metric is at most W "
                   "(metric units: 0.002 = 0.2 percentage points), capped by --max-games; "
                   "--games is the first batch. Stopping on width, never on the estimate or "
                   "its significance, keeps the intervals honest.")
@click.option("--target-metric", metavar="METRIC", help="Metric for --target-ci "
              "[first_dealer_win_rate].")
@click.option("--max-games", type=click.IntRange(1, GAME_MAX), help="Cap for --target-ci "
              "[1,000,000].")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--players", metavar="SEATS", help="Seats instead of the scenario's players: "
              "greedy,value or value:call=0.8,greedy (one entry per seat, or one for all).")
@cli_errors
@backend_options
@luck_option
def run(scenario_ref, games, seed, workers, as_json, out, resume, records, no_save, no_report,
        debug, target_ci, target_metric, max_games, quiet, players):
    """Play games of SCENARIO between its seats (its players: list), summarise them and keep
    the result.

    The result directory (results/<name>-<UTC time>/, or --out DIR) holds the resolved scenario,
    provenance.json, summary.json, the per-game table (Parquet), the report (report.html,
    report.md). Statistics stream from the workers chunk by chunk (memory does not grow with
    --games), and every finished chunk is saved: Ctrl-C (exit 130) or a kill leaves whole
    chunks, and --resume DIR finishes the run with the numbers an uninterrupted run gives.

    Example: momojan-sim run scenarios/new_edition.yaml --games 20000 --seed 1
    """
    from simcore.cli.common import Progress, notice, target_for
    from simcore.studies.directory import finish_study, open_study, resume_study
    from simcore.studies.study import run_study

    for option, value in (("--resume", resume), ("--out", out)):
        if value is not None and not value.strip():
            raise InputError(f"{option}: an empty path")
    if no_save and out:
        raise InputError("--no-save writes nothing: give no --out with it")
    summary_file = out if out and out.lower().endswith(".json") else None
    if resume:
        if scenario_ref or out or no_save or records or games or seed is not None \
                or target_ci or max_games or target_metric or players or debug:
            raise InputError("--resume DIR takes the scenario and settings from DIR: give no "
                             "SCENARIO, --out, --games, --seed, --records, --players, --debug "
                             "or --target-* with it")
        st = resume_study("run", resume, workers)
        o = st.options
        debug = o.get("debug", False)
        target_ci, target_metric, max_games = o.get("target_ci"), o.get("target_metric"), \
            o.get("max_games")
    else:
        if not scenario_ref:
            raise InputError("run: Missing argument 'SCENARIO' (a scenario file or bundled "
                             "name; or --resume DIR)")
        if summary_file:
            check_writable(summary_file)
        options = {"target_ci": target_ci, "target_metric": target_metric,
                   "max_games": max_games, "records": records, "debug": debug}
        save = not (no_save or summary_file)
        st = open_study("run", [scenario_ref], games=games, seed=seed, workers=workers,
                        options=options, players=players, out=out if save else None,
                        save=save)
    family, (sc,), games, seed, workers = st.family, st.scenarios, st.games, st.seed, st.workers
    target, cap = target_for(family, target_ci, target_metric, games, max_games)
    sink = st.create()
    progress = Progress(quiet, family=family)
    progress.starting(family, [sc])
    result = run_study(family, [sc], seed, games, workers, target=target, max_games=cap,
                       debug=debug, progress=progress, notice=notice, sink=sink)
    progress.done()
    data = summarize(family, sc, seed, result.sums, result.reached)
    found = result.extras.to_json(family, family.CATALOGUE) if result.extras else {}
    data.update({k: found[k] for k in ("breakdown", "yaku_table", "examples") if k in found})
    summary = finish_study(st, data, result)
    text = json.dumps(summary)
    # Print first: if --out fails after all, or a signal stops the report's drawing, the
    # finished run is still on the screen. With --json the result directory is a key of the
    # printed JSON (not of summary.json) instead of a line on stderr.
    click.echo(json.dumps({**summary, "result_dir": sink.path} if sink else summary)
               if as_json else summary_table(family, summary))
    if sink is not None:
        if not no_report and not st.unsaved:
            render_report(sink.path, notice)
    if st.unsaved:   # the numbers are on the screen: say where they could not be saved
        raise InputError(st.unsaved)
    if sink is not None and not quiet and not as_json:
        notice(saved_line(sink.path, not no_report))
        notice(replay_hint(sink.path, [sc.name]))
    if summary_file:
        write_out(summary_file, text + "\n")


@main.command()
@click.argument("target", metavar="SCENARIO|RESULT_DIR|PLAYED")
@click.option("--seed", type=click.IntRange(0, SEED_MAX),
              help="Base seed [the result directory's, else the scenario's run.seed].")
@click.option("--game", type=click.IntRange(0, GAME_MAX), default=0, show_default=True,
              help="Game index within the seed.")
@click.option("--round", "round_no", type=click.IntRange(1, None),
              help="Only this round of the game (1 = the first).")
@click.option("--variant", metavar="NAME|I",
              help="Of a result directory with several variants: which one (name or index).")
@click.option("--players", metavar="SEATS", help="Seats instead of the scenario's players: "
              "greedy,value or value:call=0.8,greedy (one entry per seat, or one for all).")
@click.option("--html", "html_file", type=click.Path(dir_okay=False),
              help="Also write the replay as an HTML page (one section per round) to this file.")
@input_errors_exit_2
def replay(target, seed, game, round_no, variant, players, html_file):
    """A readable play-by-play of one game: hands and revealed sets on every line, draws,
    calls, discards, wins with their scoring, and the ante, pot and payments as a ledger.

    TARGET is a scenario or a result directory (its scenario, seats and seed, so a replay line
    from a report works from any directory), or a game you played (the directory `play` saved). The
    same (scenario, seed, game) is the same game that `run` played.
    """
    from simcore.family.replay import replay_html, replay_text
    from simcore.report.replays import open_target

    played = _played_game(target)
    if played is not None:   # a game a designer played (momojan-sim play): its own seed, game
        if seed is not None or game or variant or players:
            raise InputError(f"{target}: a played game names its seed, game and seats; give "
                             "only --round or --html")
        family, seed, game = played.fam, played.seed, played.game
        from simcore.studies.play import Finished
        if not isinstance(played.step(), Finished):
            raise InputError(f"{target}: the game is not finished (momojan-sim play --resume "
                             f"{target} goes on with it)")
        if html_file:
            check_writable(html_file, "--html")
        click.echo(f"a game played at seat {played.seat} ({len(played.decisions)} decisions)")
        r = played.replay().only_round(round_no, family.GAME_WORDS[0])
    else:
        family, sc, saved_seed, _ = open_target(target, variant)
        sc = with_players(family, sc, players)
        if seed is None:
            seed = saved_seed if saved_seed is not None else family.SCENARIOS.run_defaults(sc)[1]
        if html_file:
            check_writable(html_file, "--html")
        r = family.replay(sc, seed, game).only_round(round_no, family.GAME_WORDS[0])
    text = replay_text(r)
    click.echo(text)
    if html_file:
        try:
            write_file(html_file, replay_html(r, _replay_line(target, seed, game, round_no,
                                                              variant)), "--html")
        except OSError as exc:
            raise InputError(f"--html: {html_file} could not be written: {exc.strerror}") \
                from None
    if html_file:
        click.echo(f"momojan-sim: wrote {html_file}", err=True)


def _played_game(target):
    """The PlaySession of a game ``play`` saved (its result directory or play.json), else
    None."""
    from simcore.studies.play import PlaySession
    return PlaySession.load(target) if PlaySession.is_saved_game(target) else None


def _replay_line(target, seed, game, round_no, variant) -> str:
    return (f"momojan-sim replay {shell_word(target)} --seed {seed} --game {game}"
            + (f" --round {round_no}" if round_no else "") + (f" --variant {variant}" if variant
                                                              else ""))


_register_study(main)
_register_solve(main)
_register_design(main)
_register_play(main)
_register_tournament(main)
_register_mechanics(main)
_register_tune(main)

if __name__ == "__main__":
    main()

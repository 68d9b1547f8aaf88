"""The ``momojan-sim`` command line. Thin: it parses options and calls library functions."""

from __future__ import annotations

import functools
import json
import sys

import click

from .errors import InputError


def _fail(message: str) -> None:
    click.echo(f"momojan-sim: error: {message}", err=True)
    sys.exit(2)


def input_errors_exit_2(fn):
    """Bad input becomes one line on stderr and exit status 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except InputError as exc:
            _fail(str(exc))

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Simulation-based balance testing for MOMOJAN (桃雀)."""


def _read_lines(hands, file):
    """(line label, text) pairs from arguments or a file (``-`` for stdin); blank lines skipped."""
    if hands and file:
        raise InputError("give hands as arguments or with --file, not both")
    if file:
        stream = sys.stdin if file == "-" else _open(file)
        with stream:
            return [(f"line {i}", line.rstrip("\n")) for i, line in enumerate(stream, 1)
                    if line.strip() and not line.lstrip().startswith("#")]
    if not hands:
        raise InputError("no hand given (pass hands as arguments or use --file PATH)")
    return [(f"argument {i}", h) for i, h in enumerate(hands, 1)]


def _open(path):
    try:
        return open(path, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"--file: cannot read {path}: {exc.strerror}") from None


@main.command()
@click.argument("hands", nargs=-1)
@click.option("--file", "file", metavar="PATH", help="Read one hand per line ('-' for stdin).")
@click.option("--rules", default="new_edition", show_default=True,
              help="Scenario file or bundled scenario name.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand, in input order.")
@input_errors_exit_2
def waits(hands, file, rules, as_json):
    """Waits, completeness and distance to tenpai of hands in card notation.

    Example: momojan-sim waits "kai:111z chi:789o 23o 44z 123l"
    """
    from .momojan.analysis import describe
    from .momojan.editions import hand_rules
    from .momojan.hand import HandAnalyzer

    lines = _read_lines(hands, file)
    analyzer_rules = hand_rules(rules)
    # Parse everything first: a bad line stops the run before anything is printed.
    from .momojan.analysis import parse_hand_for
    for label, text in lines:
        try:
            parse_hand_for(text, analyzer_rules)
        except InputError as exc:
            raise InputError(f"{label}: {exc}") from None
    analyzer = HandAnalyzer(analyzer_rules)
    reports = [describe(text, analyzer) for _, text in lines]
    if as_json:
        for r in reports:
            click.echo(json.dumps(r, ensure_ascii=False))
        return
    width = max(len("hand"), *(len(r["input"]) for r in reports))
    click.echo(f"{'hand':<{width}}  cards  tenpai  complete  shanten  waits")
    for r in reports:
        click.echo(f"{r['input']:<{width}}  {r['concealed']:>2}+{r['revealed']}"
                   f"  {'yes' if r['tenpai'] else 'no':<6}  {'yes' if r['complete'] else 'no':<8}"
                   f"  {r['shanten']:>7}  {' '.join(r['waits']) or '-'}")


if __name__ == "__main__":
    main()

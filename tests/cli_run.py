"""The CLI in-process for tests (click's runner): every argument as a string."""

from click.testing import CliRunner

from simcore.cli import main


def cli(*args):
    """The result of ``momojan-sim ARGS``."""
    return CliRunner().invoke(main, [str(a) for a in args])


def cli_ok(*args):
    """The result of ``momojan-sim ARGS``, which must exit 0 (else its output is the failure)."""
    r = cli(*args)
    assert r.exit_code == 0, r.output
    return r

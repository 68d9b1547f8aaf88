"""``python -m simcore.cli``: the same program as the ``momojan-sim`` command."""

from simcore.cli import main

main()

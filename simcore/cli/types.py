"""Option types the commands share: numbers that must be finite (click's FloatRange lets NaN
through, since every comparison with NaN is false, and takes inf as a number)."""

from __future__ import annotations

import math

import click


class FiniteFloat(click.FloatRange):
    """A FloatRange that also refuses nan and inf, naming the option."""

    name = "finite float"

    def convert(self, value, param, ctx):
        try:
            f = float(value)
        except (TypeError, ValueError, OverflowError):
            self.fail(f"{str(value)[:40]!r} is not a number", param, ctx)
        if not math.isfinite(f):
            self.fail(f"{str(value)[:40]!r} is not a finite number", param, ctx)
        return super().convert(f, param, ctx)

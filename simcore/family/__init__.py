"""What a game family is, and the kit every family builds on.

A family is a subclass of :class:`simcore.family.base.Family` in its own package
(``simcore/<name>/family.py`` defines ``FAMILY = TheFamily()``), registered by name in
:mod:`simcore.family.registry`. The harness (run, compare, sweep, plan, tournament, results, reports,
backends, the CLI) calls only the methods and attributes of that class. The modules here are the
game-agnostic rest: :mod:`.chunks` (the chunk function and the simulator base), :mod:`.summary`
(a run's summary and its table), :mod:`.common` (payloads, Parquet columns, rule differences),
:mod:`.conformance` (the check every family passes).
"""

"""Errors that mean "bad input": the CLI prints them as one line and exits with status 2."""


class InputError(ValueError):
    """Bad user input (a hand string, a scenario file, a CLI option). The message names where."""

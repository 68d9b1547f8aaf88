"""Errors that mean "bad input": the CLI prints them as one line and exits with status 2."""


class InputError(ValueError):
    """Bad user input (a hand string, a scenario file, a CLI option). The message names where."""


def shown(value) -> str:
    """A value as an error message quotes it: ``"five"``, ``true``, ``null``, ``a list``, ``7.5``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "null"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "a mapping"
    return repr(value)

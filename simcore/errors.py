"""Errors that mean "bad input": the CLI prints them as one line and exits with status 2."""


class InputError(ValueError):
    """Bad user input (a hand string, a scenario file, a CLI option). The message names where."""


class InputErrors(InputError):
    """Every error found in one input (``validate`` of a scenario file); as one line, the first
    with a count of the others."""

    def __init__(self, messages: list):
        self.messages = list(messages)
        more = len(self.messages) - 1
        super().__init__(self.messages[0] + (f" (and {more} more error{'s' if more > 1 else ''}"
                                             f": validate lists them all)" if more else ""))


def shown(value) -> str:
    """A value as an error message quotes it: ``"five"``, ``true``, ``null``, ``a list``, ``7.5``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value[:60]}..." ({len(value):,} characters)' if len(value) > 80 \
            else f'"{value}"'
    if value is None:
        return "null"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "a mapping"
    if isinstance(value, int) and abs(value) >= 10 ** 30:
        digits = len(str(abs(value))) if value.bit_length() < 14000 else "thousands of"
        return f"an integer of {digits} digits"
    text = repr(value)
    return text if len(text) <= 80 else text[:60] + "..."


def a_(word) -> str:
    """``word`` with its article: ``a momojan``, ``an emoji`` (a family name in a message)."""
    word = str(word)
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def cut(text, limit: int = 60) -> str:
    """``text`` as an error message echoes it: at most ``limit`` characters (a 100 kB hand is
    named by its start and its length, not printed whole)."""
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def one_line(message) -> str:
    """An error message as the CLI prints it: one line, and no echo of a huge input (a 100 kB
    hand or value is shown by its start and its length)."""
    import re
    text = " ".join(str(message).split())
    text = re.sub(r"\S{301,}", lambda m: f"{m[0][:60]}...({len(m[0]):,} characters)", text)
    return text if len(text) <= 1000 else text[:960] + f"... ({len(text):,} characters)"


def shell_word(path) -> str:
    """``path`` as a shell reads it back when a suggested command is pasted (a QA trial: a
    folder named ``ü dir`` made every printed ``--resume`` line fail)."""
    import shlex
    return shlex.quote(str(path))

"""Scenario files, game-agnostic part: read one YAML file, follow its ``extends:`` chain, merge.

Each game family's ``scenario.py`` owns its schema, its checks and its wording; what it shares
with the others lives here, parametrised by the family's :class:`~simcore.errors.InputError`
subclass and default scenario name so every message stays the family's own:

- :class:`UniqueKeyLoader`, :func:`load_yaml`: PyYAML's safe loader that refuses a key given
  twice (libyaml's parser where PyYAML has it, the Python one for every error);
- :func:`read_yaml`: one file as a mapping, each problem one line (unreadable, not UTF-8, not
  YAML, empty, not a mapping);
- :func:`deep_merge`, :func:`leaf_paths`, :func:`raw_chain`: the ``extends`` chain merged, and
  which file set each key;
- :func:`file_that_set`: which file of the chain to name in an error;
- :func:`resolve_path`: a path or a bundled name, with a did-you-mean hint;
- :class:`Checker`, :class:`ScenarioBase`: the shared half of a schema checker and of the
  frozen scenario;
- :func:`did_you_mean`, :func:`int_range`, :func:`freeze`, :func:`thaw`, :func:`flow`,
  :func:`comment_at`: small helpers of validation and of the annotated YAML ``show`` prints.

What this implementation simplifies: nothing beyond the families' own modules; this is their
common code moved, not changed.
"""

from __future__ import annotations

import difflib
import importlib.resources
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Iterable

import yaml

from simcore.errors import shown as _kind  # one wording of a bad value


class _UniqueKeys:
    """A key given twice in one mapping is an error (PyYAML keeps the last one silently, so a
    designer's first value would be ignored)."""

    def construct_mapping(self, node, deep=False):
        first_line = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # `<<: *base` overrides on purpose
            key = self.construct_object(key_node, deep=True)
            try:
                seen = first_line.get(key)
            except TypeError:
                continue  # an unhashable key: the base class reports it
            if seen is not None:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r} (first given at line {seen})",
                    key_node.start_mark)
            first_line[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep)


class UniqueKeyLoader(_UniqueKeys, yaml.SafeLoader):
    """PyYAML's safe loader (pure Python), refusing a key given twice: its errors are the ones
    a scenario's messages quote."""


# libyaml's parser with the same constructor and resolver (so the same values), when PyYAML has
# it: about 8x faster on a scenario file. Anything it cannot parse goes to the Python loader,
# whose error is the one reported.
_FastLoader = (type("_FastUniqueKeyLoader", (_UniqueKeys, yaml.CSafeLoader), {})
               if getattr(yaml, "__with_libyaml__", False) else None)


# Text where the two parsers are known to differ, which the Python one decides: control
# characters (refused before parsing), tabs (`a:<tab>b`), tags (`a: !`), NEL and the Unicode
# line separators, a block scalar's header running into a comment (`|#`), a `?` with a flow
# collection about (PyYAML ends a plain scalar there). tests/harness/test_yaml_loading.py searches
# random YAML for any other difference. (Each check is one linear scan.)
_PYTHON_ONLY = re.compile("[\t!\x85\u2028\u2029]|[|>][-+0-9]*#")


def _python_decides(text: str) -> bool:
    return bool(_PYTHON_ONLY.search(text) or yaml.reader.Reader.NON_PRINTABLE.search(text)
                or ("?" in text and ("{" in text or "[" in text)))


def load_yaml(text: str):
    """``text`` parsed as :class:`UniqueKeyLoader` parses it (its errors raised; a number too
    long for Python to read, or nesting too deep, as a ``yaml.YAMLError`` too)."""
    data, done = None, False
    if _FastLoader is not None and not _python_decides(text):
        try:
            data, done = yaml.load(text, Loader=_FastLoader), True
        except (yaml.YAMLError, ValueError, RecursionError):
            pass
    if not done:
        try:
            data = yaml.load(text, Loader=UniqueKeyLoader)
        except ValueError as exc:   # int("9" * 5000): Python reads at most 4300 digits
            raise yaml.YAMLError(f"a value Python cannot read ({str(exc).split(':')[0]})") \
                from None
        except RecursionError:
            raise yaml.YAMLError("nested too deeply") from None
    size, depth = _expanded_size(data, MAX_VALUES)
    if size > MAX_VALUES:
        raise yaml.YAMLError(f"more than {MAX_VALUES:,} values once its YAML aliases are "
                             f"expanded (anchors nested in anchors); a scenario is a page of "
                             f"keys")
    if depth > MAX_DEPTH:
        raise yaml.YAMLError(f"nested more than {MAX_DEPTH} levels deep")
    return data


def load_yaml_quietly(path: Path):
    """A file's YAML, or None when it cannot be read or parsed (sniffing ``game:``)."""
    try:
        return load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None


def _control(ch: str) -> bool:
    """A line break or another control character (a tab is plain text)."""
    return (ord(ch) < 32 and ch != "\t") or ord(ch) == 127 or ch in "\x85\u2028\u2029"


def bundled_dir() -> Path:
    """The bundled scenarios: the scenarios/ folder of the checkout this ``simcore`` was imported
    from, when it was imported from one (a ``pyproject.toml`` beside the package: an editable
    install, or a clone on ``PYTHONPATH``, so a clone reads its own scenarios, never those of
    another checkout the machine has installed); else the installed package data
    simcore.scenarios (a wheel: pyproject.toml maps the folder into the package)."""
    root = Path(__file__).resolve().parents[3]
    if (root / "pyproject.toml").is_file() and (root / "scenarios").is_dir():
        return root / "scenarios"
    try:
        return Path(str(importlib.resources.files("simcore.scenarios")))
    except ModuleNotFoundError:
        return root / "scenarios"


INT64_MAX = 2 ** 63 - 1
MAX_FILE_BYTES = 1 << 20      # a scenario file is a page of keys, not megabytes
MAX_VALUES = 100_000          # values once YAML aliases are expanded (a bundled file: ~300)
MAX_EXTENDS = 64              # files in one extends chain (the bundled ones: 3 at most)
MAX_DEPTH = 64                # nesting of mappings and lists (the deepest scenario key: 5)


def _expanded_size(data, budget: int) -> tuple[int, int]:
    """(values, depth) of ``data``, counting each alias as often as it is used and stopping
    past ``budget`` values (nested anchors can make a 1 kB text stand for 10^9 values: a YAML
    bomb; every later step, merging, checking, hashing, would walk them all)."""
    n, deepest, stack = 0, 0, [(data, 1)]
    while stack and n <= budget:
        v, depth = stack.pop()
        n += 1
        deepest = max(deepest, depth)
        if isinstance(v, dict):
            stack.extend((x, depth + 1) for x in v.keys())
            stack.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, depth + 1) for x in v)
    return n, deepest


def read_yaml(path: Path, error: type[Exception], default_scenario: str) -> dict:
    """The top-level mapping of one scenario file; any problem raises ``error`` with one line
    naming ``path`` (an empty file's hint names the family's ``default_scenario``)."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise error(f"{path}: {path.stat().st_size:,} bytes; a scenario file is at most "
                        f"{MAX_FILE_BYTES:,} (1 MiB)")
        raw = path.read_bytes()
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not a UTF-8 text file (byte 0x{raw[exc.start]:02x} at "
                    f"offset {exc.start}); a scenario is YAML text") from None
    try:
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise error(f"{path}: not valid YAML{where}: {problem}") from None
    except (RecursionError, MemoryError):
        raise error(f"{path}: nested too deeply to read as a scenario") from None
    if data is None:
        raise error(f"{path}: the file is empty (no keys); a scenario that changes "
                    f"nothing is `extends: {default_scenario}`")
    if not isinstance(data, dict):
        raise error(f"{path}: expected a mapping of keys at the top, got {_kind(data)}")
    return data


def deep_merge(base: dict, over: dict) -> dict:
    """``base`` with ``over`` merged in: mappings merge key by key, anything else is replaced."""
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def nested(key: str, value) -> dict:
    """``{"a": {"b": value}}`` for the dotted key ``a.b`` (an override of one rule key)."""
    d = value
    for part in reversed(key.split(".")):
        d = {part: d}
    return d


def leaf_paths(d: dict, prefix: str = ""):
    """Every dotted key path of ``d``: leaves and the non-empty mappings above them."""
    for k, v in d.items():
        p = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            yield from leaf_paths(v, p + ".")
        yield p


OVERRIDES = Path("--set")   # the "file" that set a key given as an override (sweep --set)


def file_that_set(key_path: str, origin: dict[str, Path], fallback: Path) -> Path:
    """The file that set ``key_path`` (or its nearest parent) in an ``extends`` chain, so an
    error points home; ``fallback`` when none did."""
    parts = key_path.split(".")
    for i in range(len(parts), 0, -1):
        p = ".".join(parts[:i])
        if p in origin:
            return origin[p]
    return fallback


def did_you_mean(word: Any, choices: Iterable[str], otherwise: str = "") -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices``, else ``otherwise``."""
    hint = difflib.get_close_matches(str(word), list(choices), n=1)
    return f" (did you mean {hint[0]!r}?)" if hint else otherwise


MAX_LISTED = 160   # characters of a list of choices an error line still prints whole


def known_hint(word: Any, choices: Iterable[str], what: str = "keys", listed_by: str = "") -> str:
    """What an error about an unknown ``word`` adds: `` (did you mean 'x'?)`` for a close
    match; else the choices when they are a short list, or their count (and ``listed_by``,
    where to read them) instead of a line of a thousand characters (issue 46)."""
    choices = [str(c) for c in choices]
    close = difflib.get_close_matches(str(word), choices, n=1)
    if close:
        return f" (did you mean {close[0]!r}?)"
    text = ", ".join(choices)
    if len(text) <= MAX_LISTED:
        return f" (expected one of: {text})"
    return (f" (none of the {len(choices)} {what} known here is close"
            + (f"; {listed_by}" if listed_by else "") + ")")


KEYS_LISTED_BY = "'momojan-sim show' of a bundled scenario prints them"


def read_small_text(path: str, label: str, error: type[Exception],
                    limit: int = MAX_FILE_BYTES) -> str:
    """The text of a small UTF-8 file a user names (``label``: the option, ``--targets``); a
    directory, more than ``limit`` bytes (``/dev/zero`` never ends: at most ``limit`` + 1 are
    read), a file that cannot be read or is not UTF-8 raise ``error`` with one line naming it.
    A pipe is read as a file (``--targets <(...)``)."""
    kind = path_kind(Path(path))
    if kind is None:
        raise error(f"{label} {path}: no such file")
    if kind == "dir":
        raise error(f"{label} {path}: is a directory, not a file")
    if kind not in ("file", "other"):
        raise error(f"{label} {path}: cannot read it ({kind})")
    try:
        with open(path, "rb") as f:
            raw = f.read(limit + 1)
    except OSError as exc:
        raise error(f"{label} {path}: cannot read it ({exc.strerror or exc})") from None
    if len(raw) > limit:
        raise error(f"{label} {path}: more than {limit:,} bytes; a text file of a few "
                    f"pages is expected")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{label} {path}: not a UTF-8 text file (byte 0x{raw[exc.start]:02x} at "
                    f"offset {exc.start})") from None


def path_kind(path: Path) -> str | None:
    """``"file"``, ``"dir"``, ``"other"`` (a device, a FIFO) or None (nothing there) for
    ``path``; or why it cannot be looked at (a name too long, a NUL byte, no permission): a bad
    path is bad input, not a traceback."""
    try:
        if path.is_file():
            return "file"
        if path.is_dir():
            return "dir"
        return "other" if path.exists() else None
    except OSError as exc:
        return exc.strerror or str(exc)
    except ValueError:   # "embedded null byte"
        return "a NUL byte in the path"


def resolve_path(ref: str, relative_to: Path | None, bundled_dir: Path,
                 bundled_names: Callable[[], list[str]], error: type[Exception]) -> Path:
    """A scenario reference: an existing path (relative to ``relative_to`` first) or a name
    bundled in ``bundled_dir``; otherwise ``error`` with a hint from ``bundled_names()``."""
    if not ref.strip():
        raise error(f"{ref!r}: an empty scenario name (give a scenario file or a bundled name)")
    candidates = []
    if relative_to is not None:
        candidates.append(relative_to / ref)
    candidates.append(Path(ref))
    for c in candidates:
        kind = path_kind(c)
        if kind == "file":
            return c.resolve()
        if kind == "dir":
            raise error(f"{ref}: is a directory, not a scenario file")
        if kind == "other":   # /dev/null, a FIFO, a socket: nothing a scenario is read from
            raise error(f"{ref}: not a regular file (a scenario is a YAML file)")
        if kind is not None:
            raise error(f"{ref}: cannot read: {kind}")
    bundled = bundled_dir / f"{ref.removesuffix('.yaml')}.yaml"
    if "/" not in ref and path_kind(bundled) == "file":
        return bundled.resolve()
    # every family's bundled names (they share the folder): the file may be of another family
    names = sorted(p.stem for p in bundled_dir.glob("*.yaml")) or bundled_names()
    hint = did_you_mean(ref, names)
    raise error(f"{ref}: no such scenario file or bundled scenario"
                + (f" in {bundled_dir}{hint}" if hint
                   else f" (bundled in {bundled_dir}: {', '.join(names) or 'none'})"))


def raw_chain(path: Path, read: Callable[[Path], dict],
              resolve: Callable[[str, Path], Path], error: type[Exception],
              seen: tuple[Path, ...] = ()) -> tuple[dict, dict[str, Path], list[Path]]:
    """The merged raw data of ``path`` and its ``extends`` chain, which file set each key, and
    the chain's files, base first. ``read(path)`` reads one file, ``resolve(ref, folder)`` finds
    a base; problems raise ``error``."""
    if path in seen:
        chain = " -> ".join(str(p) for p in (*seen, path))
        raise error(f"{path}: extends: cycle ({chain})")
    if len(seen) >= MAX_EXTENDS:
        raise error(f"{seen[0]}: extends: a chain of more than {MAX_EXTENDS} files (at {path})")
    try:
        data = read(path)
    except error as exc:
        raise _in_base(error, exc, path, seen) from None
    base_ref = data.pop("extends", None)
    origin: dict[str, Path] = {}
    files: list[Path] = []
    if base_ref is None:
        merged = {}
    else:
        if not isinstance(base_ref, str):
            raise error(f"{path}: extends: expected a scenario path or name, got "
                        f"{_kind(base_ref)}")
        try:
            base_path = resolve(base_ref, path.parent)
        except error as exc:
            raise _in_base(error, error(f"{path}: extends: {exc}"), path, seen) from None
        merged, origin, files = raw_chain(base_path, read, resolve, error, (*seen, path))
    for key_path in leaf_paths(data):
        origin[key_path] = path
    return deep_merge(merged, data), origin, [*files, path]


def _in_base(error: type[Exception], exc: Exception, path: Path, seen: tuple) -> Exception:
    """``exc``, a problem of ``path`` (its message starts ``PATH: ``), as the user's file's:
    ``in BASE, extended by USER: ...`` when ``path`` is a base of the file the user gave
    (``seen[0]``), so the line names both (issue 46: it named the base alone)."""
    text, head = str(exc), f"{path}: "
    if not seen or not text.startswith(head):
        return exc
    return error(f"in {path}, extended by {seen[0]}: {text[len(head):]}")


def _yaml_kind(value: Any) -> str:
    """What YAML made of a key that is no name: ``null``, ``a boolean``, ``a number``..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "an empty string"
    return f"a {type(value).__name__}"


class Recorded(Exception):
    """A failure recorded while collecting every error (``Checker.errors``): the key is skipped
    (at its default) and the check goes on with the next one."""


class Checker:
    """The shared half of a family's schema checker: ``fail`` names the file of the ``extends``
    chain that set the key, and the int / bool / str leaves. A family subclass sets ``error``
    (its :class:`~simcore.errors.InputError` subclass) and adds its own kinds and checks.
    With ``errors`` a list, ``fail`` records each error there instead of stopping at the first
    (``validate`` reports them all)."""

    error: type[Exception] = ValueError

    def __init__(self, origin: dict[str, Path], fallback: Path):
        self.origin = origin
        self.fallback = fallback
        self.errors: list | None = None

    def shown(self, where: Path) -> str:
        """How an error names the file (the family may shorten it)."""
        return str(where)

    def fail(self, key_path: str, message: str):
        where = file_that_set(key_path, self.origin, self.fallback)
        if where == OVERRIDES:   # the option said it: "--set scoring.ron_bonus: ..."
            text = f"--set {key_path}: {message}"
        elif where != self.fallback and self.fallback != OVERRIDES:
            # a base the user's file extends set it: name both (the user gave the second)
            text = (f"in {self.shown(where)}, extended by {self.shown(self.fallback)}: "
                    f"{key_path}: {message}")
        else:
            text = f"{self.shown(where)}: {key_path}: {message}"
        if self.errors is None:
            raise self.error(text)
        self.errors.append(text)
        raise Recorded(text)

    def check(self, data: Any, schema: dict, prefix: str = "") -> dict:
        """``data`` checked against ``schema`` (a tree of :class:`simcore.family.scenario.schema.Field`
        leaves): every key the schema lists, a missing one at its default, each leaf through
        :meth:`leaf`; an unknown key is refused unless :meth:`extra_entry` gives its node."""
        from simcore.family.scenario.schema import Field
        if not isinstance(data, dict):
            self.fail(prefix.rstrip(".") or "(top)", f"expected a mapping, got {_kind(data)}")
        extra = {}
        for key in data:
            if key not in schema:
                try:
                    node = self.extra_entry(prefix, key, data[key])
                    if node is None and not (isinstance(key, str) and key.strip()):
                        # `null: 1`, `true: 1`, `1: 2`, `"": 1` read as "None: unknown key"
                        self.fail(f"{prefix}{_kind(key)}", f"not a key name (YAML reads it as "
                                  f"{_yaml_kind(key)}; the keys here are names)"
                                  + known_hint(key, schema, "keys", KEYS_LISTED_BY))
                    if node is None:
                        self.fail(f"{prefix}{key}", "unknown key" + known_hint(
                            key, schema, "keys", KEYS_LISTED_BY) + self.unknown_hint(prefix))
                except Recorded:
                    continue
                extra[key] = node
        out = {}
        for key, node in schema.items():
            path = f"{prefix}{key}"
            try:
                if isinstance(node, Field):
                    out[key] = self.leaf(path, node, data.get(key, node.default))
                else:
                    out[key] = self.check(data.get(key, {}), node, path + ".")
            except Recorded:   # recorded: carry on at the default
                out[key] = node.default if isinstance(node, Field) else self.check({}, node,
                                                                                   path + ".")
        for key, node in extra.items():
            try:
                out[key] = self.check(data[key], node, f"{prefix}{key}.")
            except Recorded:
                pass
        return out

    def extra_entry(self, prefix: str, key: str, value: Any):
        """The schema of an entry the schema does not list but a table allows (a family's
        hook), or None: an unknown key."""
        return None

    def unknown_hint(self, prefix: str) -> str:
        """What an unknown key's message adds at ``prefix`` (a family's hook)."""
        return ""

    def leaf(self, path: str, f, v: Any):
        """One leaf (a family adds its kinds)."""
        return self.basic_leaf(path, f, v)

    def basic_leaf(self, path: str, f, v: Any):
        """A leaf of kind ``int`` (within ``f.min``..``f.max``), ``float`` (a finite number
        within them), ``bool`` or ``str`` (or null)."""
        if f.kind == "int":
            if isinstance(v, bool) or not isinstance(v, int):
                self.fail(path, f"expected {int_range(f)}, got {_kind(v)}")
            lo = f.min if f.min is not None else -INT64_MAX
            hi = f.max if f.max is not None else INT64_MAX   # the engine's int64
            if v < lo or v > hi:
                bound = " (a 64-bit integer)" if abs(v) > INT64_MAX else ""
                self.fail(path, f"expected {int_range(f)}{bound}, got {_kind(v)}")
            return v
        if f.kind == "float":
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v \
                    or v in (float("inf"), float("-inf")) \
                    or (f.min is not None and v < f.min) or (f.max is not None and v > f.max):
                lo = "" if f.min is None else f" >= {f.min}"
                hi = "" if f.max is None else f" <= {f.max}"
                self.fail(path, f"expected a number{lo}{' and' if lo and hi else ''}{hi}, got "
                          f"{_kind(v)}")
            return float(v)
        if f.kind == "bool":
            if not isinstance(v, bool):
                self.fail(path, f"expected true or false, got {_kind(v)}")
            return v
        if f.kind == "str":
            if v is not None and not isinstance(v, str):
                self.fail(path, f"expected a string, got {_kind(v)}")
            if v is not None and path.rstrip(".").endswith("description"):
                # a description may be written over several lines (a YAML block, ``>`` or
                # ``|``): it is shown on one, its runs of white space one space each
                v = " ".join(v.split())
            if v is not None and any(_control(ch) for ch in v):
                # a name is one line: saved scenario files carry it in a comment, which a
                # line break would end (the file would not load back)
                bad = next(ch for ch in v if _control(ch))
                self.fail(path, f"one line of text, without line breaks or control "
                                f"characters (found {bad!r})")
            return v
        raise AssertionError(f.kind)

    def game_leaf(self, path: str, v: Any, game: str, reads: str):
        """The ``game:`` key: it must name this loader's family (``reads``: what it reads)."""
        if v != game:
            self.fail(path, f"expected {game} (this loader reads {reads} scenarios), got "
                      f"{_kind(v)}")
        return v

    def enum_leaf(self, path: str, f, v: Any):
        """One of ``f.choices``; a bare off/on (a bool to YAML 1.1) stands for the choice
        "off"/"on" where there is one."""
        if isinstance(v, bool) and ("off" if v is False else "on") in f.choices:
            return "off" if v is False else "on"
        if isinstance(v, bool) or v not in f.choices:
            self.fail(path, f"expected one of {', '.join(map(str, f.choices))}, got {_kind(v)}")
        return v

    def seat_mapping(self, p: str, seat: Any, otherwise: str = "") -> None:
        """A seat ``p`` must be a mapping of ``policy`` and ``params`` (an unknown key's hint
        falls back to ``otherwise``)."""
        if not isinstance(seat, dict):
            self.fail(p, f"expected a mapping with policy and params, got {_kind(seat)}")
        for k in seat:
            if k not in ("policy", "params"):
                self.fail(f"{p}.{k}", "unknown key" + did_you_mean(k, ["policy", "params"],
                                                                   otherwise))


class RuleKeyError(KeyError):
    """A rule key the scenario does not have (a typo in a family's code: ``sc.get("dorass")``),
    named with the family and the scenario on one line (a bare ``KeyError: 'dorass'`` said
    neither). A KeyError still, for code that catches one."""

    def __init__(self, sc, key: str):
        family = sc.data.get("game")   # the family's name (MOMOJAN's is a mapping of rules)
        if not isinstance(family, str):
            parts = type(sc).__module__.split(".")   # simcore.<family>.scenario
            family = parts[1] if len(parts) > 2 and parts[0] == "simcore" else parts[0]
        self.key = key
        super().__init__(f"{family}: scenario {sc.name} has no rule key {key!r} (a typo in the "
                         f"family's code or declarations?)")

    def __str__(self) -> str:
        return self.args[0]


@dataclass(frozen=True)
class ScenarioBase:
    """A validated, fully resolved scenario. ``data`` is a read-only nested mapping."""

    name: str
    path: Path | None
    data: MappingProxyType

    def __getitem__(self, key):
        try:
            return self.data[key]
        except KeyError:
            raise RuleKeyError(self, key) from None

    def get(self, dotted: str):
        v = self.data
        try:
            for k in dotted.split("."):
                v = v[k]
        except (KeyError, TypeError):
            raise RuleKeyError(self, dotted) from None
        return v

    def to_dict(self) -> dict:
        return thaw(self.data)

    @cached_property
    def data_key(self) -> str:
        """The resolved data as one string, equal for equal data: a cache key (kept, since the
        data is read-only; a scorer looked up per hand rebuilt it every time)."""
        return repr(self.to_dict())

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.to_dict(), sort_keys=False, allow_unicode=True)


def _bound(v: int) -> str:
    """2^64-1 rather than 18446744073709551615 for the machine-word limits."""
    if v >= 2**32 and (v + 1) & v == 0:
        return f"2^{v.bit_length()}-1"
    return str(v)


def int_range(f) -> str:
    """``an integer 0..9`` / ``an integer >= 1`` / ``an integer``: a schema field's range."""
    if f.min is not None and f.max is not None:
        return f"an integer {f.min}..{_bound(f.max)}"
    if f.min is not None:
        return f"an integer >= {f.min}"
    return "an integer"


def freeze(v):
    """Nested dicts and lists as read-only mappings and tuples."""
    if isinstance(v, dict):
        return MappingProxyType({k: freeze(x) for k, x in v.items()})
    if isinstance(v, list):
        return tuple(freeze(x) for x in v)
    return v


def thaw(v):
    """The inverse of :func:`freeze`: plain dicts and lists."""
    if isinstance(v, (dict, MappingProxyType)):
        return {k: thaw(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return [thaw(x) for x in v]
    return v


def comment_at(line: str, comment: str, column: int) -> str:
    """``line`` padded so that ``# comment`` starts at ``column`` (``line`` alone without one)."""
    if not comment:
        return line
    return f"{line:<{column - 2}}  # {comment}"


def flow(value: Any) -> str:
    """One value as single-line YAML (flow style), quoted only where YAML needs it."""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1 << 30)
    text = text.removesuffix("\n...\n").rstrip("\n")
    if "\n" in text or yaml.safe_load(text) != value:
        # A string with line breaks (also YAML's own, such as U+0085) does not survive plain or
        # single-quoted style: YAML's double-quoted escapes keep it on one line.
        text = yaml.safe_dump(value, default_flow_style=True, default_style='"',
                              allow_unicode=False, width=1 << 30)
        text = text.removesuffix("\n...\n").rstrip("\n")
    return text

"""Rules settings by name, until full scenario files resolve them (``--rules`` on the CLI)."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from .shapes import NEW_EDITION, OLD_EDITION, HandRules

BUILT_IN = {"new_edition": NEW_EDITION, "old_edition": OLD_EDITION}


def hand_rules(name_or_path: str) -> HandRules:
    """The hand-shape rules of a bundled scenario name or a scenario file."""
    if name_or_path in BUILT_IN:
        return BUILT_IN[name_or_path]
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") and path.stem in BUILT_IN:
        return BUILT_IN[path.stem]
    raise InputError(f"--rules: unknown rules {name_or_path!r} (known: {', '.join(BUILT_IN)})")

"""MOMOJAN's scenarios as commented YAML (what ``show`` prints): the kit's
:class:`simcore.family.scenario.annotated.Annotation` with MOMOJAN's schema, bots and words, and the new
picture-set yaku a scenario adds commented by the fields of :data:`simcore.momojan.schema.NEW_YAKU`.
"""

from __future__ import annotations

from typing import Mapping

from simcore.family.scenario.annotated import Annotation
from simcore.family.scenario.files import flow  # noqa: F401  (this module's API too)
from .schema import NEW_YAKU, SCHEMA


def _annotation(schema: Mapping) -> Annotation:
    from policies.momojan import POLICIES
    yaku_table = schema.get("scoring", {}).get("yaku") if isinstance(schema, Mapping) else None
    return Annotation(schema, POLICIES.by_name, column=46,
                      entries=((yaku_table, NEW_YAKU),) if yaku_table is not None else ())


def annotated_yaml(data: Mapping, schema: Mapping = SCHEMA, title: str | None = None) -> str:
    """``data`` (a resolved scenario as plain data) as commented YAML text."""
    return _annotation(schema).yaml(data, title)

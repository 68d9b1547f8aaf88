"""Notes on what a comparison can show: when the rules that differ between variants are point
values only and no seated bot reads them, every round is played the same and only the scores
differ (issue 30).

A family declares which rule keys are point values (``POINT_VALUE_PREFIXES`` or its
``is_point_value``), whether a scenario makes them change the flow of play after all
(``point_values_only``) and how scores reach the metrics (``score_effects``); its bots say what
they read (:class:`simcore.family.policy.PolicySpec`).
"""

from __future__ import annotations

from simcore.family.tables import changed_rules, key_list


def play_note(fam, scenarios) -> str | None:
    """One line when the rules that differ between the variants are point values only and no
    seated policy reads point values: the bots' decisions cannot change, only the scores."""
    if len(scenarios) < 2:
        return None
    changed = changed_rules(scenarios, fam.SCENARIOS.rules_data)
    if not changed or not all(fam.is_point_value(k) for k in changed):
        return None
    if not fam.point_values_only(scenarios):
        return None
    policies = sorted({s["policy"] for sc in scenarios for s in sc["players"]})
    specs = fam.POLICIES.by_name
    if any(specs[p].reads_point_values for p in policies):
        return _reads_note(fam, changed, policies, specs)
    return (f"note: the rules that differ ({key_list(changed)}) are point values, and no seated "
            f"policy ({', '.join(policies)}) reads point values: every round is played the "
            f"same; differences come only through the scores ({fam.score_effects()})")


def _reads_note(fam, changed, policies, specs) -> str | None:
    """Per differing point value, whether a seated policy reads it (None when every one is
    read): a change no bot reads reaches play only through the scores."""
    unread = sorted(k for k in changed if not any(specs[p].reads_rule(k) for p in policies))
    if not unread:
        return None
    read = {k: [p for p in policies if specs[p].reads_rule(k)] for k in sorted(changed)}
    seen = [f"{k} (by {', '.join(ps)})" for k, ps in read.items() if ps]
    return (f"note: no seated policy ({', '.join(policies)}) reads {key_list(unread)}: those "
            f"changes reach play only through the scores ({fam.score_effects()})"
            + (f"; read: {'; '.join(seen[:6])}" if seen else ""))

"""MOMOJAN (桃雀): cards, hand analysis, scoring and the round engine.

Rules: ``shared/rules/momojan.md`` (the working specification). Section numbers in docstrings refer
to it.
"""

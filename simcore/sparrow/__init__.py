"""Sparrow mahjong (スズメ雀): 44 tiles of bamboo and two dragons, hands of five, two sets
to win (spec sparrow.md; docs/sparrow.md). The fifth family, and the one docs/families.md
walks through."""

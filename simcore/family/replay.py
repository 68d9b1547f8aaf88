"""A replayed game as data: rounds of tagged lines, written as text or as an HTML page.

A family's ``replay(sc, seed, game)`` builds a :class:`Replay` from its engine's event log; the
harness only selects rounds (``replay --round N``) and renders. Line kinds (``deal``, ``draw``,
``call``, ``discard``, ``riichi``, ``win``, ``ledger``, ``draw_end``, ``info``) only style the
HTML page; the text is the same either way.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from ..errors import InputError


@dataclass
class Round:
    title: str
    lines: list = field(default_factory=list)   # (kind, text)

    def add(self, kind: str, text: str) -> None:
        self.lines.append((kind, text))


@dataclass
class Replay:
    title: str
    header: list = field(default_factory=list)   # plain lines above the first round
    rounds: list = field(default_factory=list)   # Round
    footer: list = field(default_factory=list)   # the game's end, after the last round

    def new_round(self, title: str) -> Round:
        self.rounds.append(Round(title))
        return self.rounds[-1]

    def only_round(self, number: int | None, game_word: str = "game") -> "Replay":
        """This replay with round ``number`` (1-based) alone; ``None``: all of it."""
        if number is None:
            return self
        if not 1 <= number <= len(self.rounds):
            raise InputError(f"--round {number}: this {game_word} has {len(self.rounds)} round"
                             f"{'' if len(self.rounds) == 1 else 's'} "
                             f"(1..{len(self.rounds)})")
        return Replay(self.title, self.header, [self.rounds[number - 1]],
                      self.footer if number == len(self.rounds) else [])


def game_replay_text(fam, sc, seed: int, game: int, round_no: int | None = None) -> str:
    """A family's replay of game ``game`` of ``seed`` as text; ``round_no`` (1-based) alone when
    given."""
    return replay_text(fam.replay(sc, seed, game).only_round(round_no, fam.GAME_WORDS[0]))


def replay_text(r: Replay) -> str:
    out = [r.title, *r.header]
    for rnd in r.rounds:
        out += ["", f"── {rnd.title}", *(text for _, text in rnd.lines)]
    if r.footer:
        out += ["", f"══ {r.footer[0]}", *r.footer[1:]]
    return "\n".join(out)


_CSS = """
body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:1.5rem auto;padding:0 1rem;
color:#1f2937}
h1{font-size:1.3rem} h2{font-size:1.05rem;margin:1.6rem 0 .4rem;border-bottom:1px solid #e5e7eb}
nav a{margin-right:.6rem} .muted{color:#6b7280}
ol{list-style:none;padding:0;margin:0;font-family:ui-monospace,monospace;font-size:13.5px}
li{padding:1px 6px;border-left:3px solid transparent;white-space:pre-wrap}
li.draw{color:#4b5563} li.call{border-color:#0d9488;background:#f0fdfa}
li.riichi{border-color:#d97706;background:#fffbeb} li.win{border-color:#7c3aed;
background:#f5f3ff;font-weight:600} li.ledger{border-color:#2563eb;background:#eff6ff}
li.draw_end{border-color:#6b7280;background:#f3f4f6} li.deal{font-weight:500}
.footer{margin-top:1.2rem;font-weight:600}
"""


def replay_html(r: Replay, command: str = "") -> str:
    """A standalone page: one section per round, coloured by line kind, a round index on top."""
    e = html.escape
    nav = " ".join(f"<a href='#r{i + 1}'>{i + 1}</a>" for i in range(len(r.rounds)))
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{e(r.title)}</title>"
             f"<style>{_CSS}</style></head><body><h1>{e(r.title)}</h1>"]
    parts += [f"<p>{e(h)}</p>" for h in r.header]
    if command:
        parts.append(f"<p class='muted'>The same game as text: <code>{e(command)}</code></p>")
    if len(r.rounds) > 1:
        parts.append(f"<nav>rounds: {nav}</nav>")
    for i, rnd in enumerate(r.rounds):
        parts.append(f"<section id='r{i + 1}'><h2>{e(rnd.title)}</h2><ol>")
        parts += [f"<li class='{kind}'>{e(text)}</li>" for kind, text in rnd.lines]
        parts.append("</ol></section>")
    parts += [f"<p class='footer'>{e(f)}</p>" for f in r.footer if f.strip()]
    parts.append("</body></html>")
    return "\n".join(parts)

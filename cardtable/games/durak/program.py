"""The 2020 program's flow: its input checks, one game with a player in every seat, the published log.

Pure functions. The program's own player is ``scripted`` (``durak.players.scripted``); the rules
never import a player, so ``cardtable durak`` (``cardtable/cli/durak.py``) hands it in, parses the
arguments and prints::

    >>> print(log_text(play("reference", 60493, ["Rick", "Morty", "Summer"], ScriptedBot)), end="")  # doctest: +SKIP
    Deck random: 60493
    Trump: 6♦
    ...
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.bot import BotFactory
from cardtable.core.events import Event
from cardtable.games.durak.events import (
    Attacked,
    BoutStarted,
    Covered,
    DealtHand,
    DrewCards,
    GameOver,
    HandedOver,
    Took,
    TrumpTurned,
)
from cardtable.games.durak.game import DurakGame
from cardtable.games.durak.options import PRESETS
from cardtable.games.durak.rules import SUIT, ru_join, ru_text, sort_hand

RULES = ("reference", "default")
SEED_RANGE = (1, 0xFFFF)


class ProgramError(ValueError):
    """Bad input to the program; the message is one line for the user."""


@dataclass(frozen=True)
class Play:
    """One game of the program: its rules preset, the deck's number, the names and every event."""

    rules: str
    seed: int
    names: tuple[str, ...]
    events: tuple[Event, ...]


# Input.


def parse_seed(text: str | None) -> int:
    """The deck's number from the command line; a fresh one in 1–65535 if none was given."""
    if text is None:
        return random.randint(*SEED_RANGE)
    if not re.fullmatch(r"[+-]?[0-9]+", text.strip()):
        raise ProgramError(f"the seed must be an integer, not {text!r}")
    number = int(text)
    if not SEED_RANGE[0] <= number <= SEED_RANGE[1]:
        raise ProgramError(f"the seed must be {SEED_RANGE[0]} to {SEED_RANGE[1]}, not {number}")
    return number


def check_arguments(rules: str, names: Sequence[str]) -> None:
    """Raise :class:`ProgramError` for unknown rules, a bad number of players, empty or duplicate names."""
    if rules not in RULES:
        raise ProgramError(f"unknown rules {rules!r} (known: {', '.join(RULES)})")
    most = int(PRESETS[rules]["player_limit"])
    if not 2 <= len(names) <= most:
        raise ProgramError(f"the {rules} rules are for 2–{most} players, not {len(names)}")
    for name in names:
        if not name.strip() or any(ch in name for ch in "\r\n"):
            raise ProgramError(f"player names must be non-empty single-line text, not {name!r}")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ProgramError(f"player names must differ; {duplicates[0]!r} is given twice")


# The game.


def play(rules: str, seed: int, names: Sequence[str], player: BotFactory) -> Play:
    """Play one game with ``player(seed)`` in every seat (the program's: ``ScriptedBot``); the names are the seats."""
    check_arguments(rules, names)
    game = DurakGame()
    state, events = game.new(game.options(preset=rules, players=len(names)), seed)
    bots = [player(seed) for _ in names]
    while (seat := game.to_act(state)) is not None:
        action = bots[seat].act(game.observe(state, seat), game.legal_actions(state, seat))
        state, more = game.apply_unchecked(state, seat, action)
        events.extend(more)
    return Play(rules, seed, tuple(names), tuple(events))


class _Hands:
    """The hands as the log shows them, kept up to date from the events (the program sees every event)."""

    def __init__(self, players: int) -> None:
        self.cards: list[tuple[int, ...]] = [() for _ in range(players)]
        self.trump = 0

    def update(self, event: Event) -> None:
        """Follow one event."""
        if isinstance(event, DealtHand):
            self.cards[event.seat] = event.cards
        elif isinstance(event, TrumpTurned):
            self.trump = SUIT[event.card]
        elif isinstance(event, (Attacked, Covered)):
            self._remove(event.seat, (event.card,))
        elif isinstance(event, HandedOver):
            self._remove(event.seat, event.cards)
        elif isinstance(event, (Took, DrewCards)):
            self.cards[event.seat] = sort_hand(self.cards[event.seat] + event.cards, self.trump)

    def _remove(self, seat: int, cards: tuple[int, ...]) -> None:
        self.cards[seat] = tuple(c for c in self.cards[seat] if c not in cards)


# The log.


def log_text(result: Play) -> str:
    """The log in the published format (``Deck random: N`` … ``Fool: NAME``), ending with a newline."""
    names = result.names
    hands = _Hands(len(names))
    lines = [f"Deck random: {result.seed}"]
    for event in result.events:
        lines += _log_lines(event, names, hands, result.rules)
        hands.update(event)
    return "\n".join(lines) + "\n"


def _log_lines(event: Event, names: Sequence[str], hands: _Hands, rules: str) -> list[str]:
    """The log lines for one event (before it updates the hands)."""
    if isinstance(event, TrumpTurned):
        return [f"Trump: {ru_text(event.card)}"] + [f"{n}: {ru_join(h)}" for n, h in zip(names, hands.cards)]
    if isinstance(event, BoutStarted):
        a, d = event.attacker, event.defender
        return ["", f"{event.number:02d}: {names[a]}({ru_join(hands.cards[a])}) vs "
                    f"{names[d]}({ru_join(hands.cards[d])})"]
    if isinstance(event, Attacked):
        return [f"    {names[event.seat]} --> {ru_text(event.card)}"]
    if isinstance(event, HandedOver):
        return [f"    {names[event.seat]} --> {ru_text(c)}" for c in event.cards]
    if isinstance(event, Covered):
        return [f"    {ru_text(event.card)} <-- {names[event.seat]}"]
    if isinstance(event, Took):
        return [f"    {names[event.seat]} <-- {ru_text(c)}" for c in event.cards]
    if isinstance(event, DrewCards):
        return [f"    (deck) {names[event.seat]} + {ru_text(c)}" for c in event.cards]
    if isinstance(event, GameOver):
        return [""] + _result_lines(event, names, rules)
    return []


def _result_lines(event: GameOver, names: Sequence[str], rules: str) -> list[str]:
    """``Fool: NAME`` / ``Fool: -``; the default rules add ``Winner: NAME`` and say ``Ничья`` for a draw."""
    if rules == "reference":
        return [f"Fool: {'-' if event.fool is None else names[event.fool]}"]
    lines = ["Ничья" if event.fool is None else f"Fool: {names[event.fool]}"]
    if event.winner is not None:
        lines.append(f"Winner: {names[event.winner]}")
    return lines


# JSON.


def log_json(result: Play) -> dict[str, Any]:
    """The game as one JSON-ready object: rules, seed, players, trump, hands, bouts, fool, winner, draw, reason."""
    names = result.names
    hands = _Hands(len(names))
    out: dict[str, Any] = {"rules": result.rules, "seed": result.seed, "players": list(names)}
    bouts: list[dict[str, Any]] = []
    out.update(trump=None, hands={}, bouts=bouts, fool=None, winner=None, draw=False, reason="")
    for event in result.events:
        _json_event(event, names, hands, out, bouts)
        hands.update(event)
    return out


def _json_event(event: Event, names: Sequence[str], hands: _Hands, out: dict[str, Any],
                bouts: list[dict[str, Any]]) -> None:
    """Add one event to the JSON object being built."""
    if isinstance(event, TrumpTurned):
        out["trump"] = ru_text(event.card)
        out["hands"] = {n: [ru_text(c) for c in h] for n, h in zip(names, hands.cards)}
    elif isinstance(event, BoutStarted):
        a, d = event.attacker, event.defender
        bouts.append({"number": event.number, "attacker": names[a], "defender": names[d],
                      "attacker_hand": [ru_text(c) for c in hands.cards[a]],
                      "defender_hand": [ru_text(c) for c in hands.cards[d]],
                      "plays": [], "taken": False, "draws": []})
    elif isinstance(event, (Attacked, Covered)):
        kind = "attack" if isinstance(event, Attacked) else "beat"
        bouts[-1]["plays"].append({"kind": kind, "player": names[event.seat], "card": ru_text(event.card)})
    elif isinstance(event, HandedOver):
        bouts[-1]["plays"] += [{"kind": "hand_over", "player": names[event.seat], "card": ru_text(c)}
                               for c in event.cards]
    elif isinstance(event, Took):
        bouts[-1]["taken"] = True
    elif isinstance(event, DrewCards):
        bouts[-1]["draws"] += [{"player": names[event.seat], "card": ru_text(c)} for c in event.cards]
    elif isinstance(event, GameOver):
        out["fool"] = None if event.fool is None else names[event.fool]
        out["winner"] = None if event.winner is None else names[event.winner]
        out["draw"] = event.fool is None
        out["reason"] = event.reason


def run(rules: str, seed: str | None, names: Sequence[str], player: BotFactory, *, as_json: bool = False) -> str:
    """What ``cardtable durak`` prints (``player`` in every seat): the log, or the JSON object on one line."""
    number = parse_seed(seed)
    result = play(rules, number, names, player)
    if as_json:
        return json.dumps(log_json(result), ensure_ascii=False) + "\n"
    return log_text(result)

"""``cardtable play``: one game in the terminal, you against computer players.

You see exactly what your seat may see: the events visible to you as they happen,
your hand, and your legal actions, numbered. Answer with a number or the action's
text (``bid 2``, ``play Y7``); ``q`` stops, saving the record if ``--record`` is given.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer

from cardtable.bots import bot_names, make_bot
from cardtable.cli.common import check_writable, external_factory, fail, load, parse_option_pairs, renamed
from cardtable.core.errors import DecodeError, InvalidOptions
from cardtable.core.events import Event
from cardtable.runner import GameRunner, RunnerStatus


class Quit(BaseException):
    """The person stopped the game (a BaseException, so the runner does not replace them by a bot)."""


class TerminalPlayer:
    """A person at the terminal: reads one legal action per decision."""

    name = "you"

    def __init__(self, game: Any) -> None:
        self.game = game

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Show the hand and the numbered legal actions; read a choice until it is legal."""
        typer.echo(self.describe(observation))
        for number, action in enumerate(legal_actions, 1):
            typer.echo(f"  {number:>2}. {self.game.describe_action(action)}  [{action.text()}]")
        while True:
            try:
                answer = typer.prompt("Your move (number or text, q to stop)", default="", show_default=False)
            except (EOFError, typer.Abort):
                raise Quit() from None
            choice = self.choose(answer.strip(), legal_actions)
            if choice is not None:
                return choice
            typer.echo(f"{answer.strip()!r} is not one of your legal moves; give a number from 1 to "
                       f"{len(legal_actions)} or the text in brackets.")

    def choose(self, answer: str, legal_actions: Sequence[Any]) -> Any:
        """The legal action meant by ``answer`` (a number or a text form), or None."""
        if answer.lower() in {"q", "quit"}:
            raise Quit()
        if answer.isdigit() and 1 <= int(answer) <= len(legal_actions):
            return legal_actions[int(answer) - 1]
        try:
            action = self.game.parse_action(answer)
        except (DecodeError, ValueError):
            return None
        return action if action in legal_actions else None

    def describe(self, observation: Any) -> str:
        """Your hand in words, then the observation's plain facts (phase, round, trump, ...)."""
        deck = self.game.info.deck
        hand = getattr(observation, "hand", ())
        cards = ", ".join(deck.cards[c].text() for c in hand) if deck is not None else str(hand)
        facts = [f"{name}={value}" for name, value in vars_of(observation)
                 if name not in {"seat", "hand"} and _is_plain_fact(name, value)]
        return f"\nYour hand: {cards or '(empty)'}\n" + " · ".join(facts)


def _is_plain_fact(name: str, value: Any) -> bool:
    """A field worth a word in the terminal: text, or a number that is not a card id."""
    if isinstance(value, str):
        return True
    return isinstance(value, int) and not isinstance(value, bool) and "card" not in name


def vars_of(observation: Any) -> list[tuple[str, Any]]:
    """The observation's fields in declaration order."""
    import dataclasses

    return [(f.name, getattr(observation, f.name)) for f in dataclasses.fields(observation)]


def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game name, e.g. wizard.")],
    players: Annotated[int | None, typer.Option(help="Number of players (default: the game's smallest).")] = None,
    bot: Annotated[str | None, typer.Option(
        "--bot", metavar="BOT", help="The computer players' bot (default: the game's own), or exec:COMMAND for "
        "a program.")] = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 = first).")] = 0,
    seed: Annotated[int | None, typer.Option(help="Deal seed (default: random, printed).")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option KEY=VALUE.")] = None,
    preset: Annotated[str | None, typer.Option(help="Named rule preset.")] = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record (JSON) here at the end.")] = None,
    bots: Annotated[str | None, typer.Option("--bots", hidden=True)] = None,
) -> None:
    """Play one game in the terminal against computer players."""
    game = load(game_name)
    chosen = renamed("--bots", "--bot", bots, bot)
    count = players if players is not None else game.info.min_players
    try:
        options = game.options(parse_option_pairs(option or []), preset=preset, players=count)
    except InvalidOptions as exc:
        raise fail(str(exc)) from None
    if not 0 <= seat < count:
        raise fail(f"--seat must be 0 to {count - 1}")
    bot = chosen or next((b for b in bot_names(game) if b != "random"), "random")
    if record is not None:
        check_writable(record, "--record")  # before the game, not after it
    if bot.startswith("exec:"):
        factory = external_factory(game, bot, options)
    else:
        try:
            make_bot(game, bot)  # a known name, with valid options if it has any
        except ValueError as exc:
            raise fail(f"{exc}; or exec:COMMAND") from None
        factory = partial(make_bot, game, bot)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    typer.echo(f"{game.info.title}, {count} players, seed {seed}; you are seat {seat}.")
    agents: list[Any] = [factory(seed + s) for s in range(count)]
    agents[seat] = TerminalPlayer(game)

    def show(events: list[Event]) -> None:
        for event in events:
            if event.is_visible_to(seat):
                typer.echo(f"  · {event.text()}")

    with GameRunner(game, options, seed, agents, on_events=show) as runner:
        try:
            outcome = runner.run()
        except Quit:
            typer.echo("Stopped.")
            outcome = None
    for sub in runner.substitutions:
        typer.echo(f"Note: {sub.text()}")
    if record is not None:
        try:
            record.write_text(json.dumps(runner.record.to_json(), ensure_ascii=False), encoding="utf-8")
        except OSError as exc:  # checked before the game; the directory changed since
            raise fail(f"cannot write {record}: {exc.strerror}") from None
        typer.echo(f"Record written to {record} ({len(runner.record.actions)} actions).")
    if outcome is not None:
        mark = "You win!" if seat in outcome.winners else "You do not win this time."
        typer.echo(f"\nGame over: {outcome.reason}. Scores {list(outcome.scores)}. {mark}")
    elif runner.status is RunnerStatus.ERROR:
        raise fail(f"the game stopped: {runner.error}")

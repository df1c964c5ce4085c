"""Who decides for each seat of a live table: its person, or the computer (a bot seat, or a person's seat
it covers while they are away); and the built-in computer player of a seat, which bot it is and how it thinks.

A seat's kind is stored (``StoredSeat.kind``: ``human``, ``bot`` or ``remote``, a program over the Bot API);
``LiveTable.covering`` holds the people's and remote bots' seats the computer plays for now (they are away),
``LiveTable.forfeited`` the remote bots' seats forfeited this game. Every question of "who decides" goes through
:func:`computer_decides` and :func:`people_deciding` (``LiveTable.computer_to_act`` asks the same for the seat to act).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import zlib
from collections.abc import Sequence
from typing import Any

from cardtable.bots import make_bot
from cardtable.core.bot import Bot
from cardtable.core.record import GameRecord
from cardtable.core.types import Seat
from cardtable.server.live import LiveTable
from cardtable.server.views import default_bot

log = logging.getLogger("cardtable.server")
#: A bot whose decisions average less than this (seconds) thinks on the event loop, not in a thread.
INLINE_THINKING = 0.0005


def computer_decides(table: LiveTable, seat: Seat) -> bool:
    """Whether the computer decides for ``seat``: a computer player's seat, a person's (or a remote bot's) it
    covers while they are away, or a remote bot's seat forfeited this game."""
    return table.stored.seats[seat].kind == "bot" or seat in table.covering or seat in table.forfeited


def is_watched(table: LiveTable) -> bool:
    """Whether a person is at the table (a person's seat, here or away) or watches it (any socket that is not a
    program's): then computer players keep the human pace; a table of programs nobody watches plays at full speed.
    (Spectators connected to another server process are not seen here.)"""
    return (any(s.kind == "human" for s in table.stored.seats)
            or any(not connection.program for connection in table.connections))


def people_deciding(table: LiveTable) -> set[Seat]:
    """The seats whose person decides for them now (people's seats the computer does not cover)."""
    return {s.index for s in table.stored.seats if s.kind == "human"} - table.covering


def bot_for(table: LiveTable, seat: Seat) -> Bot:
    """The seat's computer player: its stored bot, or the game's default for a covered person; seeded from the deal.

    A bot seat's player made mid-game (after a restart, or by another process adopting the table) is new: see
    :func:`catch_up`, which :func:`think` calls so that it goes on as the one that played so far."""
    if seat not in table.bots:
        stored = table.stored.seats[seat]
        name = stored.bot if stored.kind in ("bot", "remote") and stored.bot else default_bot(table.game, table.options)
        # From the deal seed only, so a table created with a seed replays the same game.
        seed = zlib.crc32(f"{table.stored.seed}:{seat}".encode())
        table.bots[seat] = make_bot(table.game, name, seed)
    return table.bots[seat]


def earlier_decisions(table: LiveTable, record: GameRecord, seat: Seat) -> list[tuple[Any, list[Any]]]:
    """What ``seat`` saw and could do at each of its decisions in ``record`` (the table's, so far), in order."""
    game = table.game
    if all(s != seat for s, _ in record.actions):
        return []
    state, _ = game.new(table.options, record.seed)
    decisions = []
    for actor, action in record.actions:
        if actor == seat:
            decisions.append((game.observe(state, seat), list(game.legal_actions(state, seat))))
        state, _ = game.apply(state, actor, action)
    return decisions


def catch_up(bot: Bot, decisions: Sequence[tuple[Any, list[Any]]]) -> None:
    """Show a new bot its seat's earlier decisions, as if it had played them, so that it goes on as the bot that did.

    A bot's choices depend on its seed and on what it was shown before (its random stream, a search bot's
    beliefs), so a bot made anew mid-game would otherwise play differently from the one that played so far:
    a table resumed after a restart would not end as the same table left alone. Its answers are not used.
    """
    for observation, legal in decisions:
        choose(bot, observation, legal)


async def think(table: LiveTable, seat: Seat, observation: Any, legal: Sequence[Any]) -> Any:
    """The bot's choice: in a worker thread, unless this bot's decisions take well under a millisecond
    (a thread handoff would then cost more than the thinking; the event loop is never held longer).

    A bot seat's player made now, mid-game, first catches up (:func:`catch_up`) with the seat's decisions in
    the record, so that its choices are those of an uninterrupted table (the same seed, the same actions)."""
    fresh = seat not in table.bots
    bot = bot_for(table, seat)
    record = table.record
    if fresh and table.stored.seats[seat].kind == "bot" and record is not None and record.actions:
        await asyncio.to_thread(lambda: catch_up(bot, earlier_decisions(table, record, seat)))
    quick = table.think_time.get(seat, 1.0) < INLINE_THINKING
    if quick:
        action, spent = _timed_choose(bot, observation, legal)
    else:
        action, spent = await asyncio.to_thread(_timed_choose, bot, observation, legal)
    table.think_time[seat] = spent if seat not in table.think_time else 0.8 * table.think_time[seat] + 0.2 * spent
    return action


def _timed_choose(bot: Bot, observation: Any, legal: Sequence[Any]) -> tuple[Any, float]:
    """The bot's choice and the CPU seconds it took (measured where it runs, not counting a thread handoff;
    CPU time, so that a busy machine pausing the process does not make a quick bot look slow)."""
    started = time.thread_time()
    action = choose(bot, observation, legal)
    return action, time.thread_time() - started


def choose(bot: Bot, observation: Any, legal: Sequence[Any]) -> Any:
    """The bot's choice, or a random legal action if the bot fails or picks something illegal."""
    if not legal:
        raise RuntimeError("no legal action to choose from")
    try:
        action = bot.act(observation, legal)
    except Exception:
        log.exception("bot %s failed; playing a random legal action", getattr(bot, "name", bot))
        return random.choice(legal)
    return action if action in legal else random.choice(legal)

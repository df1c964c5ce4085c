"""``cardtable bot-connect``: play a local protocol-1 program at a remote server's tables (the Bot API bridge)."""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import signal
from typing import Annotated

import typer

from cardtable.cli.common import fail, renamed


def bot_connect(
    server: Annotated[str, typer.Argument(help="The server, e.g. http://127.0.0.1:8000 or https://cards.example.")],
    command: Annotated[str, typer.Argument(help="The program, as one argument: \"python3 my_bot.py\".")],
    token_file: Annotated[str, typer.Option("--token-file", help="The file holding the bot's token "
                                            "(`cardtable bots add NAME --token-file F`).")],
    decision_time: Annotated[float | None, typer.Option(
        "--decision-time", metavar="SECONDS", min=0.01,
        help="Most seconds the program may take per decision (default 10; the server's own limit counts too).")]
    = None,
    handshake: Annotated[float, typer.Option(metavar="SECONDS", help="Seconds the program has to answer hello.",
                                             min=0.01)] = 10.0,
    accept: Annotated[bool, typer.Option("--accept/--no-accept",
                                         help="Accept the tables' invitations as they arrive.")] = True,
    old_decision: Annotated[float | None, typer.Option("--decision", hidden=True, min=0.01)] = None,
) -> None:
    """Connect a bot to a server: one copy of COMMAND per table where it holds a seat, reconnecting after a drop."""
    given = renamed("--decision", "--decision-time", old_decision, decision_time)
    decision = 10.0 if given is None else given
    from cardtable.arena.agents import resolve_command
    from cardtable.arena.bridge import Bridge, BridgeStopped, read_token, stream_url
    from cardtable.arena.sandbox import Limits

    try:
        url = stream_url(server)
        token = read_token(token_file)
        words = shlex.split(command)
        if not words:
            raise ValueError("the command is empty")
        argv = resolve_command(words)  # the program runs in its own directory: file arguments made absolute
    except ValueError as exc:
        raise fail(str(exc)) from None
    bridge = Bridge(url, token, argv, limits=Limits(decision=decision, game=None, handshake=handshake),
                    accept=accept, say=lambda text: typer.echo(f"bot-connect: {text}", err=True))

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, bridge.stop)
        await bridge.run()

    try:
        asyncio.run(main())
    except BridgeStopped as exc:
        raise fail(str(exc)) from None

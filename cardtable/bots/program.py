"""Any built-in bot as a protocol-1 program (docs/bot-protocol.md): ``python -m cardtable.bots.program NAME``.

It reads one JSON message per line on stdin and answers on stdout, like any program in any language,
so a built-in bot (the ``learned`` player among them) can sit wherever a program can: the arena's
``exec:``, ``bot-check``, and a server's live tables through the Bot API bridge::

    cardtable bot-connect https://cards.example --token-file robo.token "python -m cardtable.bots.program learned"

A bot that cannot play the game or its options (a learned net trained for others) says why on
stderr and ends with status 2 at the handshake; the host records the failure.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from cardtable.bots import make_bot
from cardtable.core.registry import load_game


def _send(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message) + "\n")
    out.flush()


def serve(name: str, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Answer the host's messages with bot ``name``'s choices until ``quit`` or the end of input; the exit status."""
    game: Any = None
    bot: Any = None
    for line in stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            try:
                game = load_game(message["game"])
                options = game.options(message.get("options", {}))
                bot = make_bot(game, name, int(message.get("seat", 0)), options=options)
            except (KeyError, ValueError) as exc:
                print(f"{name}: {exc.args[0] if exc.args else exc}", file=sys.stderr)
                return 2
            _send(stdout, {"type": "ready", "name": name, "protocol": 1})
        elif kind == "act" and bot is not None:
            observation = game.observation_codec.decode(message["observation"])
            legal = [game.action_codec.decode(a) for a in message["legal"]]
            _send(stdout, {"type": "action", "id": message["id"], "index": legal.index(bot.act(observation, legal))})
        elif kind == "refused":
            print(f"{name}: refused: {message.get('reason')}", file=sys.stderr)
        elif kind == "quit":
            return 0
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m cardtable.bots.program NAME``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m cardtable.bots.program BOT_NAME (e.g. learned, heuristic, search:sims=200)",
              file=sys.stderr)
        return 2
    return serve(args[0])


if __name__ == "__main__":
    sys.exit(main())

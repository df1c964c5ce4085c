#!/usr/bin/env python3
"""A cardtable bot in plain Python (standard library only): it plays a random legal action.

Protocol 1 (docs/bot-protocol.md): one JSON object per line on stdin and stdout.
Try it:  cardtable bot-check "python3 examples/bots/random_bot.py" crazy_eights
"""

import json
import random
import sys


def send(message):
    """Write one message as one line and flush (the host waits for the newline)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            rng.seed(message["seat"])
            send({"type": "ready", "name": "random.py", "protocol": 1})
        elif kind == "act":
            # Answer with an index into message["legal"], or with the action itself:
            # {"type": "action", "id": ..., "action": message["legal"][i]}.
            choice = rng.randrange(len(message["legal"]))
            send({"type": "action", "id": message["id"], "index": choice})
        elif kind == "refused":
            print(f"refused: {message['reason']}", file=sys.stderr)
        elif kind == "quit":
            return
        # "end" needs no answer: another "hello" may follow for the next game.


if __name__ == "__main__":
    main()

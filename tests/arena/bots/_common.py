"""The loop every test bot shares: answer hello with ready, hand each act to a function."""

import json
import sys


def send(message, raw=None):
    sys.stdout.write((raw if raw is not None else json.dumps(message)) + "\n")
    sys.stdout.flush()


def run(on_act, *, protocol=1, name="test bot", before_ready=None):
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            if before_ready is not None:
                before_ready()
            send({"type": "ready", "name": name, "protocol": protocol})
        elif message["type"] == "act":
            on_act(message)
        elif message["type"] == "refused":
            print(f"refused {message['action']['type']}: {message['reason']}", file=sys.stderr, flush=True)
        elif message["type"] == "quit":
            return


def first(message):
    send({"type": "action", "id": message["id"], "index": 0})

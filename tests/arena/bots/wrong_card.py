"""Answers every decision with a well-formed play of a card it may not play now (illegal, not malformed)."""
import _common


def wrong_card(message):
    allowed = {a.get("card") for a in message["legal"]}
    card = next(c for c in range(60) if c not in allowed)
    _common.send({"type": "action", "id": message["id"], "action": {"type": "play", "card": card}})


_common.run(wrong_card)

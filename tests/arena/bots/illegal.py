"""Answers every decision of the toy game with "add 3", which is never legal."""
import _common

_common.run(lambda message: _common.send({"type": "action", "id": message["id"],
                                          "action": {"type": "add", "amount": 3}}))

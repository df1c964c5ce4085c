"""A well-behaved bot: always the first legal action, answered as the action itself."""
import _common

_common.run(lambda message: _common.send({"type": "action", "id": message["id"], "action": message["legal"][0]}))

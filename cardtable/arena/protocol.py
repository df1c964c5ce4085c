"""The external-bot protocol, version 1: JSON lines over stdin/stdout (``docs/bot-protocol.md``).

The host writes ``hello``, ``act``, ``refused``, ``end`` and ``quit`` messages;
the bot answers ``hello`` with ``ready`` and each ``act`` with ``action``.
Observations, actions and outcomes are written exactly as the core codec
writes them (:func:`cardtable.core.codec.to_json`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.core.codec import to_json
from cardtable.core.errors import DecodeError
from cardtable.core.game import Game
from cardtable.core.options import options_to_dict
from cardtable.core.outcome import Outcome
from cardtable.runner import TimeLeft

PROTOCOL = 1
"""The protocol version this host speaks."""


class ProtocolError(ValueError):
    """A message from the bot that breaks the protocol; the text is one line for people."""


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as one line of compact UTF-8 JSON (without the newline)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def decode(line: bytes) -> dict[str, Any]:
    """The message in one line from the bot; :class:`ProtocolError` if it is not a JSON object with a type."""
    text = line.decode("utf-8", "replace").strip()
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError(f"not JSON: {_clip(text)}") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError(f"not a message object with a \"type\": {_clip(text)}")
    return data


def _clip(text: str, width: int = 80) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= width else text[:width] + "…")


# Host → bot.


def hello(game: Game[Any, Any, Any, Any], options: Any, seat: int, limits: Mapping[str, Any]) -> dict[str, Any]:
    """The handshake: protocol version, game, options, seat, number of players and the limits."""
    return {"type": "hello", "protocol": PROTOCOL, "game": game.info.name, "options": options_to_dict(options),
            "seat": seat, "players": options.players, "limits": dict(limits)}


def act(number: int, observation: Any, legal: Sequence[Any], time_left: TimeLeft,
        action_templates: Sequence[Any] | None = None) -> dict[str, Any]:
    """One decision: the observation, the legal actions, their templates if parameterised, the time left."""
    message: dict[str, Any] = {"type": "act", "id": number, "observation": to_json(observation),
                               "legal": [to_json(a) for a in legal],
                               "time_left": {"decision": _seconds(time_left.decision),
                                             "game": _seconds(time_left.game)}}
    found = templates(action_templates)
    if found is not None:
        message["templates"] = found
    return message


_ACTION_TEXT: dict[Any, str] = {}


def encode_act(number: int, observation: Any, legal: Sequence[Any], time_left: TimeLeft,
               action_templates: Sequence[Any] | None = None) -> bytes:
    """``encode(act(...))``, faster: each action's JSON is written once and kept (actions are immutable)."""
    parts = []
    for action in legal:
        text = _ACTION_TEXT.get(action)
        if text is None:
            if len(_ACTION_TEXT) > 100_000:
                _ACTION_TEXT.clear()
            text = _ACTION_TEXT[action] = json.dumps(to_json(action), ensure_ascii=False, separators=(",", ":"))
        parts.append(text)
    head = {"type": "act", "id": number, "observation": to_json(observation)}
    tail: dict[str, Any] = {"time_left": {"decision": _seconds(time_left.decision), "game": _seconds(time_left.game)}}
    found = templates(action_templates)
    if found is not None:
        tail["templates"] = found
    return b"".join([encode(head)[:-1], b',"legal":[', ",".join(parts).encode("utf-8"), b"],",
                     encode(tail)[1:]])


def _seconds(value: float | None) -> float | None:
    return None if value is None else round(max(value, 0.0), 4)


def refused(number: int, action: Any, reason: str) -> dict[str, Any]:
    """The bot's answer to decision ``number`` was not legal: why (the fallback played instead)."""
    return {"type": "refused", "id": number, "action": to_json(action), "reason": reason}


def end(outcome: Outcome | None) -> dict[str, Any]:
    """The game is over."""
    return {"type": "end", "outcome": None if outcome is None else to_json(outcome)}


QUIT: dict[str, Any] = {"type": "quit"}


def templates(found: Sequence[Any] | None) -> list[dict[str, Any]] | None:
    """Seed 001's action templates as JSON: ``{"kind": "bet", "min": 2, "max": 10}``.

    ``found`` is what the game's ``action_templates(state, seat)`` returned (Mus has
    it: ``bet``, ``raise``, ``discard`` carry a range); ``max`` is ``null`` when the
    rules set no cap. ``None`` for games without templates.
    """
    if found is None:
        return None
    return [{"kind": t.kind, "min": t.min, "max": t.max} for t in found]


# Bot → host.


def parse_ready(message: Mapping[str, Any]) -> str:
    """The bot's name from its ``ready``; :class:`ProtocolError` for anything else or another version."""
    if message.get("type") != "ready":
        raise ProtocolError(f"expected a \"ready\" message, got {message.get('type')!r}")
    version = message.get("protocol")
    if version != PROTOCOL:
        raise ProtocolError(f"the bot speaks protocol {version!r}; this host speaks protocol {PROTOCOL}")
    name = message.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ProtocolError("\"ready\" needs a non-empty \"name\"")
    return name.strip()[:80]


def parse_action(game: Game[Any, Any, Any, Any], message: Mapping[str, Any], legal: Sequence[Any]) -> Any:
    """The action in an ``action`` message: ``"index"`` into ``legal`` or ``"action"`` as the codec reads it."""
    if message.get("type") != "action":
        raise ProtocolError(f"expected an \"action\" message, got {message.get('type')!r}")
    if "index" in message:
        index = message["index"]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
            raise ProtocolError(f"index {index!r} is not in 0..{len(legal) - 1}")
        return legal[index]
    if "action" not in message:
        raise ProtocolError("an \"action\" message needs \"index\" or \"action\"")
    try:
        return game.action_codec.decode(message["action"])
    except DecodeError as exc:
        raise ProtocolError(f"bad action: {exc}") from None

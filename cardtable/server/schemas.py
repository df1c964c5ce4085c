"""Request bodies of the REST API (pydantic v2, strict: no coercion); responses are plain JSON built in ``views``."""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

MAX_SEATS = 16
#: Characters a display name may not hold: C0/C1 controls, bidi embeddings, overrides, isolates and marks,
#: zero-width characters and other invisible formatting (look-alike names).
_REFUSED = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e"
                      "\u2060-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]")


def _plain_name(value: str) -> str:
    """A name without control, bidi or invisible characters (``Cf``: format characters), else ValueError."""
    bad = _REFUSED.search(value)
    if bad is None:
        bad = next((m for m in re.finditer(r".", value, re.S) if unicodedata.category(m.group()) == "Cf"), None)
    if bad is not None:
        raise ValueError(f"names may not hold control, bidi or invisible characters "
                         f"(U+{ord(bad.group()):04X} at position {bad.start()})")
    return value


#: A display name: trimmed, 1–40 characters, no control, bidi or zero-width characters.
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40),
                 AfterValidator(_plain_name)]
#: A seat token as handed out by create and join.
Token = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class _Body(BaseModel):
    """Request bodies refuse unknown fields and never coerce (``"7"`` is not 7, ``true`` is not 1)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SeatSpec(_Body):
    """One seat of a new table: a person, or a computer player (``bot``: a name or the default)."""

    kind: Literal["human", "bot"] = "human"
    bot: Annotated[str, StringConstraints(max_length=64)] | None = None


class CreateTable(_Body):
    """``POST /api/tables``: the game, its options or preset, the seats and the host's name."""

    game: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    options: Annotated[dict[str, Any], Field(max_length=64)] = Field(default_factory=dict)
    preset: Annotated[str, StringConstraints(max_length=64)] | None = None
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=MAX_SEATS)] | None = None
    name: Name = "Host"
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None
    #: A rated table: its result moves the players' ratings (signed-in people only; ``server/ratings.py``).
    rated: bool = False


class JoinTable(_Body):
    """``POST /api/tables/{id}/join``: which seat and under which name."""

    seat: int
    name: Name


class TokenBody(_Body):
    """``leave``, ``start``, ``pause`` and ``resume``: the caller's token."""

    token: Token

"""Request bodies of the REST API (pydantic v2); responses are plain JSON built in ``views``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

#: A display name: trimmed, 1–40 characters, no control characters (PostgreSQL refuses NUL in text).
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40,
                                        pattern=r"^[^\x00-\x1f\x7f]+$")]
#: A seat token as handed out by create and join.
Token = Annotated[str, StringConstraints(min_length=1, max_length=200)]
MAX_SEATS = 16


class _Body(BaseModel):
    """Request bodies refuse unknown fields so typos surface as errors."""

    model_config = ConfigDict(extra="forbid")


class SeatSpec(_Body):
    """One seat of a new table: a person, or a computer player (``bot``: a name or the default)."""

    kind: Literal["human", "bot"] = "human"
    bot: Annotated[str, StringConstraints(max_length=64)] | None = None


class CreateTable(_Body):
    """``POST /api/tables``: the game, its options or preset, the seats and the host's name."""

    game: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    options: dict[str, Any] = Field(default_factory=dict)
    preset: Annotated[str, StringConstraints(max_length=64)] | None = None
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=MAX_SEATS)] | None = None
    name: Name = "Host"
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None


class JoinTable(_Body):
    """``POST /api/tables/{id}/join``: which seat and under which name."""

    seat: int
    name: Name


class TokenBody(_Body):
    """``leave`` and ``start``: the caller's token."""

    token: Token

"""The encoding protocol for learning agents: a fixed action space and a fixed-shape information state.

Each game that supports learning agents has a module ``cardtable.games.<name>.encoding``
whose ``ENCODING`` follows :class:`Encoding`:

- every action has an integer id in ``range(num_actions(options))``, the same in every state;
- ``action_mask(state, seat)`` is 1 exactly at the ids of ``legal_actions(state, seat)``;
- ``encode(state, seat, out)`` writes what ``observe(state, seat)`` shows into a caller-provided
  ``uint8`` buffer of ``shape(options)`` (0/1 flags and small counts; see ``docs/rl.md``).

Encoders read the state directly (building observations is far slower) and are proven in
``tests/rl`` to encode nothing the observation does not show. The byte helpers below build
the buffer as one ``bytes`` object and copy it in once: numpy calls per field would cost more
than the game step itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from cardtable.core.types import Seat

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

S = TypeVar("S")
A = TypeVar("A")
Opt = TypeVar("Opt")

ActionId = int
"""An action's place in a game's fixed action space."""

_ZERO_ONE: Final = bytes.maketrans(b"01", b"\x00\x01")


def bits(mask: int, width: int) -> bytes:
    """``width`` bytes, byte ``i`` being bit ``i`` of ``mask`` (0 or 1)."""
    # bin() of mask with a marker bit above it: exactly ``width`` digits after "0b1", reversed (bit 0 first).
    return bin(mask | 1 << width)[:2:-1].encode().translate(_ZERO_ONE)


def write(out: npt.NDArray[Any], data: bytes, *, binary: bool = False) -> None:
    """Copy ``data`` (bytes 0–255, or 0/1 if ``binary``) into ``out``, one per element, converting the dtype.

    ``ValueError`` naming both sizes if they differ.
    """
    if out.size != len(data):
        raise ValueError(f"the buffer holds {out.size} values; this encoding writes {len(data)}")
    if _bytewise(out, binary):
        out.data.cast("B")[:] = data
    else:
        import numpy as np

        out.reshape(-1)[:] = np.frombuffer(data, np.uint8)


def _bytewise(out: npt.NDArray[Any], binary: bool) -> bool:
    """Whether ``data`` may be copied into ``out`` byte for byte: uint8, or int8 for 0/1 values."""
    return out.flags.c_contiguous and (out.dtype.char == "B" or (binary and out.dtype.char == "b"))


class Encoding(Generic[S, A, Opt]):
    """A game's action space and information-state tensor; subclasses fill the four hooks."""

    #: The game's registered name.
    game: str = ""
    #: The size of the action space when it is the same for every option set (saves a lookup per mask).
    fixed_actions: int | None = None
    _views: tuple[Any, Any, Any, Any] = (None, None, None, None)

    # Hooks.

    def num_actions(self, options: Opt) -> int:
        """The size of the action space for these options."""
        raise NotImplementedError

    def shape(self, options: Opt) -> tuple[int, ...]:
        """The shape of the buffer ``encode`` fills."""
        raise NotImplementedError

    def action_id(self, action: A, state: S | None = None) -> ActionId:
        """The id of ``action`` (``state`` only where an id is relative to the hand, as Mus discards)."""
        raise NotImplementedError

    def action_from_id(self, action_id: ActionId, state: S | None = None) -> A:
        """The action with this id; ``ValueError`` naming it if the space has none."""
        raise NotImplementedError

    def legal_bits(self, state: S, seat: Seat) -> int:
        """The legal action ids of ``seat`` now as a bitmask (bit ``i`` set: id ``i`` is legal)."""
        raise NotImplementedError

    def features(self, state: S, seat: Seat) -> bytes:
        """The encoded information state of ``seat``, one byte per element, in ``shape`` order."""
        raise NotImplementedError

    def options_of(self, state: S) -> Opt:
        """The options the state was dealt with."""
        return getattr(state, "options")  # type: ignore[no-any-return]

    # Derived.

    def action_names(self, options: Opt) -> list[str]:
        """A short name for every id (``"?"`` for ids that no action uses, e.g. gaps)."""
        names: list[str] = []
        for i in range(self.num_actions(options)):
            try:
                names.append(self.action_from_id(i).text())  # type: ignore[attr-defined]
            except ValueError:
                names.append("?")
        return names

    def legal_ids(self, state: S, seat: Seat) -> list[ActionId]:
        """The legal action ids of ``seat`` now, ascending."""
        return list(ids_of(self.legal_bits(state, seat)))

    def action_mask(self, state: S, seat: Seat, out: npt.NDArray[Any] | None = None) -> npt.NDArray[np.int8]:
        """1 at every legal action id of ``seat``, 0 elsewhere (``out``: an ``int8`` buffer to fill)."""
        size = self.fixed_actions or self.num_actions(self.options_of(state))
        data = bits(self.legal_bits(state, seat), size)
        if out is None:
            import numpy as np

            return np.frombuffer(data, np.int8).copy()
        self._write(out, data, binary=True)
        return out

    def encode(self, state: S, seat: Seat, out: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """Write the information state of ``seat`` into ``out`` (shape ``shape(options)``); returns ``out``.

        ``out`` is best ``uint8``; any dtype holding 0–255 works (int16, float32, …), not int8.
        """
        self._write(out, self.features(state, seat))
        return out

    def _write(self, out: npt.NDArray[Any], data: bytes, *, binary: bool = False) -> None:
        """``write``, reusing the byte view of the last two buffers (an RL loop fills the same ones)."""
        views = self._views
        if views[0] is out:
            view = views[1]
        elif views[2] is out:
            view = views[3]
        else:
            if not _bytewise(out, binary):
                write(out, data, binary=binary)
                return
            view = out.data.cast("B")
            self._views = (out, view, views[0], views[1])  # one tuple: a consistent pair for every thread
        if len(view) != len(data):
            raise ValueError(f"the buffer holds {len(view)} values; this encoding writes {len(data)}")
        view[:] = data

    def check_id(self, action_id: object, options: Opt) -> ActionId:
        """``action_id`` as an int in the space; ``ValueError`` naming it otherwise."""
        size = self.num_actions(options)
        if isinstance(action_id, bool) or not isinstance(action_id, int | Integral):
            raise ValueError(f"action id {action_id!r} is not an integer")
        value = int(action_id)
        if not 0 <= value < size:
            raise ValueError(f"action id {value} is outside the {self.game} action space 0–{size - 1}")
        return value


def ids_of(mask: int) -> Sequence[int]:
    """The set bits of ``mask``, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

__all__ = ["ActionId", "Encoding", "bits", "ids_of", "write"]

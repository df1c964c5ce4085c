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

``encode`` is stateless and writes the whole buffer. A learning loop that encodes the same
seat again and again uses an :class:`Encoder` instead (``ENCODING.encoder(options, seat)``):
it owns its buffers and rewrites only the bytes whose values changed since its last call,
which costs a fraction of a full write (see ``docs/rl.md``, "Cost").
"""

from __future__ import annotations

import importlib
import struct
from collections.abc import Callable, Sequence
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
    #: Raised whenever the bytes written for some state change: learned players' weights name the version
    #: they were trained on and are refused for another (``cardtable.bots.learned``).
    version: int = 1
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
        return ids_of(self.legal_bits(state, seat))

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

    def action_table(self, options: Opt) -> tuple[A | None, ...]:
        """Per id, its action if the same in every state with these options (None: unused, or depends on the state)."""
        table: list[A | None] = []
        for i in range(self.num_actions(options)):
            try:
                table.append(self.action_from_id(i))
            except ValueError:
                table.append(None)
        return tuple(table)

    def encoder(self, options: Opt, seat: Seat) -> Encoder[S]:
        """An :class:`Encoder` of ``seat`` for states with these options (the incremental ``encode``)."""
        return Encoder(self, options, seat)

    def check_id(self, action_id: object, options: Opt) -> ActionId:
        """``action_id`` as an int in the space; ``ValueError`` naming it otherwise."""
        size = self.num_actions(options)
        if isinstance(action_id, bool) or not isinstance(action_id, int | Integral):
            raise ValueError(f"action id {action_id!r} is not an integer")
        value = int(action_id)
        if not 0 <= value < size:
            raise ValueError(f"action id {value} is outside the {self.game} action space 0–{size - 1}")
        return value


class Encoder(Generic[S]):
    """One seat's information state and action mask in buffers it owns, rewritten only where they changed.

    ``encode(state)`` leaves in ``obs`` exactly what ``Encoding.encode(state, seat, obs)`` writes,
    and ``action_mask(state)`` in ``mask`` exactly what ``Encoding.action_mask`` returns, for any
    state of a game with the encoder's options (or others of the same shape and action space):
    the next state, an earlier one or another game's.
    The encoder remembers the values it last wrote (a hand bitmask, a count, a tuple of the state
    kept by identity: states never change and share their unchanged fields) and compares the new
    state with them, never assuming that it follows the last one; the first call, and every call
    after :meth:`reset`, writes everything.

    The contract: ``obs`` and ``mask`` belong to the encoder. They change at the next call; copy
    them to keep them, and never write into them (or call :meth:`reset` after doing so). One
    encoder serves one thread. A state with another number of players is refused
    (``ValueError``).

    This base class rewrites the whole buffer from ``Encoding.features`` on every call (the
    fallback for a game with no encoder of its own); each game's ``encoding`` module subclasses
    it, overriding ``encode`` to write only what changed and ``_forget`` to drop what it
    remembers.
    """

    __slots__ = ("encoding", "options", "seat", "obs", "mask", "_view", "_mask_view", "_size",
                 "_legal", "_legal_state", "_mask_bits", "_actions")

    def __init__(self, encoding: Encoding[S, Any, Any], options: Any, seat: Seat) -> None:
        import numpy as np

        self.encoding = encoding
        self.options = options
        self.seat = seat
        self._size = encoding.num_actions(options)
        #: The seat's information state (``uint8``, the encoding's shape): read it, copy it, never write it.
        self.obs: npt.NDArray[np.uint8] = np.zeros(encoding.shape(options), np.uint8)
        #: The seat's action mask (``int8``): read it, copy it, never write it.
        self.mask: npt.NDArray[np.int8] = np.zeros(self._size, np.int8)
        self._actions = encoding.action_table(options)
        self._view = self.obs.data.cast("B")
        self._mask_view = self.mask.data.cast("B")
        self.reset()

    def reset(self) -> None:
        """Forget what was written: the next calls rewrite both buffers from scratch."""
        self._legal_state: object = None
        self._legal = 0
        self._mask_bits = 0
        self._view[:] = bytes(len(self._view))
        self._mask_view[:] = bytes(self._size)
        self._forget()

    def _forget(self) -> None:
        """Hook: drop the remembered values (the buffer is all zero now)."""

    def encode(self, state: S) -> npt.NDArray[np.uint8]:
        """The information state of the encoder's seat in ``state``, written into ``obs``; returns ``obs``."""
        self._update(state)
        return self.obs

    def _update(self, state: S) -> None:
        """Hook: bring ``obs`` up to date with ``state`` (here: a full rewrite)."""
        data = self.encoding.features(state, self.seat)
        if len(data) != len(self._view):
            raise ValueError(f"the buffer holds {len(self._view)} values; this encoding writes {len(data)}")
        self._view[:] = data

    def legal_bits(self, state: S) -> int:
        """``Encoding.legal_bits`` of the seat, computed once per state."""
        if state is not self._legal_state:
            self._legal = self.encoding.legal_bits(state, self.seat)
            self._legal_state = state
        return self._legal

    def action_mask(self, state: S) -> npt.NDArray[np.int8]:
        """1 at every legal action id of the seat in ``state``, written into ``mask``; returns ``mask``."""
        if state is not self._legal_state:
            self._legal = self.encoding.legal_bits(state, self.seat)
            self._legal_state = state
        new = self._legal
        diff = new ^ self._mask_bits
        if diff:
            self._mask_bits = new
            if diff.bit_count() <= 2:  # a card gone, a bid more or less: those bytes
                view = self._mask_view
                while diff:
                    low = diff & -diff
                    i = low.bit_length() - 1
                    view[i] = new >> i & 1
                    diff ^= low
            else:  # the whole mask; a cache of these bytes by legal set lost more on misses than it won
                self._mask_view[:] = bits(new, self._size)
        return self.mask

    def legal_ids(self, state: S) -> list[ActionId]:
        """The legal action ids of the seat in ``state``, ascending."""
        return ids_of(self.legal_bits(state))

    def action(self, action_id: ActionId, state: S) -> Any:
        """``Encoding.action_from_id``, from a table where the action does not depend on the state."""
        if type(action_id) is int and 0 <= action_id < self._size:
            found = self._actions[action_id]
            if found is not None:
                return found
        return self.encoding.action_from_id(action_id, state)


def rotation(players: int, seat: Seat, *, bit_counts: bool = False, sizes: bool = False
             ) -> Callable[[Sequence[Any]], tuple[int, ...]]:
    """A function of a per-seat tuple giving its values from ``seat`` on (``seat``, the next seat, …).

    With ``bit_counts``, the bit counts of the values (the sizes of bitmask hands); with
    ``sizes``, their lengths (tuple hands). The function is written out for these numbers: no
    loop, no comprehension (each costs more than the few values it reads).
    """
    key = (players, seat, bit_counts, sizes)
    found = _ROTATIONS.get(key)
    if found is None:
        items = [f"v[{(seat + k) % players}]" + (".bit_count()" if bit_counts else "") for k in range(players)]
        if sizes:
            items = [f"len({item})" for item in items]
        namespace: dict[str, Any] = {}
        exec(f"def rotated(v):\n    return ({', '.join(items)},)", namespace)  # generated from two ints only
        found = _ROTATIONS[key] = namespace["rotated"]
    return found


_ROTATIONS: dict[tuple[int, int, bool, bool], Callable[[Sequence[Any]], tuple[int, ...]]] = {}


def rotated_packer(players: int, seat: Seat, kinds: str, extra: int = 0) -> Callable[..., None]:
    """A function ``(view, at, *tuples, *values)`` storing per-seat tuples from ``seat`` on, side by side, as bytes.

    One letter of ``kinds`` per tuple: ``v`` its values, ``p`` its values plus one, ``f`` whether
    each value is at least 0 (a flag), ``b`` their bit counts (bitmask hands), ``n`` their
    lengths (tuple hands); then ``extra`` single values. Every value must fit in a
    byte. One ``struct.pack_into``, written out for these numbers (no loop, no intermediate tuple).
    """
    key = (players, seat, kinds, extra)
    found = _PACKERS.get(key)
    if found is None:
        forms = {"v": "{}", "p": "{} + 1", "f": "{} >= 0", "b": "{}.bit_count()", "n": "len({})"}
        args = [f"t{j}" for j in range(len(kinds))]
        items = [forms[kind].format(f"{arg}[{(seat + k) % players}]")
                 for arg, kind in zip(args, kinds) for k in range(players)]
        values = [f"x{j}" for j in range(extra)]
        namespace: dict[str, Any] = {"pack_into": struct.Struct(f"{len(items) + extra}B").pack_into}
        exec(f"def packer(view, at, {', '.join(args + values)}):\n    pack_into(view, at, {', '.join(items + values)})",
             namespace)  # generated from three ints and the letters above only
        found = _PACKERS[key] = namespace["packer"]
    return found


_PACKERS: dict[tuple[int, int, str, int], Callable[..., None]] = {}


def ids_of(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def write_bit_changes(view: Any, new: int, old: int, offset: int = 0) -> None:
    """Write into ``view`` (bytes as 0/1 from ``offset``) the bits where mask ``new`` differs from ``old``."""
    diff = new ^ old
    while diff:
        low = diff & -diff
        i = low.bit_length() - 1
        view[offset + i] = new >> i & 1
        diff ^= low


__all__ = ["ActionId", "Encoder", "Encoding", "bits", "ids_of", "rotated_packer", "rotation", "write",
           "write_bit_changes"]


def encoding_for(game: Any) -> Encoding[Any, Any, Any]:
    """The encoding of ``game`` (its package's ``encoding.ENCODING``); ``ValueError`` if it has none."""
    package = type(game).__module__.rpartition(".")[0]
    if not package:  # a game defined in a top-level module (a plugin's) has no package to hold an encoding
        raise ValueError(f"{game.info.name} has no encoding for learning agents (its module is no package)")
    try:
        module = importlib.import_module(f"{package}.encoding")
    except ModuleNotFoundError:
        raise ValueError(f"{game.info.name} has no encoding for learning agents ({package}.encoding)") from None
    encoding: Encoding[Any, Any, Any] = module.ENCODING
    return encoding

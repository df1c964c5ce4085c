"""A base for game states: ``__slots__`` objects whose fields all hold immutable values.

``apply`` never mutates its input: it takes ``state.copy()`` (a shallow copy, which is a full
copy since every field is immutable) and reassigns the fields that change. The copy is the
hot path of every random playout, so each subclass gets one written out field by field when
the class is created, the way ``dataclasses`` writes ``__init__``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self


class SlotState:
    """Subclass it with ``__slots__``; ``copy()`` then copies every slot, fast."""

    __slots__ = ()
    #: Every slot of the class, base classes first: the copy's and the pickle's field order.
    slot_names: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = [name for klass in reversed(cls.__mro__) for name in _slots(klass)]
        cls.slot_names = tuple(names)
        lines = [f"    new.{name} = self.{name}" for name in names]
        source = "\n".join(["def copy(self):", "    new = new_instance(cls)", *lines, "    return new"])
        namespace: dict[str, Any] = {"new_instance": object.__new__, "cls": cls}
        exec(source, namespace)  # generated from the class's own slot names only
        namespace["copy"].__doc__ = SlotState.copy.__doc__
        cls.copy = namespace["copy"]  # type: ignore[method-assign]

    def copy(self) -> Self:
        """A shallow copy, sharing every (immutable) field until the copy reassigns it."""
        raise NotImplementedError("SlotState.copy is generated for each subclass")

    def __getstate__(self) -> tuple[object, ...]:
        """The fields in slot order: a compact pickle (states cross process pools)."""
        return tuple(getattr(self, name) for name in self.slot_names)

    def __setstate__(self, values: tuple[object, ...]) -> None:
        for name, value in zip(self.slot_names, values, strict=True):
            setattr(self, name, value)


def _slots(klass: type) -> tuple[str, ...]:
    slots = klass.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)

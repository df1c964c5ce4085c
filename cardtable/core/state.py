"""A base for game states: ``__slots__`` objects whose fields all hold immutable values.

``apply`` never mutates its input: it takes ``state.copy()`` (a shallow copy, which is a full
copy since every field is immutable) and reassigns the fields that change. The copy is the
hot path of every random playout, so each subclass gets one written out field by field when
the class is created, the way ``dataclasses`` writes ``__init__``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Self, TypeVar

T = TypeVar("T", bound="SlotState")


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
        source = "\n".join(["def copy(self):", _allocation(cls), *lines, "    return new"])
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


def updater(cls: type[T], *changed: str) -> Callable[..., T]:
    """A function ``(state, *values)``: a copy of ``state`` with the ``changed`` slots set to ``values``.

    The generated function writes every slot once (``copy()`` then assignments writes the changed
    ones twice): for the hot step of an engine that always changes the same fields::

        after_draw = updater(MyState, "hands", "stock")
        new = after_draw(state, hands, stock)
    """
    unknown = [name for name in changed if name not in cls.slot_names]
    if unknown or len(set(changed)) != len(changed):
        raise ValueError(f"{cls.__name__} has no slots {unknown}, or a slot is named twice: {changed}")
    lines = [f"    new.{name} = {name}" if name in changed else f"    new.{name} = self.{name}"
             for name in cls.slot_names]
    source = "\n".join([f"def update(self, {', '.join(changed)}):", _allocation(cls), *lines, "    return new"])
    namespace: dict[str, Any] = {"new_instance": object.__new__, "cls": cls}
    exec(source, namespace)  # generated from the class's own slot names only
    update: Callable[..., T] = namespace["update"]
    update.__doc__ = f"A copy of a {cls.__name__} with {', '.join(changed)} replaced."
    return update


def _allocation(cls: type) -> str:
    """The generated line that makes a bare instance: ``cls()`` costs less than ``object.__new__(cls)``,
    and makes the same thing when the class has no ``__init__`` or ``__new__`` of its own."""
    if not any("__init__" in vars(k) or "__new__" in vars(k) for k in cls.__mro__ if k is not object):
        return "    new = cls()"
    return "    new = new_instance(cls)"


def _slots(klass: type) -> tuple[str, ...]:
    slots = klass.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)

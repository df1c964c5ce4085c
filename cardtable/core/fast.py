"""Fast constructors for the frozen dataclasses that engines build on every decision.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``, which
costs about three times as much as building a plain object; an engine makes an event (or two) per
decision, so that cost shows in every playout. :func:`constructor` generates, once per class, a
function that builds the very same object — same class, same field values, equal, hashed and
encoded alike — by writing its slots directly::

    card_played = constructor(CardPlayed)
    event = card_played(seat, card)          # == CardPlayed(seat, card)

Only for ``slots=True`` dataclasses whose fields are all ``init`` fields without a
``default_factory`` and that have no ``__post_init__`` (the constructor would skip it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def constructor(cls: type[T]) -> Callable[..., T]:
    """A function with ``cls``'s ``__init__`` signature that builds the object without ``__init__``."""
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a slots dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__ that a fast constructor would skip")
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {"new_instance": object.__new__, "cls": cls}
    params, lines = [], []
    for f in fields:
        if not f.init or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} is not a plain init field")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"default_{f.name}"] = f.default
            params.append(f"{f.name}=default_{f.name}")
        namespace[f"set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's member descriptor
        lines.append(f"    set_{f.name}(obj, {f.name})")
    source = "\n".join([f"def make({', '.join(params)}):", "    obj = new_instance(cls)", *lines,
                        "    return obj"])
    exec(source, namespace)  # generated from the class's own field names only
    make: Callable[..., T] = namespace["make"]
    make.__doc__ = f"Build a {cls.__name__} (as its __init__ would, faster)."
    return make


class TrustedActions:
    """Action objects built once and kept for the life of the process, each checked once at the edge.

    ``Game.why_illegal`` checks every field of an action against its annotation before any rule
    (:func:`cardtable.core.checks.problem_of`). The actions a game hands out from
    ``legal_actions`` are its own cached, immortal instances: checked when registered here, they
    need not be checked again, and :meth:`holds` recognises them by identity in one set lookup.
    Register only objects that stay referenced (module-level tables): an id is unique only while
    its object lives.
    """

    def __init__(self) -> None:
        #: The ids of the registered actions: hot paths test ``id(action) in trusted.ids`` inline.
        self.ids: set[int] = set()

    def add(self, *actions: object) -> None:
        """Register actions after checking each one's fields (``ValueError`` if one does not fit)."""
        from cardtable.core.checks import problem_of

        for action in actions:
            problem = problem_of(action)
            if problem is not None:
                raise ValueError(f"cannot trust {action!r}: {problem}")
            self.ids.add(id(action))
            CACHED[value_key(action)] = action
            _REGISTERED.add(id(action))

    def holds(self, action: object) -> bool:
        """Whether ``action`` is one of the registered instances (so its fields are known to fit)."""
        return id(action) in self.ids


#: Every registered action by :func:`value_key`: decoders hand out these instances (see :func:`cached_action`;
#: hot loops may bind ``CACHED.get``).
CACHED: dict[tuple[Any, ...], object] = {}


#: The ids of every registered action, of every game (see :func:`cached_pair`).
_REGISTERED: set[int] = set()
#: The shared ``(seat, action)`` pairs, by ``(seat, id(action))``.
_PAIRS: dict[tuple[int, int], tuple[int, object]] = {}
#: Seats a shared pair is made for: every table has fewer.
PAIR_SEATS = range(64)


def cached_pair(seat: int, action: object) -> tuple[int, object] | None:
    """The one shared ``(seat, action)`` tuple for a registered action and an int seat 0–63, or None.

    A record's actions are such pairs. Decoders hand out these (``core.record_decoder``), so a
    game's replay can look a pair up by identity: one dict lookup gives the seat and the action.
    """
    if type(seat) is not int or seat not in PAIR_SEATS or id(action) not in _REGISTERED:
        return None
    key = (seat, id(action))
    pair = _PAIRS.get(key)
    if pair is None:
        pair = _PAIRS[key] = (seat, action)
    return pair


def value_key(action: object) -> tuple[Any, ...]:
    """``(class, field values…)``: equal for two actions of one class with the same values of the same types."""
    return (type(action), *(getattr(action, f.name) for f in dataclasses.fields(action)))  # type: ignore[arg-type]


def cached_action(key: tuple[Any, ...]) -> object | None:
    """The registered (trusted) action with this :func:`value_key`, or None.

    Callers pass values of exactly the annotated types (``True == 1``, but a decoded ``int`` field
    never holds a ``bool``), so an equal key means an equal, well-formed action.
    """
    return CACHED.get(key)

"""SlotState: the generated copy and the compact pickle every game state uses."""

from __future__ import annotations

import pickle

from cardtable.core.state import SlotState


class Base(SlotState):
    __slots__ = ("a", "b")


class Child(Base):
    __slots__ = ("c",)


def make() -> Child:
    state = Child.__new__(Child)
    state.a, state.b, state.c = 1, (2, 3), "x"
    return state


def test_copy_takes_every_slot_of_the_class_and_its_bases() -> None:
    state = make()
    copy = state.copy()
    assert type(copy) is Child and copy is not state
    assert (copy.a, copy.b, copy.c) == (1, (2, 3), "x")
    copy.a = 9
    assert state.a == 1, "reassigning a field of the copy must not touch the original"


def test_pickle_is_the_fields_in_slot_order() -> None:
    state = make()
    assert Child.slot_names == ("a", "b", "c")
    assert state.__getstate__() == (1, (2, 3), "x")
    back = pickle.loads(pickle.dumps(state))
    assert (back.a, back.b, back.c) == (1, (2, 3), "x")

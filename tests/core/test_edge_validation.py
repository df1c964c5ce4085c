"""Validate at the edge, once: the bad actions and seats the security review found, each refused by name."""

from __future__ import annotations

import pickle
import re
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import cardtable
from cardtable.core import Codec, DecodeError, IllegalAction
from cardtable.core.checks import problem_of
from cardtable.core.errors import action_text
from cardtable.games.crazy_eights.actions import Play as EightsPlay
from cardtable.games.durak.actions import Attack
from cardtable.games.kaiser.actions import Play as KaiserPlay
from cardtable.games.mus.actions import Discard
from cardtable.games.wizard.actions import Bid, ChooseTrump, Play

BIG = 10**35


def started(name: str) -> tuple[Any, Any, int]:
    game = cardtable.load_game(name)
    state, _ = game.new(game.options(), 1)
    return game, state, game.to_act(state)


@pytest.mark.parametrize(("name", "action", "message"), [
    ("wizard", Play(6.0), "card must be a Wizard card id 0–59, not a float (6.0)"),  # type: ignore[arg-type]
    ("wizard", Bid(True), "tricks must be a number of tricks 0–60, not a bool (True)"),
    ("wizard", Bid(0.0), "tricks must be a number of tricks 0–60, not a float (0.0)"),  # type: ignore[arg-type]
    ("wizard", Play(60), "card must be a Wizard card id 0–59, not 60"),
    ("wizard", Play(-1), "not -1"),
    ("wizard", Play(-61), "not -61"),
    ("wizard", Play(BIG), f"not {BIG}"),
    ("wizard", ChooseTrump("purple"), "suit must be one of 'red', 'yellow', 'green', 'blue', not a string"),  # type: ignore[arg-type]
    ("durak", Attack(36), "card must be a Durak card id 0–35, not 36"),
    ("mus", Discard((40, 41)), "cards[0] must be a Mus card id 0–39, not 40"),
    ("mus", Discard((1,) * 10**6), "cards must hold at most 4 items, not 1000000"),
    ("mus", Discard([1, 2]), "cards must be a tuple, not a list"),  # type: ignore[arg-type]
    ("kaiser", KaiserPlay(32), "card must be a Kaiser card id 0–31, not 32"),
    ("crazy_eights", EightsPlay(-1), "card must be a Crazy Eights card id 0–51, not -1"),
])
def test_malformed_actions_are_refused_naming_the_field(name: str, action: Any, message: str) -> None:
    game, state, seat = started(name)
    before = pickle.dumps(state)
    assert message in (game.why_illegal(state, seat, action) or "")
    assert not game.is_legal(state, seat, action)
    with pytest.raises(IllegalAction, match=re.escape(message)) as info:
        game.apply(state, seat, action)
    assert len(str(info.value)) < 200
    assert pickle.dumps(state) == before


@pytest.mark.parametrize(("name", "data", "message"), [
    ("wizard", {"type": "play", "card": 60}, "play.card: expected a Wizard card id 0–59, got 60"),
    ("wizard", {"type": "play", "card": -1}, "got -1"),
    ("wizard", {"type": "play", "card": 6.0}, "got a float"),
    ("wizard", {"type": "bid", "tricks": True}, "got a bool"),
    ("wizard", {"type": "play", "card": BIG}, "got 1000"),
    ("wizard", {"type": "choose_trump", "suit": "\ud800"}, "is not one of"),
    ("durak", {"type": "attack", "card": 36}, "got 36"),
    ("mus", {"type": "discard", "cards": [40, 41]}, r"discard.cards\[0\]: expected a Mus card id 0–39, got 40"),
    ("mus", {"type": "discard", "cards": list(range(10**4))}, "expected at most 4 items"),
    ("mus", {"type": "signal", "signal": "x" * 10**5}, "is not one of"),
])
def test_malformed_json_actions_raise_decode_error_naming_the_path(name: str, data: Any, message: str) -> None:
    game = cardtable.load_game(name)
    with pytest.raises(DecodeError, match=message) as info:
        game.action_codec.decode(data)
    assert len(str(info.value)) < 300


@dataclass(frozen=True)
class Named:
    TYPE: ClassVar[str] = "named"
    name: str


def test_a_string_holding_a_lone_surrogate_is_refused() -> None:
    with pytest.raises(DecodeError, match="lone surrogate"):
        Codec([Named]).decode({"type": "named", "name": "a\ud800"})
    assert "lone surrogate" in (problem_of(Named("a\ud800")) or "")
    assert problem_of(Named("ok é")) is None


def test_the_message_of_an_illegal_action_never_crashes() -> None:
    """``text()`` of an out-of-deck card raised IndexError inside IllegalAction.__init__."""
    for action in (Play(60), Play(-61), Attack(36), Discard((40, 41)), Play(BIG), Discard((1,) * 10**6)):
        message = str(IllegalAction(action, "refused"))
        assert message.startswith("illegal action ") and len(message) < 200
    assert action_text(Play(12)) == "play R13"


def test_negative_card_ids_do_not_wrap_around() -> None:
    from cardtable.cards import WIZARD_60

    with pytest.raises(ValueError, match="no card -1"):
        WIZARD_60.text(-1)
    game, state, seat = started("wizard")
    assert game.parse_action("play N4") == Play(59)
    assert "not -1" in (game.why_illegal(state, seat, Play(-1)) or "")


@pytest.mark.parametrize("name", list(cardtable.games()))
@pytest.mark.parametrize("seat", [-1, 99, True, 1.0, "0", 2**70])
def test_observe_refuses_a_seat_not_at_the_table(name: str, seat: Any) -> None:
    game, state, _ = started(name)
    if seat == 99:
        seat = game.players(state)
    with pytest.raises(ValueError, match="not a seat at this table"):
        game.observe(state, seat)
    assert game.observe(state, None).observer is None


@pytest.mark.parametrize("name", list(cardtable.games()))
def test_a_seat_that_is_not_an_int_is_refused(name: str) -> None:
    game, state, seat = started(name)
    action = game.legal_actions(state, seat)[0]
    for bad in (float(seat), bool(seat) if seat in (0, 1) else str(seat), None):
        with pytest.raises(IllegalAction, match="seat must be an int"):
            game.apply(state, bad, action)
    assert game.is_legal(state, seat, action)

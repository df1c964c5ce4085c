"""The JSON codec and the options machinery."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import ClassVar, Literal

import pytest

from cardtable.core import Codec, DecodeError, InvalidOptions, dumps, option_specs, parse_options, to_json


@dataclass(frozen=True)
class Inner:
    TYPE: ClassVar[str] = "inner"
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Outer:
    TYPE: ClassVar[str] = "outer"
    name: str
    inner: Inner
    maybe: int | None = None
    kind: Literal["a", "b"] = "a"


def test_nested_dataclasses_round_trip() -> None:
    value = Outer("x", Inner(2, (1, 5)), None, "b")
    codec = Codec([Outer])
    assert to_json(value) == {"type": "outer", "name": "x", "inner": {"type": "inner", "seat": 2, "cards": [1, 5]},
                              "maybe": None, "kind": "b"}
    assert codec.loads(dumps(value)) == value


@pytest.mark.parametrize("bad", [
    '{"type": "outer", "name": 1, "inner": {"seat": 1, "cards": []}}',
    '{"type": "outer", "name": "x", "inner": {"seat": true, "cards": []}}',
    '{"type": "outer", "name": "x", "inner": {"seat": 1, "cards": [1, "2"]}}',
    '{"type": "outer", "name": "x", "inner": {"seat": 1, "cards": []}, "kind": "c"}',
    '{"type": "outer", "name": "x"}',
    '{"type": "outer", "name": "x", "inner": {"seat": 1, "cards": []}, "extra": 1}',
    '{"type": "other"}', "[1]", "{", "",
])
def test_malformed_json_raises_decode_error_with_a_message(bad: str) -> None:
    with pytest.raises(DecodeError) as info:
        Codec([Outer]).loads(bad)
    assert str(info.value)


@dataclass(frozen=True)
class Signals:
    enabled: bool = False
    interception_p: float = 0.0


@dataclass(frozen=True)
class Opts:
    players: int = 4
    target: Literal[32, 52, 62] = field(default=52, metadata={"help": "points to win"})
    no_trump: bool = True
    signals: Signals = field(default_factory=Signals)


def test_option_specs_describe_every_option_with_dotted_groups() -> None:
    specs = {s.name: s for s in option_specs(Opts)}
    assert set(specs) == {"players", "target", "no_trump", "signals.enabled", "signals.interception_p"}
    assert specs["target"].kind == "choice" and specs["target"].choices == (32, 52, 62)
    assert specs["target"].help == "points to win"
    assert specs["signals.enabled"].kind == "bool"


def test_parse_options_from_text_presets_and_groups() -> None:
    presets = {"short": {"target": 32}}
    opts = parse_options(Opts, {"no_trump": "off", "signals.enabled": "on"}, presets=presets, preset="short")
    assert opts == Opts(4, 32, False, Signals(True, 0.0))
    assert parse_options(Opts, {"signals": {"interception_p": "0.25"}}).signals.interception_p == 0.25


@pytest.mark.parametrize(("values", "message"), [
    ({"target": 40}, "target"), ({"no_trump": "maybe"}, "no_trump"), ({"colour": 1}, "unknown option"),
    ({"signals": 3}, "group"), ({"players": "four"}, "players"),
])
def test_bad_options_are_refused_by_name(values: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        parse_options(Opts, values)


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(InvalidOptions, match="preset"):
        parse_options(Opts, {}, presets={}, preset="house")


def test_word_actions_write_their_first_word_and_read_every_word() -> None:
    from cardtable.core.actions import WordAction

    @dataclass(frozen=True, slots=True)
    class Pass(WordAction):
        TYPE: ClassVar[str] = "pass"
        WORDS: ClassVar[tuple[str, ...]] = ("pass", "paso")

    assert Pass().text() == "pass"
    assert Pass.parse(" PASO ") == Pass() and Pass.parse("pass") == Pass()
    assert Pass.parse("pas") is None
    assert Codec([Pass]).loads(dumps(Pass())) == Pass()


# The compiled encoder writes exactly what a reflective encoder and the standard library write.


def reference_to_json(value: object) -> object:
    """The reflective encoder the codec replaced: the definition of the JSON form."""
    import dataclasses
    import enum
    from collections.abc import Mapping

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, object] = {"type": type(value).TYPE}  # type: ignore[attr-defined]
        for f in dataclasses.fields(value):
            if f.init:
                out[f.name] = reference_to_json(getattr(value, f.name))
        return out
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (tuple, list, frozenset)):
        return [reference_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): reference_to_json(v) for k, v in value.items()}
    return value


def reference_dumps(value: object) -> str:
    import json

    return json.dumps(reference_to_json(value), ensure_ascii=False, separators=(",", ":"))


class Colour(enum.Enum):
    RED = 1
    BLUE = 2


@dataclass(frozen=True)
class Mixed:
    TYPE: ClassVar[str] = "mixed"
    score: float
    scores: tuple[float, ...]
    anything: object
    colour: Colour
    table: dict[int, tuple[int, ...]]
    cards: frozenset[int]
    pair: tuple[int, str]
    maybe: Inner | None
    name: str = "é\n\"x\""


@pytest.mark.parametrize("value", [
    Mixed(1e16, (0.5, 1e-7, float("inf")), {"k": [1.5, float("nan")]}, Colour.RED, {3: (1, 2)},
          frozenset({4, 9}), (1, "a"), Inner(0, ()), "\u2028\x7f\x1f"),
    Mixed(2.0, (), None, Colour.BLUE, {}, frozenset(), (2**70, "😀"), None),
    Mixed(0.0, (-0.0,), Inner(1, (2,)), Colour.RED, {}, frozenset(), (-1, ""), None, "\ud800 lone surrogate"),
    [Inner(1, (2, 3)), Outer("x", Inner(2, ()))],
    [[Inner(1, ())], 1.0e20, "s", None, True],
    {"a": (1, 2), 3: Colour.BLUE},
    (),
])
def test_the_encoder_writes_what_the_reflective_encoder_writes(value: object) -> None:
    assert to_json(value) == reference_to_json(value)
    assert dumps(value) == reference_dumps(value)


def test_every_game_encodes_its_events_and_views_as_the_reflective_encoder_does() -> None:
    import random

    import cardtable

    for name, game in cardtable.games().items():
        state, events = game.new(game.options(), 11)
        rng = random.Random(11)
        for _ in range(60):
            if (seat := game.to_act(state)) is None:
                break
            legal = game.legal_actions(state, seat)
            for value in [*events, legal, *(game.observe(state, s) for s in (seat, None))]:
                assert dumps(value) == reference_dumps(value), name
            state, events = game.apply(state, seat, legal[rng.randrange(len(legal))])


def test_decode_errors_name_the_path_and_quote_only_an_excerpt() -> None:
    with pytest.raises(DecodeError, match=r"outer\.inner\.cards\[1\]: expected int, got a string"):
        Codec([Outer]).loads('{"type": "outer", "name": "x", "inner": {"seat": 1, "cards": [1, "2"]}}')
    with pytest.raises(DecodeError) as info:
        Codec([Outer]).decode({"type": "x" * 10_000})
    assert len(str(info.value)) < 200
    for bad in ['{"type": "outer", "name": NaN}', b"\xff", '"\\ud800"', "[" * 5000]:
        with pytest.raises(DecodeError, match="not valid JSON"):
            Codec([Outer]).loads(bad)
    assert Codec([Outer]).loads(b'{"type":"outer","name":"x","inner":{"seat":1,"cards":[]}}') == Outer(
        "x", Inner(1, ()))


def test_random_values_encode_as_the_reflective_encoder_does() -> None:
    """Hypothesis: any mix of floats (exponents, NaN), big ints, odd strings, nesting gives the same JSON text."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    text = st.one_of(st.text(max_size=8), st.text(st.characters(categories=("Cc", "Cs", "Zl", "So")), max_size=4))
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), text)
    json_ish = st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=3)), max_leaves=10)
    inner = st.builds(Inner, st.integers(), st.lists(st.integers(), max_size=4).map(tuple))
    mixed = st.builds(
        Mixed, st.floats(), st.lists(st.floats(), max_size=4).map(tuple), st.one_of(json_ish, inner),
        st.sampled_from(Colour), st.dictionaries(st.integers(), st.lists(st.integers(), max_size=3).map(tuple),
                                                 max_size=3),
        st.frozensets(st.integers(), max_size=4), st.tuples(st.integers(), text), st.one_of(st.none(), inner), text)

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(value=st.one_of(mixed, st.lists(st.one_of(mixed, inner, json_ish), max_size=3)))
    def same(value: object) -> None:
        assert repr(to_json(value)) == repr(reference_to_json(value))  # repr: NaN is not equal to itself
        assert dumps(value) == reference_dumps(value)

    same()

"""``parse_bot_options``: one parser for every bot's numeric options."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from cardtable.core.bot import parse_bot_options


@dataclass(frozen=True)
class _Budget:
    sims: int = 10
    ms: float = 0.0

    def __post_init__(self) -> None:
        if self.sims < 1:
            raise ValueError(f"search option sims must be at least 1, not {self.sims}")


def test_strings_become_each_fields_type_and_missing_keys_keep_their_defaults() -> None:
    """``sims`` is an int and ``ms`` a float, whatever text they came as."""
    parsed = parse_bot_options(_Budget, {"sims": "40", "ms": "2.5"})
    assert (parsed, type(parsed.sims), type(parsed.ms)) == (_Budget(40, 2.5), int, float)
    parsed = parse_bot_options(_Budget, {"sims": 40, "ms": 3})  # numbers as they come from JSON
    assert (parsed, type(parsed.sims), type(parsed.ms)) == (_Budget(40, 3.0), int, float)
    assert parse_bot_options(_Budget, {}) == _Budget()


@pytest.mark.parametrize(("values", "message"), [
    ({"sim": "4"}, "deep has no option 'sim' (known: sims, ms)"),
    ({"sims": "1.5"}, "deep option sims must be a whole number, not '1.5'"),
    ({"sims": 1.5}, "deep option sims must be a whole number, not 1.5"),
    ({"sims": 40.0}, "deep option sims must be a whole number, not 40.0"),
    ({"sims": True}, "deep option sims must be a whole number, not True"),
    ({"sims": [40]}, "deep option sims must be a whole number, not [40]"),
    ({"ms": "soon"}, "deep option ms must be a number, not 'soon'"),
    ({"ms": False}, "deep option ms must be a number, not False"),
    ({"ms": "nan"}, "deep option ms must be a number, not 'nan'"),
    ({"ms": float("inf")}, "deep option ms must be a number, not inf"),
    ({"sims": "0"}, "search option sims must be at least 1, not 0"),
])
def test_bad_options_are_refused_in_one_line(values: dict[str, object], message: str) -> None:
    """Unknown keys name the known ones; a non-number, a fraction for a whole number, a bool, a value that is
    not finite or out of range is refused, never rounded or coerced."""
    with pytest.raises(ValueError) as caught:
        parse_bot_options(_Budget, values, bot="deep")
    assert str(caught.value) == message

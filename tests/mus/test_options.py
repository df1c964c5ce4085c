"""Configuration: rules.default.toml holds every option with the seed's default; options load from TOML and Python."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from cardtable.core import InvalidOptions, option_specs
from cardtable.games.mus import GAME
from cardtable.games.mus.options import DEFAULT_TOML, MusGameOptions


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(flatten(value, prefix + key + "."))
        else:
            out[prefix + key] = value
    return out


def test_convencion_default_toml_lists_every_option_with_its_default() -> None:
    """Every option (scoring, betting, mus, match, signals) is a key of rules.default.toml, same default."""
    toml = flatten(tomllib.loads(DEFAULT_TOML.read_text(encoding="utf-8")))
    specs = {s.name: s.default for s in option_specs(MusGameOptions)}
    assert toml == specs
    for key in ("scoring.negada_ends_game", "match.games_to_win", "betting.raise_rule", "mus.cut_anytime_a_falta",
                "signals.enabled", "signals.interception_p", "modalidad"):
        assert key in toml
    assert toml["signals.enabled"] is False and toml["scoring.target"] == 40 and toml["modalidad"] == "8R8A"


def test_options_load_from_a_toml_path_and_from_toml_text(tmp_path: Path) -> None:
    """options_from_toml takes a file or text; Python keyword options work too."""
    assert GAME.options_from_toml(DEFAULT_TOML) == MusGameOptions()
    text = '[scoring]\ntarget = 30\nnegada_ends_game = false\n[signals]\nenabled = true\n'
    from_text = GAME.options_from_toml(text)
    sc = from_text.scoring
    assert (sc.target, sc.negada_ends_game, from_text.signals.enabled) == (30, False, True)
    path = tmp_path / "casa.toml"
    path.write_text(text, encoding="utf-8")
    assert GAME.options_from_toml(str(path)) == from_text
    assert GAME.options({"scoring.target": 30, "scoring": {"negada_ends_game": False},
                         "signals.enabled": True}) == from_text


def test_options_refuse_values_that_would_break_the_game() -> None:
    """Zero tantos, a 3-player table, max_bet below min_bet and a probability above 1 are refused."""
    bad: list[dict[str, Any]] = [{"scoring.grande_en_paso": 0}, {"players": 3}, {"betting.max_bet": 1},
                                 {"signals.interception_p": 1.5}, {"mus.min_discard": 0}, {"modalidad": "9R"}]
    for values in bad:
        with pytest.raises(InvalidOptions):
            GAME.options(values)


def test_presets_build() -> None:
    """The presets: señas on, a match a cinco juegos (first to 3), a short game."""
    assert GAME.options(preset="senas").signals.enabled
    assert GAME.options(preset="a_cinco_juegos").match.games_to_win == 3
    assert GAME.options(preset="corto").scoring.target == 15

"""Mus options: every [CONVENCIÓN] value and every open question (P4–P8) of the seed.

The defaults equal ``rules.default.toml`` (a test checks it). Groups nest as
dotted names: ``scoring.target``, ``signals.enabled``… :func:`check_values` makes the
cross-field checks of ``MusGame.check_options``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from cardtable.core import InvalidOptions

DEFAULT_TOML = Path(__file__).with_name("rules.default.toml")


@dataclass(frozen=True)
class ScoringOptions:
    """Tanteo values [CONVENCIÓN] and end-of-game questions (P4, P8)."""

    target: int = field(default=40, metadata={"help": "Tantos to win a game (FEM Intro E: 40 to 60)"})
    negada: int = field(default=1, metadata={"help": "Tantos for refusing the first envite of a lance"})
    grande_en_paso: int = field(default=1, metadata={"help": "Grande when everybody passes"})
    chica_en_paso: int = field(default=1, metadata={"help": "Chica when everybody passes"})
    par: int = field(default=1, metadata={"help": "Pares: a par, per holder of the winning pair"})
    medias: int = field(default=2, metadata={"help": "Pares: medias, per holder of the winning pair"})
    duples: int = field(default=3, metadata={"help": "Pares: duples, per holder of the winning pair"})
    juego_31: int = field(default=3, metadata={"help": "Juego of 31, per holder of the winning pair"})
    juego_otro: int = field(default=2, metadata={"help": "Any other juego, per holder of the winning pair"})
    punto: int = field(default=1, metadata={"help": "Tantos for winning the punto"})
    negada_ends_game: bool = field(default=True, metadata={"help": "P8: a deje in the act that reaches the "
                                                                   "target ends the game at once"})
    deje_en_el_acto: bool = field(default=True, metadata={"help": "Refused envites are scored at once (FEM VI.6); "
                                                                  "off: counted at the end in lance order"})
    ordago_cancels_earlier_bets: bool = field(default=True, metadata={"help": "An accepted órdago cancels the "
                                                                              "envites accepted in earlier "
                                                                              "lances (FEM VII.12)"})
    team_is_in_margin: int = field(default=4, metadata={"help": "Tantos left at which a pair 'is in' "
                                                                "(FEM VII.7) and 'a falta de tanto' starts"})


@dataclass(frozen=True)
class BettingOptions:
    """Envites: minimum bet, how raises work (P7) and the largest bet offered."""

    min_bet: int = field(default=2, metadata={"help": "The smallest envite ('envido' = 2)"})
    raise_rule: Literal["any", "double"] = field(default="any", metadata={
        "help": "P7: 'any' raise of at least min_bet, or 'double' (FEM's reenvido doubles the envite)"})
    max_bet: int = field(default=10, metadata={"help": "The largest envite or raise offered (órdago is always "
                                                       "offered); bets never exceed the tantos that can matter"})


@dataclass(frozen=True)
class MusOptions:
    """The mus and the discards."""

    min_discard: int = field(default=1, metadata={"help": "Fewest cards to discard after mus (CONVENCIÓN: 1)"})
    cut_anytime_a_falta: bool = field(default=True, metadata={"help": "P6: 'a falta de tanto' the mus may be "
                                                                      "cut during the discards too (FEM IV.7)"})
    max_rounds: int = field(default=10, metadata={"help": "Mus rounds in one hand before the mus must be cut "
                                                          "(a digital bound so every game ends)"})


@dataclass(frozen=True)
class MatchOptions:
    """A match of several games (P4)."""

    games_to_win: int = field(default=1, metadata={"help": "P4: games a pair must win to take the match"})


@dataclass(frozen=True)
class SignalOptions:
    """The official signs (FEM VIII.2–6), prepared and off by default."""

    enabled: bool = field(default=False, metadata={"help": "Allow signs between partners"})
    interception_p: float = field(default=0.1, metadata={"help": "Chance that each rival sees a sign"})


@dataclass(frozen=True)
class MusGameOptions:
    """Every option of a Mus game."""

    players: int = field(default=4, metadata={"help": "Always 4: two pairs, seats 0+2 and 1+3"})
    modalidad: Literal["8R8A", "4R"] = field(default="8R8A", metadata={
        "help": "8R8A: the 3 is a rey and the 2 an as (FEM II.3); 4R: four reyes"})
    scoring: ScoringOptions = field(default_factory=ScoringOptions)
    betting: BettingOptions = field(default_factory=BettingOptions)
    mus: MusOptions = field(default_factory=MusOptions)
    match: MatchOptions = field(default_factory=MatchOptions)
    signals: SignalOptions = field(default_factory=SignalOptions)


def load_toml(source: str | Path) -> dict[str, Any]:
    """The option values in a TOML file (a path) or TOML text; keys as in ``rules.default.toml``."""
    if isinstance(source, Path) or (isinstance(source, str) and "\n" not in source and source.endswith(".toml")):
        text = Path(source).read_text(encoding="utf-8")
    else:
        text = str(source)
    return tomllib.loads(text)


def check_values(options: MusGameOptions) -> None:
    """Cross-field checks: positive values (so every hand scores), sane bounds; ``InvalidOptions`` if not."""
    sc, bt = options.scoring, options.betting
    positive = {"scoring.target": sc.target, "scoring.negada": sc.negada,
                "scoring.grande_en_paso": sc.grande_en_paso, "scoring.chica_en_paso": sc.chica_en_paso,
                "scoring.par": sc.par, "scoring.medias": sc.medias, "scoring.duples": sc.duples,
                "scoring.juego_31": sc.juego_31, "scoring.juego_otro": sc.juego_otro,
                "scoring.punto": sc.punto, "betting.min_bet": bt.min_bet,
                "match.games_to_win": options.match.games_to_win}
    for name, value in positive.items():
        if value < 1:
            raise InvalidOptions(f"option {name!r} must be at least 1, not {value}")
    if bt.max_bet < bt.min_bet:
        raise InvalidOptions("option 'betting.max_bet' must be at least 'betting.min_bet'")
    if not 1 <= options.mus.min_discard <= 4:
        raise InvalidOptions("option 'mus.min_discard' must be 1 to 4")
    if options.mus.max_rounds < 0 or sc.team_is_in_margin < 0:
        raise InvalidOptions("'mus.max_rounds' and 'scoring.team_is_in_margin' may not be negative")
    if not 0.0 <= options.signals.interception_p <= 1.0:
        raise InvalidOptions("option 'signals.interception_p' must be between 0 and 1")

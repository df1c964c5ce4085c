"""Mus actions (seed §3.1): small frozen dataclasses with a JSON type, a text form and a parser."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal, Self, get_args

from cardtable.cards import SPANISH_40
from cardtable.core.actions import WordAction
from cardtable.core.checks import MaxItems, Within

SignalName = Literal[
    "dos_reyes", "dos_ases", "pares", "medias_de_reyes", "medias_de_ases", "medias", "duples",
    "juego", "treinta_y_una", "treinta", "veintinueve", "ciego", "cortar_mus", "envidar_mas",
]
SIGNALS: tuple[SignalName, ...] = get_args(SignalName)
MusCard = Annotated[int, Within(0, 40, "a Mus card id")]
"""A card id: an int 0–39 (the SPANISH_40 deck)."""
Discarded = Annotated[tuple[MusCard, ...], MaxItems(4)]
"""The cards of a discard: at most four card ids."""
Tantos = Annotated[int, Within(0, 10_000, "a number of tantos")]
"""An envite's or a raise's amount: an int 0–9999 (the rules then allow min_bet to the cap)."""


def _card_words(cards: tuple[int, ...]) -> str:
    return ", ".join(SPANISH_40.card(c).words() for c in cards)


@dataclass(frozen=True, slots=True)
class Mus(WordAction):
    """Dar mus: ask to change cards."""

    TYPE: ClassVar[str] = "mus"
    WORDS: ClassVar[tuple[str, ...]] = ("mus",)


@dataclass(frozen=True, slots=True)
class CutMus(WordAction):
    """Cortar el mus ("no hay mus"): play the lances with these cards."""

    TYPE: ClassVar[str] = "cut_mus"
    WORDS: ClassVar[tuple[str, ...]] = ("cut", "no hay mus")


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard 1–4 cards (sorted SPANISH_40 ids) after everybody gave mus."""

    TYPE: ClassVar[str] = "discard"
    cards: Discarded

    def text(self) -> str:
        """Short text form: ``discard Ro,1e``."""
        return "discard " + SPANISH_40.format(self.cards)

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """Parse the text form; None if it is not this action."""
        head, _, rest = text.strip().partition(" ")
        if head.lower() != "discard" or not rest.strip():
            return None
        try:
            return cls(tuple(sorted(SPANISH_40.parse_many(rest))))
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class Pass(WordAction):
    """Paso: no envite."""

    TYPE: ClassVar[str] = "pass"
    WORDS: ClassVar[tuple[str, ...]] = ("pass", "paso")


def _parse_amount(text: str, word: str) -> int | None:
    head, _, rest = text.strip().partition(" ")
    if head.lower() != word or not rest.strip().isdigit():
        return None
    return int(rest.strip())


@dataclass(frozen=True, slots=True)
class Bet:
    """Envido: open the betting of a lance with ``amount`` tantos (≥ 2)."""

    TYPE: ClassVar[str] = "bet"
    amount: Tantos

    def text(self) -> str:
        """Short text form: ``bet 2``."""
        return f"bet {self.amount}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """Parse the text form; None if it is not this action."""
        amount = _parse_amount(text, "bet")
        return None if amount is None else cls(amount)


@dataclass(frozen=True, slots=True)
class Raise:
    """Reenvite: raise the envite in force by ``amount`` tantos."""

    TYPE: ClassVar[str] = "raise"
    amount: Tantos

    def text(self) -> str:
        """Short text form: ``raise 2``."""
        return f"raise {self.amount}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """Parse the text form; None if it is not this action."""
        amount = _parse_amount(text, "raise")
        return None if amount is None else cls(amount)


@dataclass(frozen=True, slots=True)
class Accept(WordAction):
    """Quiero."""

    TYPE: ClassVar[str] = "accept"
    WORDS: ClassVar[tuple[str, ...]] = ("accept", "quiero")


@dataclass(frozen=True, slots=True)
class AcceptNoLose(WordAction):
    """"Quiero y no pierdo": the postre's only way to accept an órdago a juego holding 33 (FEM VI.9–10)."""

    TYPE: ClassVar[str] = "accept_no_lose"
    WORDS: ClassVar[tuple[str, ...]] = ("accept-no-lose", "quiero y no pierdo")


@dataclass(frozen=True, slots=True)
class Reject(WordAction):
    """No quiero."""

    TYPE: ClassVar[str] = "reject"
    WORDS: ClassVar[tuple[str, ...]] = ("reject", "no quiero")


@dataclass(frozen=True, slots=True)
class Ordago(WordAction):
    """Órdago: bet the whole game on this lance."""

    TYPE: ClassVar[str] = "ordago"
    WORDS: ClassVar[tuple[str, ...]] = ("ordago", "órdago")


@dataclass(frozen=True, slots=True)
class Signal:
    """A seña to the partner (FEM VIII.2), checked against the sender's real cards."""

    TYPE: ClassVar[str] = "signal"
    signal: SignalName

    def text(self) -> str:
        """Short text form: ``signal dos_reyes``."""
        return f"signal {self.signal}"

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """Parse the text form; None if it is not this action."""
        head, _, rest = text.strip().partition(" ")
        name = rest.strip()
        if head.lower() != "signal" or name not in SIGNALS:
            return None
        return cls(name)


MusAction = Mus | CutMus | Discard | Pass | Bet | Raise | Accept | AcceptNoLose | Reject | Ordago | Signal
ACTION_TYPES: tuple[type[MusAction], ...] = (
    Mus, CutMus, Discard, Pass, Bet, Raise, Accept, AcceptNoLose, Reject, Ordago, Signal,
)


def describe(action: MusAction) -> str:
    """The action in words (Spanish terms kept), for people and screen readers."""
    if isinstance(action, Discard):
        return f"Descartar {_card_words(action.cards)}"
    if isinstance(action, Bet):
        return f"Envido {action.amount}"
    if isinstance(action, Raise):
        return f"Subo {action.amount} más"
    if isinstance(action, Signal):
        return "Seña: " + action.signal.replace("_", " ")
    return {
        "mus": "Mus", "cut_mus": "No hay mus", "pass": "Paso", "accept": "Quiero",
        "accept_no_lose": "Quiero y no pierdo", "reject": "No quiero", "ordago": "Órdago",
    }[action.TYPE]


@dataclass(frozen=True, slots=True)
class ActionTemplate:
    """A parametrised action for UIs and bots: ``Bet(min=2, max=10)``, ``Discard(min=1, max=4)``."""

    kind: str
    min: int | None = None
    max: int | None = None

    def text(self) -> str:
        """Short text form: ``bet(2..10)``."""
        if self.min is None:
            return self.kind
        return f"{self.kind}({self.min}..{'' if self.max is None else self.max})"

"""Mus events: public unless they carry a seat's cards or a seña."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cardtable.cards import SPANISH_40
from cardtable.core import Event, PrivateEvent
from cardtable.core.types import ShownCards, ShownHands

PAIR_NAMES = ("A", "B")


def _cards(cards: tuple[int, ...]) -> str:
    return ", ".join(SPANISH_40.card(c).words() for c in cards)


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """A new game (juego) begins; the first dealer was drawn by lot (FEM III.1)."""

    TYPE: ClassVar[str] = "game_started"
    game: int
    dealer: int
    target: int

    def text(self) -> str:
        """A line in words."""
        return f"Juego {self.game} a {self.target} tantos; reparte el asiento {self.dealer}"


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A jugada is dealt: 4 cards each, one at a time, counter-clockwise from the mano."""

    TYPE: ClassVar[str] = "hand_dealt"
    hand: int
    dealer: int
    mano: int

    def text(self) -> str:
        """A line in words."""
        return f"Jugada {self.hand}: reparte {self.dealer}, es mano {self.mano}"


@dataclass(frozen=True, slots=True)
class CardsDealt(PrivateEvent):
    """The four cards a seat received (private)."""

    TYPE: ClassVar[str] = "cards_dealt"
    cards: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"Asiento {self.seat} recibe {_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class MusSaid(Event):
    """A seat gave mus."""

    TYPE: ClassVar[str] = "mus_said"
    seat: int

    def text(self) -> str:
        """A line in words."""
        return f"Asiento {self.seat}: mus"


@dataclass(frozen=True, slots=True)
class MusCut(Event):
    """A seat cut the mus; the lances begin."""

    TYPE: ClassVar[str] = "mus_cut"
    seat: int

    def text(self) -> str:
        """A line in words."""
        return f"Asiento {self.seat}: no hay mus"


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """A seat discarded some cards (the count is public, the cards are not)."""

    TYPE: ClassVar[str] = "discarded"
    seat: int
    count: int

    def text(self) -> str:
        """A line in words."""
        return f"Asiento {self.seat} se descarta de {self.count}"


@dataclass(frozen=True, slots=True)
class CardsReplaced(PrivateEvent):
    """The cards a seat drew to replace its discards (private)."""

    TYPE: ClassVar[str] = "cards_replaced"
    discarded: ShownCards
    drawn: ShownCards

    def text(self) -> str:
        """A line in words."""
        return f"Asiento {self.seat} cambia {_cards(self.discarded)} por {_cards(self.drawn)}"


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    """The deck ran out: the discards were shuffled into a new deck (FEM III.15)."""

    TYPE: ClassVar[str] = "deck_reshuffled"
    cards: int

    def text(self) -> str:
        """A line in words."""
        return f"Se acaba el mazo: se barajan los {self.cards} descartes"


@dataclass(frozen=True, slots=True)
class LanceStarted(Event):
    """A lance opens; ``speakers`` talk in this order (holders only in pares and juego)."""

    TYPE: ClassVar[str] = "lance_started"
    lance: str
    speakers: tuple[int, ...]

    def text(self) -> str:
        """A line in words."""
        return f"A {self.lance}: hablan {', '.join(map(str, self.speakers))}"


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """The engine declares, truthfully, whether a seat has pares or juego (FEM VI.5, IX.1)."""

    TYPE: ClassVar[str] = "declared"
    lance: str
    seat: int
    holds: bool

    def text(self) -> str:
        """A line in words."""
        return f"Asiento {self.seat}: {self.lance} {'sí' if self.holds else 'no'}"


@dataclass(frozen=True, slots=True)
class LanceSkipped(Event):
    """A lance without betting: nobody holds, or only one pair does (it collects at the end)."""

    TYPE: ClassVar[str] = "lance_skipped"
    lance: str
    holder_pair: int | None

    def text(self) -> str:
        """A line in words."""
        if self.holder_pair is None:
            return f"Nadie tiene {self.lance}"
        return f"Solo la pareja {PAIR_NAMES[self.holder_pair]} tiene {self.lance}: no hay envites"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A seat passed (paso)."""

    TYPE: ClassVar[str] = "passed"
    seat: int
    lance: str

    def text(self) -> str:
        """A line in words."""
        return f"Asiento {self.seat}: paso a {self.lance}"


@dataclass(frozen=True, slots=True)
class EnviteMade(Event):
    """A bet, a raise or an órdago; ``total`` is the envite now proposed (0 for an órdago)."""

    TYPE: ClassVar[str] = "envite_made"
    seat: int
    lance: str
    kind: str
    amount: int
    total: int

    def text(self) -> str:
        """A line in words."""
        if self.kind == "ordago":
            return f"Asiento {self.seat}: ¡órdago a {self.lance}!"
        if self.kind == "raise":
            return f"Asiento {self.seat}: {self.amount} más a {self.lance} ({self.total})"
        return f"Asiento {self.seat}: envido {self.amount} a {self.lance}"


@dataclass(frozen=True, slots=True)
class Answered(Event):
    """A seat answered an envite: accept, accept_no_lose or reject."""

    TYPE: ClassVar[str] = "answered"
    seat: int
    lance: str
    answer: str

    def text(self) -> str:
        """A line in words."""
        words = {"accept": "quiero", "accept_no_lose": "quiero y no pierdo", "reject": "no quiero"}
        return f"Asiento {self.seat}: {words.get(self.answer, self.answer)}"


@dataclass(frozen=True, slots=True)
class LanceClosed(Event):
    """A lance's betting ended: passed, accepted (``total``), rejected (won by ``pair``) or órdago."""

    TYPE: ClassVar[str] = "lance_closed"
    lance: str
    status: str
    total: int
    pair: int | None

    def text(self) -> str:
        """A line in words."""
        if self.status == "closed_accepted":
            return f"{self.lance}: envite de {self.total} querido"
        if self.status == "closed_rejected" and self.pair is not None:
            return f"{self.lance}: no querido, se lo lleva la pareja {PAIR_NAMES[self.pair]}"
        if self.status == "ordago_showdown":
            return f"{self.lance}: órdago querido"
        return f"{self.lance}: en paso"


@dataclass(frozen=True, slots=True)
class TantosScored(Event):
    """Tantos added to a pair's tanteo, with the reason and the tanteo after."""

    TYPE: ClassVar[str] = "tantos_scored"
    pair: int
    tantos: int
    reason: str
    lance: str
    tanteo: tuple[int, int]

    def text(self) -> str:
        """A line in words."""
        return (f"Pareja {PAIR_NAMES[self.pair]}: {self.tantos} de {self.reason} ({self.lance}); "
                f"tanteo {self.tanteo[0]}–{self.tanteo[1]}")


@dataclass(frozen=True, slots=True)
class HandsShown(Event):
    """The four hands are shown (FEM VII.9, VI.6): they are public from now on."""

    TYPE: ClassVar[str] = "hands_shown"
    REVEALS: ClassVar[bool] = True  # the rules show these cards to everyone
    hands: ShownHands

    def text(self) -> str:
        """A line in words."""
        return "Se enseñan las cartas: " + "; ".join(
            f"{seat}: {SPANISH_40.format(hand)}" for seat, hand in enumerate(self.hands))


@dataclass(frozen=True, slots=True)
class TeamIsIn(Event):
    """"Estamos dentro" (FEM VII.7): the pair is within the margin; "a falta de tanto" applies."""

    TYPE: ClassVar[str] = "team_is_in"
    pair: int
    tantos_left: int

    def text(self) -> str:
        """A line in words."""
        return f"La pareja {PAIR_NAMES[self.pair]} está dentro (le faltan {self.tantos_left})"


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    """A pair won a game (juego)."""

    TYPE: ClassVar[str] = "game_won"
    pair: int
    game: int
    tanteo: tuple[int, int]
    reason: str

    def text(self) -> str:
        """A line in words."""
        return f"La pareja {PAIR_NAMES[self.pair]} gana el juego {self.game} ({self.reason})"


@dataclass(frozen=True, slots=True)
class MatchWon(Event):
    """A pair won the match (partida)."""

    TYPE: ClassVar[str] = "match_won"
    pair: int
    games: tuple[int, int]

    def text(self) -> str:
        """A line in words."""
        return f"La pareja {PAIR_NAMES[self.pair]} gana la partida {self.games[0]}–{self.games[1]}"


@dataclass(frozen=True, slots=True)
class SignalSeen(PrivateEvent):
    """A seña seen by ``seat``: its partner's, or a rival's one it intercepted (private)."""

    TYPE: ClassVar[str] = "signal_seen"
    sender: int
    signal: str
    intercepted: bool

    def text(self) -> str:
        """A line in words."""
        how = "intercepta" if self.intercepted else "ve"
        return f"Asiento {self.seat} {how} la seña de {self.sender}: {self.signal.replace('_', ' ')}"


EVENT_TYPES: tuple[type[Event], ...] = (
    GameStarted, HandDealt, CardsDealt, MusSaid, MusCut, Discarded, CardsReplaced, DeckReshuffled,
    LanceStarted, Declared, LanceSkipped, Passed, EnviteMade, Answered, LanceClosed, TantosScored,
    HandsShown, TeamIsIn, GameWon, MatchWon, SignalSeen,
)

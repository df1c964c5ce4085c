"""The engine protocol every game implements.

A game is a stateless object; all that changes lives in the state it returns::

    game = cardtable.load_game("durak")
    state, events = game.new(game.options(players=3), seed=7)
    while (seat := game.to_act(state)) is not None:
        action = game.legal_actions(state, seat)[0]
        state, events = game.apply(state, seat, action)
    print(game.outcome(state))
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

from cardtable.cards import Deck
from cardtable.core.bot import BotFactory, registered_bots
from cardtable.core.checks import MAX_CHARS, is_valid_unicode, problem_of
from cardtable.core.codec import Codec
from cardtable.core.describe import describe_value, short_repr
from cardtable.core.errors import DecodeError, IllegalAction
from cardtable.core.events import Event
from cardtable.core.observation import Observation
from cardtable.core.options import OptionSpec, option_specs, parse_options
from cardtable.core.outcome import Outcome
from cardtable.core.rng import Seed
from cardtable.core.search import SearchHints
from cardtable.core.types import CardId, Seat

S = TypeVar("S")
A = TypeVar("A")
Ob = TypeVar("Ob", bound=Observation)
Opt = TypeVar("Opt")


@dataclass(frozen=True)
class GameInfo:
    """A game's metadata, declared once; generic tests check every game against it."""

    name: str
    title: str
    description: str
    min_players: int
    max_players: int
    options_type: type[Any]
    action_types: tuple[type[Any], ...]
    event_types: tuple[type[Event], ...]
    observation_type: type[Observation]
    deck: Deck | None = None
    hidden_information: bool = True
    has_teams: bool = False
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @cached_property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """Every option as data, for command lines and setup screens."""
        return option_specs(self.options_type)  # type: ignore[arg-type]


class Game(abc.ABC, Generic[S, A, Ob, Opt]):
    """The protocol: ``new``, ``to_act``, ``legal_actions``, ``apply``, ``observe``, ``outcome``."""

    info: GameInfo
    #: The ids of this game's own cached action objects (``cardtable.core.fast.TrustedActions.ids``):
    #: their fields were checked once, so ``why_illegal`` and ``apply`` skip the edge checks for them.
    trusted_ids: ClassVar[set[int] | frozenset[int]] = frozenset()

    # Setup.

    def options(self, values: Mapping[str, Any] | None = None, *, preset: str | None = None,
                **kwargs: Any) -> Opt:
        """Options from the defaults, a named preset, then ``values`` and keyword arguments."""
        merged = dict(values or {})
        merged.update(kwargs)
        opts: Opt = parse_options(self.info.options_type, merged, presets=self.info.presets, preset=preset)
        self.check_options(opts)
        return opts

    def check_options(self, options: Opt) -> None:
        """Raise :class:`InvalidOptions` if the options do not fit together."""
        from cardtable.core.errors import InvalidOptions

        players = getattr(options, "players")
        if not self.info.min_players <= players <= self.info.max_players:
            raise InvalidOptions(
                f"{self.info.title} is for {self.info.min_players}–{self.info.max_players} players, not {players}"
            )

    @abc.abstractmethod
    def new(self, options: Opt, seed: Seed) -> tuple[S, list[Event]]:
        """Deal a new game; all randomness comes from ``seed`` through the RNG kept in the state.

        ``seed`` is a number, or a :class:`~cardtable.core.rng.ChanceSource` that scripts every
        chance outcome (start the RNG with ``cardtable.core.rng.seeded(seed)``).
        """

    # Flow.

    @abc.abstractmethod
    def to_act(self, state: S) -> Seat | None:
        """The seat that must act now; ``None`` once the game is over."""

    @abc.abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """Every legal action of ``seat`` now, in a deterministic order (empty if not its turn)."""

    def why_illegal(self, state: S, seat: Seat, action: A) -> str | None:
        """Why ``action`` by ``seat`` is illegal now, or ``None`` if it is legal; ``apply`` and ``is_legal`` ask this.

        The edge checks come first, the same for every game: the action is one of this game's
        action classes and each field fits its annotation exactly (see :mod:`cardtable.core.checks`),
        the seat is an int and a seat at the table. Only a well-formed action by a seat at the table
        reaches the game's :meth:`why_illegal_now`.
        """
        if id(action) in self.trusted_ids and type(seat) is int and 0 <= seat < self.players(state):
            return self.why_illegal_now(state, seat, action)  # one of the game's own actions, checked once
        if type(action) not in self._action_classes:
            return f"{short_repr(action)} is not a {self.info.title} action"
        problem = problem_of(action)
        if problem is not None:
            return problem
        if type(seat) is not int:
            return f"a seat must be an int, not {describe_value(seat)}"
        if not 0 <= seat < self.players(state):
            return f"{short_repr(seat)} is not a seat at this table (seats 0–{self.players(state) - 1})"
        return self.why_illegal_now(state, seat, action)

    def why_illegal_now(self, state: S, seat: Seat, action: A) -> str | None:
        """Why a well-formed action by ``seat`` breaks the rules now, or ``None``.

        The default rebuilds the legal list; games answer it directly, without building it.
        """
        turn = self.to_act(state)
        if turn is None:
            return "the game is over"
        if seat != turn:
            return f"it is seat {turn}'s turn, not seat {seat}'s"
        if action not in self.legal_actions(state, seat):
            return "not among the legal actions now"
        return None

    def is_legal(self, state: S, seat: Seat, action: A) -> bool:
        """Whether ``apply`` would accept the action; the very check ``apply`` makes."""
        return self.why_illegal(state, seat, action) is None

    def apply(self, state: S, seat: Seat, action: A) -> tuple[S, list[Event]]:
        """Validate, then return the new state and what happened; the old state is untouched.

        Raises :class:`IllegalAction` naming the action and the reason.
        """
        if id(action) in self.trusted_ids and type(seat) is int and 0 <= seat < self.players(state):
            reason = self.why_illegal_now(state, seat, action)  # the hot path of every playout, inlined
        else:
            reason = self.why_illegal(state, seat, action)
        if reason is not None:
            raise IllegalAction(action, reason)
        return self.apply_unchecked(state, seat, action)

    @abc.abstractmethod
    def apply_unchecked(self, state: S, seat: Seat, action: A) -> tuple[S, list[Event]]:
        """``apply`` without validation, for callers that took the action from ``legal_actions``."""

    def replay(self, options: Opt, seed: Seed, actions: Sequence[tuple[Seat, A]]) -> S:
        """The state after ``actions`` from ``new(options, seed)``, each validated as ``apply`` validates it.

        Events are not kept (games may override this to skip building them and the states between);
        an illegal action raises :class:`IllegalAction` naming its index in ``actions`` (``step``).
        """
        state, _ = self.new(options, seed)
        for step, (seat, action) in enumerate(actions):
            try:
                state, _ = self.apply(state, seat, action)
            except IllegalAction as exc:
                raise IllegalAction(action, exc.reason, step=step) from None
        return state

    def replay_decoded(self, options: Opt, seed: Seed, items: Sequence[Any],
                       pair_of: Callable[[Any], tuple[Seat, A]]) -> S:
        """:meth:`replay` of a record's decoded items (``core.record_decoder``), ``pair_of(item)`` their actions.

        ``core.record.load_state`` calls this. ``pair_of`` may raise (``record_decoder.Undecodable``):
        every item is converted before any is replayed, so such a record is refused before any rule is
        asked. Games may override this to replay from the items directly.
        """
        return self.replay(options, seed, tuple(map(pair_of, items)))

    # What leaves the engine.

    @abc.abstractmethod
    def observe(self, state: S, seat: Seat | None) -> Ob:
        """What ``seat`` may know (``None``: a spectator); the only way state leaves the engine.

        Implementations start with ``self.check_observer(state, seat)``.
        """

    def check_observer(self, state: S, seat: Seat | None) -> None:
        """Raise ``ValueError`` unless ``seat`` is a seat at this table (an int 0 … players - 1) or ``None``."""
        if seat is None:
            return
        if type(seat) is not int or not 0 <= seat < self.players(state):
            raise ValueError(f"{describe_value(seat)} is not a seat at this table "
                             f"(seats 0–{self.players(state) - 1}, or None for a spectator)")

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """Scores, winners and reason once the game is over; ``None`` while playing."""

    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""
        return self.outcome(state) is not None

    @abc.abstractmethod
    def hidden_cards(self, state: S, seat: Seat | None) -> frozenset[CardId]:
        """The cards ``seat`` may not know now (others' hands, the stock, …); used by leak tests."""

    @abc.abstractmethod
    def players(self, state: S) -> int:
        """The number of seats in this game."""

    @abc.abstractmethod
    def max_actions(self, options: Opt) -> int:
        """An upper bound on the number of actions of any game with these options."""

    def teams(self, options: Opt) -> tuple[tuple[Seat, ...], ...]:
        """The partnerships; by default every seat plays for itself."""
        return tuple((s,) for s in range(getattr(options, "players")))

    # Text and JSON.

    def parse_action(self, text: str) -> A:
        """The action written ``text`` (each action class offers ``parse``); ``DecodeError`` if none."""
        if not isinstance(text, str) or len(text) > MAX_CHARS or not is_valid_unicode(text):
            raise DecodeError(f"{short_repr(text)} is not the text of an action (a short, valid string)")
        for cls in self.info.action_types:
            try:
                action = cls.parse(text)
            except ValueError:  # a number too long to convert, say
                action = None
            if action is not None:
                return action  # type: ignore[no-any-return]
        raise DecodeError(f"{short_repr(text)} is not a {self.info.title} action")

    def describe_action(self, action: A) -> str:
        """The action in words for people and screen readers ("Bid 2", "Play 7 of red", "Take the cards")."""
        return str(action.text())  # type: ignore[attr-defined]

    @cached_property
    def _action_classes(self) -> frozenset[type[Any]]:
        return frozenset(self.info.action_types)

    @cached_property
    def action_codec(self) -> Codec:
        """Decodes actions from JSON."""
        return Codec(self.info.action_types)

    @cached_property
    def event_codec(self) -> Codec:
        """Decodes events from JSON."""
        return Codec(self.info.event_types)

    @cached_property
    def observation_codec(self) -> Codec:
        """Decodes observations from JSON."""
        return Codec([self.info.observation_type])

    # Search.

    def sample_world(self, observation: Ob, rng: random.Random) -> S:
        """A full state consistent with everything ``observation``'s seat knows (determinization for search).

        Hidden cards are dealt at random among the places the seat cannot see, respecting what it
        has seen (voids shown by not following suit, declarations, public pick-ups). Games that
        support search bots override this; ``observe(world, seat) == observation`` holds.
        """
        raise NotImplementedError(f"{self.info.title} cannot sample worlds for search")

    def can_sample_worlds(self) -> bool:
        """Whether this game overrides :meth:`sample_world` (and so supports the search bot)."""
        return type(self).sample_world is not Game.sample_world

    def search_hints(self) -> SearchHints:
        """Where a search playout stops and what it is worth; by default the end of the game."""
        return SearchHints()

    # Bots and statistics.

    def bots(self) -> Mapping[str, BotFactory]:
        """This game's own bots by name, as its package registered them (the generic ones are added by
        ``cardtable.bots``); a game may override this instead of registering them."""
        return registered_bots(self.info.name)

    def seat_stats(self, state: S) -> Sequence[Mapping[str, float]]:
        """Per-seat counters of a finished game that self-play adds up (e.g. exact bids, rounds)."""
        return [{} for _ in range(self.players(state))]

    #: Rates self-play derives from summed counters: ``name -> (numerator, denominator)``.
    stat_rates: Mapping[str, tuple[str, str]] = {}

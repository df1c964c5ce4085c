"""OpenSpiel bridge: every cardtable game as a ``pyspiel`` Python game named ``cardtable_<game>``.

    import pyspiel
    import cardtable.openspiel                                # registers the games
    game = pyspiel.load_game("cardtable_crazy_eights", {"players": 2, "rounds": 1})

- **Parameters** are the game's options, with their defaults (``cardtable games`` lists them);
  Mus's grouped options keep their dotted names (``"scoring.target"``). An option whose choices
  mix a word and numbers is an int parameter where 0 stands for the word: Wizard ``rounds=0``
  plays all rounds, Crazy Eights ``hand_size=0`` deals the automatic size.
- **Actions** are the ids of the game's encoding (``docs/rl.md``); ``legal_actions`` is its mask.
- **Chance.** Every random draw of the engine (each shuffle, the first dealer, a rebuilt stock,
  a seña intercepted) is made by chance nodes, through ``cardtable.core.rng.Scripted``: a
  shuffle of ``k`` cards is ``k - 1`` chance nodes, each choosing uniformly which of the
  remaining cards comes next; a uniform choice among ``n`` is one node of ``n`` outcomes; an
  event of probability ``p`` is one node with outcomes 1 (``p``) and 0 (``1 - p``). A state is
  therefore its history of actions, so states serialize and replay exactly
  (``pyspiel.serialize_game_and_state``).
- **Returns**: +1 for every winner and -1 for every other seat at the end (0 for all when
  everybody wins), as ``cardtable.rl`` does.
- **Observations**: the observation tensor is the game's encoding (what
  ``observe(state, seat)`` shows, as float32); the observation string is that observation as
  text; the information-state string is everything the seat has seen since the deal, in order
  (perfect recall), so two states with the same string look the same to the seat.

OpenSpiel's algorithms then run on cardtable games, e.g. Monte Carlo CFR::

    from open_spiel.python.algorithms import outcome_sampling_mccfr
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(1000):
        solver.iteration()
    policy = solver.average_policy()

Python games are slow in OpenSpiel (every step crosses into Python and back), and a chance
node replays the engine step it interrupts, so the bridge is for algorithms and research,
not for throughput; ``cardtable.rl`` and the engine itself are the fast paths.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyspiel

import cardtable
from cardtable.core.events import Event, events_for
from cardtable.core.rng import ChanceRequired, Scripted
from cardtable.rl.rewards import final_rewards
from cardtable.rl.spaces import encoding_for

PREFIX = "cardtable_"


def _words(game: Any) -> dict[str, str]:
    """Options whose choices mix a word and numbers (``rounds``: "all", 5, 10): name -> the word."""
    out: dict[str, str] = {}
    for spec in game.info.option_specs:
        choices = spec.choices or ()
        words = [c for c in choices if isinstance(c, str)]
        if words and any(isinstance(c, int) for c in choices):
            out[spec.name] = words[0]
    return out


def _parameters(game: Any) -> dict[str, Any]:
    """The game's options as pyspiel parameters (bool, int, float or str); a mixed option is an int, 0 its word."""
    words = _words(game)
    out: dict[str, Any] = {}
    for spec in game.info.option_specs:
        value = spec.default
        if spec.name in words:
            value = 0 if value == words[spec.name] else value
        out[spec.name] = value if isinstance(value, bool | int | float | str) else str(value)
    return out


def _game_type(game: Any) -> pyspiel.GameType:
    info = game.info
    return pyspiel.GameType(
        short_name=PREFIX + info.name,
        long_name=f"cardtable {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


class CardtableGame(pyspiel.Game):  # type: ignore[misc]
    """A cardtable game with its options, as a pyspiel game."""

    #: The cardtable game's name; set by the subclass registered for each game.
    NAME = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.NAME
        self.ct_game = cardtable.load_game(name)
        defaults = _parameters(self.ct_game)
        given = dict(params or {})
        unknown = sorted(set(given) - set(defaults))
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)} for {PREFIX}{name} "
                             f"(known: {', '.join(defaults)})")
        values = {**defaults, **given}
        for option, word in _words(self.ct_game).items():
            if values[option] == 0:
                values[option] = word
        self.options = self.ct_game.options(values)
        self.encoding = encoding_for(self.ct_game)
        deck = self.ct_game.info.deck
        self.max_chance = max(len(deck) if deck is not None else 0, 64)
        players = self.options.players
        actions = self.ct_game.max_actions(self.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions(self.options),
            max_chance_outcomes=self.max_chance,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            # Every deal or rebuilt stock follows an action, and draws at most a deck of cards.
            max_game_length=actions * (1 + self.max_chance) + self.max_chance,
        )
        super().__init__(_TYPES[name], info, {**defaults, **given})

    def new_initial_state(self) -> CardtableState:
        """The state before the first chance node of the deal."""
        return CardtableState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardtableObserver:
        """An observer: the encoding as tensor, or the seat's whole history as string (perfect recall)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CardtableObserver(self, perfect_recall=perfect)


class _Setup:
    """What a state needs of its game; states keep only its key, so copies stay small and cheap."""

    def __init__(self, game: CardtableGame) -> None:
        self.ct_game, self.options, self.encoding = game.ct_game, game.options, game.encoding


_SETUPS: dict[tuple[str, str], _Setup] = {}


class CardtableState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping a cardtable state; chance nodes pause the engine until outcomes are given."""

    def __init__(self, game: CardtableGame) -> None:
        super().__init__(game)
        self.key = (game.ct_game.info.name, repr(game.options))
        _SETUPS.setdefault(self.key, _Setup(game))
        self.ct_state: Any = None
        self.logs: list[list[str]] = [[] for _ in range(game.options.players)]
        self.script: list[Any] = []       # chance outcomes gathered for the pending engine step
        self.need: tuple[str, float] | None = None  # what the engine asks chance for: (kind, size)
        self.picks: list[int] = []        # choices so far towards a pending permutation
        self.pending_action: Any = None   # the player action waiting for its chance outcomes
        self._step()

    # The engine under a scripted chance source.

    @property
    def bridge(self) -> _Setup:
        """The game, its options and encoding."""
        return _SETUPS[self.key]

    def _step(self) -> None:
        """Run the pending engine step (the deal, or ``pending_action``) with the outcomes gathered so far."""
        game: Any = self.bridge.ct_game  # ``new`` takes a ChanceSource as its seed (see cardtable.core.rng)
        chance = Scripted(tuple(self.script))
        try:
            if self.ct_state is None:
                state, events = game.new(self.bridge.options, chance)
            else:
                before = self.ct_state
                if "rng" in type(before).slot_names:  # a game that draws during play (Durak does not)
                    before = before.copy()
                    before.rng = chance
                state, events = game.apply(before, game.to_act(before), self.pending_action)
        except ChanceRequired as need:
            self.need = (need.kind, need.size)
            return
        self.need, self.script, self.pending_action = None, [], None
        self.ct_state = state
        self._record(events)

    def _record(self, events: list[Event]) -> None:
        for seat, log in enumerate(self.logs):
            log.extend(e.text() for e in events_for(events, seat))

    def _outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance node now and their probabilities."""
        assert self.need is not None
        kind, size = self.need
        if kind == "permutation":
            n = int(size) - len(self.picks)
            return [(i, 1.0 / n) for i in range(n)]
        if kind == "randrange":
            n = int(size)
            return [(i, 1.0 / n) for i in range(n)]
        p = float(size)
        return [(o, q) for o, q in ((0, 1.0 - p), (1, p)) if q > 0]

    def _chance(self, outcome: int) -> None:
        """Take one chance outcome; run the engine once the draw it asked for is complete."""
        assert self.need is not None
        kind, size = self.need
        if kind == "permutation":
            self.picks.append(outcome)
            n = int(size)
            if len(self.picks) < n - 1:
                return
            remaining = list(range(n))
            order = tuple(remaining.pop(i) for i in self.picks) + tuple(remaining)
            self.picks = []
            self.script.append(order)
        elif kind == "randrange":
            self.script.append(outcome)
        else:
            self.script.append(bool(outcome))
        self._step()

    # pyspiel API.

    def current_player(self) -> int:
        """Chance, the seat to act, or terminal."""
        if self.need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.bridge.ct_game.to_act(self.ct_state)
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else int(seat)

    def _legal_actions(self, player: int) -> list[int]:
        """The encoding's legal ids of ``player``, ascending."""
        return self.bridge.encoding.legal_ids(self.ct_state, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of this chance node (see the module docstring)."""
        return self._outcomes()

    def _apply_action(self, action: int) -> None:
        """A chance outcome, or a player's action id."""
        if self.need is not None:
            self._chance(int(action))
            return
        self.pending_action = self.bridge.encoding.action_from_id(int(action), self.ct_state)
        self._step()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}"
        try:
            return str(self.bridge.ct_game.describe_action(
                self.bridge.encoding.action_from_id(int(action), self.ct_state)))
        except ValueError as exc:
            return f"id {action} ({exc})"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.need is None and self.bridge.ct_game.outcome(self.ct_state) is not None

    def returns(self) -> list[float]:
        """+1 for each winner, -1 for the others at the end; 0 for everybody before."""
        players = self.bridge.options.players
        outcome = None if self.need is not None else self.bridge.ct_game.outcome(self.ct_state)
        return [0.0] * players if outcome is None else final_rewards(tuple(outcome.winners), players)

    def __str__(self) -> str:
        if self.ct_state is None:
            return f"dealing ({len(self.history())} chance outcomes)"
        text = repr(self.bridge.ct_game.observe(self.ct_state, None))
        return text if self.need is None else f"{text}\n(chance: {self.need[0]} {self.need[1]})"


class CardtableObserver:
    """OpenSpiel's PyObserver: ``tensor`` and ``dict`` from the encoding, strings from what the seat saw."""

    def __init__(self, game: CardtableGame, *, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else math.prod(game.encoding.shape(game.options))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        # One incremental encoder per player (made on first use): each rewrites only what changed.
        self._encoders: dict[int, Any] = {}

    def set_from(self, state: CardtableState, player: int) -> None:
        """The encoding of ``player``'s information state (zeros while the first deal is pending)."""
        if self.perfect_recall:
            return
        if state.ct_state is None:
            self.tensor.fill(0)
            return
        encoder = self._encoders.get(player)
        if encoder is None:
            encoder = self._encoders[player] = self.game.encoding.encoder(self.game.options, player)
        self.tensor[:] = encoder.encode(state.ct_state)

    def string_from(self, state: CardtableState, player: int) -> str:
        """Perfect recall: every event the seat saw, in order; otherwise its observation now."""
        if self.perfect_recall:
            return "\n".join(state.logs[player])
        if state.ct_state is None:
            return "dealing"
        return repr(self.game.ct_game.observe(state.ct_state, player))


_TYPES: dict[str, pyspiel.GameType] = {}
_CLASSES: dict[str, type[CardtableGame]] = {}


def register_all() -> list[str]:
    """Register every cardtable game with pyspiel (again safe); the registered names."""
    names = []
    for name, game in cardtable.all_games().items():
        try:
            encoding_for(game)
        except ValueError:
            continue  # a plugin game without an encoding has no action ids to offer
        if name not in _TYPES:
            _TYPES[name] = _game_type(game)
            # pyspiel keeps the class it is given: one small subclass per game (a closure here would
            # be released by OpenSpiel's registry after the interpreter's end, and crash it).
            cls = type(f"CardtableGame_{name}", (CardtableGame,), {"NAME": name, "__module__": __name__})
            _CLASSES[name] = cls
            pyspiel.register_game(_TYPES[name], cls)
        names.append(PREFIX + name)
    return names


REGISTERED = register_all()

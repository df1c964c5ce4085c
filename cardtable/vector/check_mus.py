"""The differential check of the Mus core: it and the Python engine play the same seeds and must agree at every step.

At every decision of every env it compares the whole state (phase, RNG, dealer, hand and game numbers,
tanteo, games, hands, deck and discards in order, mus rounds and count, pending discards, discard
counts, the betting of the lance, the lance results, the declarations, what each seat said and the
largest amount it named, the señas made and seen, who is in, the winners and the reason), the legal
ids (the core's mask against ``ENCODING.legal_ids``), the encoding of the seat to act (and, every
few steps, of every seat) against ``ENCODING.features``, the rewards, the done flags, every finished
game's last state, its last view and its ``outcome``, and, on policy steps, the built-in ``simple``
policy's choice against ``players.simple.SimpleBot``. The actions come from the core's built-in
policies (random and simple steps mixed) and are replayed in the Python engine through its
validated ``apply``. Used by ``tests/vector`` (100,000 decisions) and ``benchmarks/vector.py``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardtable.core.registry import load_game
from cardtable.rl import rewards as rw
from cardtable.vector.cores import load_core
from cardtable.vector.lockstep import Mismatch

_LANCES = ("grande", "chica", "pares", "juego", "punto")


@dataclass
class Tally:
    """What one check covered."""

    decisions: int = 0
    games: int = 0
    #: How the lances of the hands played closed (``LanceResult.status``), and the señas made.
    results: Counter[str] = field(default_factory=Counter)
    signals: int = 0
    #: How games ended: the reason's kind (negada, deje, envite, en paso, órdago, pares, juego, punto).
    ends: Counter[str] = field(default_factory=Counter)
    reshuffles: int = 0
    #: The actions played, by type (``Accept``, ``AcceptNoLose``, ``Discard``…).
    actions: Counter[str] = field(default_factory=Counter)


#: Option sets that between them give every Mus option each of its kinds of values: both modalidades and
#: raise rules, every boolean both ways, min_discard 1–4, no mus at all and one mus round, señas never,
#: sometimes and always intercepted, matches, low and high margins, scoring values and bet limits other
#: than the defaults; short targets so that whole games end often, and the largest the core plays; the conformance
#: cases (tests/conformance).
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"scoring.target": 10},
    {"scoring.target": 12, "signals.enabled": True, "signals.interception_p": 0.5},
    {"scoring.target": 10, "modalidad": "4R", "betting.raise_rule": "double"},
    {"scoring.target": 10, "scoring.negada_ends_game": False, "scoring.deje_en_el_acto": False,
     "scoring.ordago_cancels_earlier_bets": False},
    {"scoring.target": 8, "match.games_to_win": 2, "mus.max_rounds": 2},
    {"preset": "senas", "scoring.target": 15},
    {"scoring.target": 6, "scoring.negada_ends_game": False},
    {"scoring.target": 6, "scoring.deje_en_el_acto": False},
    {"scoring.target": 12, "scoring.ordago_cancels_earlier_bets": False, "modalidad": "4R"},
    {"scoring.target": 5, "scoring.team_is_in_margin": 0, "mus.cut_anytime_a_falta": False},
    {"scoring.target": 9, "scoring.team_is_in_margin": 20},
    {"scoring.target": 10, "mus.min_discard": 2, "mus.max_rounds": 0},
    {"scoring.target": 10, "mus.min_discard": 3, "mus.max_rounds": 1},
    {"scoring.target": 10, "mus.min_discard": 4, "mus.max_rounds": 30},
    {"scoring.target": 20, "scoring.negada": 2, "scoring.grande_en_paso": 2, "scoring.chica_en_paso": 3,
     "scoring.par": 2, "scoring.medias": 4, "scoring.duples": 5, "scoring.juego_31": 4, "scoring.juego_otro": 3,
     "scoring.punto": 2},
    {"scoring.target": 10, "betting.min_bet": 1, "betting.max_bet": 3},
    {"scoring.target": 30, "betting.min_bet": 5, "betting.max_bet": 5, "betting.raise_rule": "double"},
    {"scoring.target": 10, "betting.min_bet": 3, "betting.max_bet": 40},
    {"scoring.target": 7, "signals.enabled": True, "signals.interception_p": 0.0, "modalidad": "4R"},
    {"scoring.target": 7, "signals.enabled": True, "signals.interception_p": 1.0, "match.games_to_win": 3},
    {"scoring.target": 1, "match.games_to_win": 4},
    {"scoring.target": 60, "betting.raise_rule": "double", "signals.enabled": True},
    {"preset": "a_cinco_juegos", "scoring.target": 5},
    {"scoring.target": 300, "betting.max_bet": 400},  # counts and amounts past 255 (clipped in the encoding)
    {"scoring.target": 494, "betting.raise_rule": "double"},  # the largest action space: 1,024 ids
)


def option_sets() -> list[Any]:
    """``OPTION_SETS`` as ``MusGameOptions``."""
    game = load_game("mus")
    out = []
    for values in OPTION_SETS:
        values = dict(values)
        preset = values.pop("preset", None)
        out.append(game.options(values, preset=preset))
    return out


def python_view(s: Any) -> dict[str, Any]:
    """A Python engine Mus state in the core's ``state(i)`` terms (what each seat said as the encoding reads it)."""
    b = s.betting
    named = [0] * 20
    for e in s.envites:
        k = 4 * _LANCES.index(e.lance) + e.seat
        named[k] = max(named[k], min(e.amount, 255))
    return {
        "phase": s.phase.value, "rng": s.rng, "dealer": s.dealer, "hand_no": s.hand_no, "game_no": s.game_no,
        "tanteo": s.tanteo, "games": s.games, "hands": s.hands, "deck": s.deck, "discards": s.discards,
        "mus_rounds": s.mus_rounds, "turn": s.turn, "mus_count": s.mus_count, "pending": s.pending,
        "discard_counts": s.discard_counts,
        "betting": None if b is None else (b.lance, b.status.value, b.speakers, b.position, b.bettor, b.responders,
                                           b.total, b.before, b.ordago),
        "results": tuple(tuple(r) for r in s.results), "declared_pares": s.declared_pares,
        "declared_juego": s.declared_juego, "shown": s.shown,
        "said": frozenset((e.lance, e.seat, e.kind) for e in s.envites), "named": tuple(named),
        "signals_used": s.signals_used,
        "signals_seen": tuple(frozenset((n.sender, n.signal, n.intercepted) for n in seen) for seen in s.signals_seen),
        "team_in": s.team_in, "winner": s.winner, "game_winner": s.game_winner,
        "game_over_reason": s.game_over_reason,
    }


def core_outcome(view: dict[str, Any], options: Any) -> tuple[tuple[float, ...], tuple[int, ...], str]:
    """``MusGame.outcome`` from the core's state: each seat its pair's tanteo (games in a match), the winning pair."""
    per_pair = view["tanteo"] if options.match.games_to_win == 1 else view["games"]
    w = view["winner"]
    return tuple(float(per_pair[x & 1]) for x in range(4)), (w, w + 2), view["game_over_reason"]


def check(options: Any, *, seed: int, num_envs: int, steps: int, rewards: str = "game", policy_seed: int = 0,
          policy_every: int = 3, all_seats_every: int = 4, game: Any = None, mus_always: bool = False,
          **flags: Any) -> Tally:
    """Play ``steps`` batch steps of ``num_envs`` envs on both sides; ``Mismatch`` at the first difference.

    ``game`` is the Python engine to compare with (default: the registered one; a test passes a
    deliberately broken one); ``mus_always`` gives mus whenever it is legal (so that the deck runs out
    and the discards are reshuffled); ``flags`` go to the core (``defect``).
    """
    from cardtable.games.mus.encoding import ENCODING
    from cardtable.games.mus.players.simple import SimpleBot

    game = game or load_game("mus")
    core = load_core("mus").Core(num_envs, seed, options, policy_seed, autoreset=False, rewards=rewards, **flags)
    obs = np.zeros((num_envs, core.obs_size), np.uint8)
    final = np.zeros_like(obs)
    mask = np.zeros((num_envs, core.num_actions), np.int8)
    player = np.zeros(num_envs, np.int32)
    reward = np.zeros((num_envs, 4), np.float32)
    done = np.zeros(num_envs, np.uint8)
    actions = np.zeros(num_envs, np.int64)
    seat_buffer = np.zeros(core.obs_size, np.uint8)
    bot = SimpleBot()
    core.reset(obs, mask, player)
    states = [game.new(options, core.seed_of(i))[0] for i in range(num_envs)]
    tally = Tally()

    def fail(step: int, env: int, what: str, ours: Any, theirs: Any) -> None:
        raise Mismatch(f"step {step}, env {env} (seed {core.seed_of(env)}): {what} "
                       f"differs: core {ours!r}, Python engine {theirs!r}")

    def same_state(step: int, i: int, state: Any) -> None:
        ours, theirs = core.state(i), python_view(state)
        for key, value in theirs.items():
            if ours[key] != value:
                fail(step, i, key, ours[key], value)

    for step in range(steps):
        policy = policy_every > 0 and step % policy_every == 0
        for i, state in enumerate(states):
            same_state(step, i, state)
            seat = state.turn
            if player[i] != seat:
                fail(step, i, "the seat to act", int(player[i]), seat)
            legal = ENCODING.legal_ids(state, seat)
            if np.flatnonzero(mask[i]).tolist() != legal:
                fail(step, i, "the legal ids", np.flatnonzero(mask[i]).tolist(), legal)
            if obs[i].tobytes() != ENCODING.features(state, seat):
                fail(step, i, f"the encoding of seat {seat}", obs[i].tobytes(), ENCODING.features(state, seat))
            if all_seats_every > 0 and step % all_seats_every == 0:
                for other in range(4):
                    core.encode(i, other, seat_buffer)
                    if seat_buffer.tobytes() != ENCODING.features(state, other):
                        fail(step, i, f"the encoding of seat {other}", seat_buffer.tobytes(),
                             ENCODING.features(state, other))
        core.policy(1 if policy else 0, actions)
        if policy:
            for i, state in enumerate(states):
                choice = bot.act(game.observe(state, state.turn), game.legal_actions(state, state.turn))
                if ENCODING.action_id(choice, state) != actions[i]:
                    fail(step, i, "the simple policy's choice", int(actions[i]), ENCODING.action_id(choice, state))
        if mus_always:
            actions[mask[:, 0] == 1] = 0
        seats = player.copy()
        if core.step(actions, obs, mask, reward, done, player, 0, True, final) != -1:
            raise Mismatch(f"step {step}: the core refused an action its own policy chose")
        for i, state in enumerate(states):
            action = ENCODING.action_from_id(int(actions[i]), state)
            after, events = game.apply(state, state.turn, action)
            tally.actions[type(action).__name__] += 1
            expected = [0.0] * 4
            if rewards == "round":
                expected = rw.round_rewards("mus", state, after)
            outcome = game.outcome(after)
            if outcome is not None and rewards == "game":
                expected = rw.final_rewards(tuple(outcome.winners), 4)
            if reward[i].tolist() != expected:
                fail(step, i, "the rewards", reward[i].tolist(), expected)
            if bool(done[i]) != (outcome is not None):
                fail(step, i, "the done flag", bool(done[i]), outcome is not None)
            _count(tally, state, after, events)
            if outcome is not None:
                same_state(step, i, after)  # the finished game, kept until reset_env
                view = core.state(i)
                if core_outcome(view, options) != (outcome.scores, outcome.winners, outcome.reason):
                    fail(step, i, "the outcome", core_outcome(view, options), outcome)
                if final[i].tobytes() != ENCODING.features(after, int(seats[i])):
                    fail(step, i, "the last view", final[i].tobytes(), ENCODING.features(after, int(seats[i])))
                tally.games += 1
                tally.ends[outcome.reason.rpartition("(")[2].split(" a ")[0]] += 1
                core.reset_env(i)
                after = game.new(options, core.seed_of(i))[0]
            states[i] = after
            tally.decisions += 1
        core.observe(obs, mask, player)
    return tally


def _count(tally: Tally, before: Any, after: Any, events: list[Any]) -> None:
    """What this step did, for the test's coverage asserts."""
    from cardtable.games.mus import events as E

    for event in events:
        if isinstance(event, E.LanceClosed):
            tally.results[event.status] += 1
        elif isinstance(event, E.LanceSkipped):
            tally.results["skipped" if event.holder_pair is not None else "none"] += 1
        elif isinstance(event, E.SignalSeen) and not event.intercepted:
            tally.signals += 1
        elif isinstance(event, E.DeckReshuffled):
            tally.reshuffles += 1

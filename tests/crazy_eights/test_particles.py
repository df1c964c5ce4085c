"""The particle filter over the other hands: the truth is never ruled out, particles hold nothing we saw."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.games.crazy_eights.actions import Draw
from cardtable.games.crazy_eights.events import DrewCard, HandDealt, RoundDealt
from cardtable.games.crazy_eights.players.particles import History, ParticleFilter, Segment, advance, plans_of, replay
from cardtable.games.crazy_eights.rules import BIT, mask_of

GAME = cardtable.load_game("crazy_eights")


@dataclass
class Truth:
    """What really happened in the round, from the engine's events (the test's view, not the bot's)."""

    starter: int = -1
    dealt: list[int] = field(default_factory=lambda: [0] * 6)
    draws: list[tuple[int, ...]] = field(default_factory=list)  # per other seat's turn, in order
    current: list[int] = field(default_factory=list)
    root_hands: dict[int, list[int]] = field(default_factory=dict)  # root index -> the hands then


def _watch(seed: int, me: int, players: int, draw_until: bool, size: int = 40) -> list[str]:
    """Play one round of heuristics, the filter watching seat ``me``; the problems found (none expected)."""
    options = GAME.options(players=players, rounds=1, draw_until_playable=draw_until)
    state, events = GAME.new(options, seed)
    bots = [make_bot(GAME, "heuristic") for _ in range(players)]
    pf = ParticleFilter(size, 20, seed)
    truth = Truth()
    problems: list[str] = []

    def feed(evs: list[object]) -> None:
        for e in evs:
            if isinstance(e, RoundDealt):
                truth.starter = e.starter
            elif isinstance(e, HandDealt):
                truth.dealt[e.seat] = mask_of(e.cards)
            elif isinstance(e, DrewCard) and e.seat != me:
                truth.current.append(e.card)

    feed(events)
    while (seat := GAME.to_act(state)) is not None:
        obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
        if seat == me:
            pf.before_turn(obs)
            true_hands = [0 if s == me else h for s, h in enumerate(state.hands)]
            if pf.root.counts is not None and pf.root.index not in truth.root_hands:
                truth.root_hands[pf.root.index] = true_hands
            if not pf.broken:
                problems += _check_truth(pf, truth, true_hands, me, players, draw_until)
            if len(legal) > 1 and pf.update(obs):
                problems += _check_particles(pf, obs, me)
        action = bots[seat].act(obs, legal)
        if seat == me:
            pf.after_action(obs, action)
        state, events = GAME.apply(state, seat, action)
        feed(events)
        if seat != me and not isinstance(action, Draw):
            truth.draws.append(tuple(truth.current))
            truth.current = []
    return problems


def _check_truth(pf: ParticleFilter, truth: Truth, true_hands: list[int], me: int, players: int,
                 draw_until: bool) -> list[str]:
    """Replaying the true hidden cards from the filter's root must explain every segment it recorded."""
    root = pf.root
    before = sum(len(seg.seats) for seg in pf.segments[:root.index])
    if root.counts is None:
        starter = truth.starter if pf.segments and pf.segments[0].top < 0 else -1
        history = History(starter, [0 if s == me else truth.dealt[s] for s in range(players)], truth.draws)
    else:
        history = History(-1, truth.root_hands[root.index], truth.draws[before:])
    hands = replay(pf.segments[root.index:], history, draw_until)
    return [] if hands == true_hands else [f"the true deal fails the replay after {len(pf.segments)} segments"]


def _check_particles(pf: ParticleFilter, obs: object, me: int) -> list[str]:
    """Particles hold nothing we saw, the hand sizes we see, and the stock's size."""
    seen = mask_of(obs.hand) | mask_of(obs.discard_pile) | BIT[obs.top]  # type: ignore[attr-defined]
    out = []
    for hands, stock in pf.particles:
        if any(h & seen for h in hands) or stock & seen:
            out.append("a particle holds a card we saw")
        if [h.bit_count() for s, h in enumerate(hands) if s != me] != [
                n for s, n in enumerate(obs.hand_counts) if s != me]:  # type: ignore[attr-defined]
            out.append("a particle's hand sizes differ from the table's")
        if stock.bit_count() != obs.stock_count:  # type: ignore[attr-defined]
            out.append("a particle's stock size differs from the table's")
        held = stock
        for h in hands:
            if held & h:
                out.append("a card in two places")
            held |= h
    return out


@pytest.mark.parametrize(("players", "draw_until"), [(4, True), (3, True), (2, True), (4, False)])
def test_the_true_deal_is_never_ruled_out_and_particles_respect_what_we_saw(players: int, draw_until: bool) -> None:
    for seed in range(6):
        assert _watch(seed, seed % players, players, draw_until) == []


def test_against_heuristic_players_the_filter_rarely_needs_its_fallback() -> None:
    decisions = fallbacks = 0
    for seed in range(8):
        state, _ = GAME.new(GAME.options(players=4, rounds=1), 50 + seed)
        me = seed % 4
        bots = [make_bot(GAME, "search:sims=20:particles=30" if s == me else "heuristic", s) for s in range(4)]
        while (seat := GAME.to_act(state)) is not None:
            action = bots[seat].act(GAME.observe(state, seat), GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
        decisions += bots[me].filter.decisions  # type: ignore[attr-defined]
        fallbacks += bots[me].fallbacks  # type: ignore[attr-defined]
    assert decisions >= 15
    assert fallbacks <= decisions // 4


def test_players_who_do_not_play_the_heuristic_send_it_to_the_fallback_and_it_still_plays_legally() -> None:
    fallbacks = 0
    for seed in range(4):
        state, _ = GAME.new(GAME.options(players=4, rounds=1), 70 + seed)
        bots = [make_bot(GAME, "search:sims=20:particles=20:tries=5" if s == 0 else "random", s) for s in range(4)]
        while (seat := GAME.to_act(state)) is not None:
            legal = GAME.legal_actions(state, seat)
            action = bots[seat].act(GAME.observe(state, seat), legal)
            assert action in legal
            state, _ = GAME.apply(state, seat, action)
        fallbacks += bots[0].fallbacks  # type: ignore[attr-defined]
    assert fallbacks > 0


def test_a_play_the_heuristic_would_not_make_kills_the_particle() -> None:
    # Seat 1 faces 5♠ (spades in force) and plays 6♠: a particle giving it K♠ too is dropped (it would
    # have shed the king), one giving it only cards that do not play survives.
    five, six, king = 3, 4, 11
    seg = Segment((1,), (-1,), (5, 5), five, 0, BIT[five], BIT[five] | BIT[six], six, 0)
    hearts = sum(BIT[c] for c in range(13, 17))
    stock = sum(BIT[c] for c in range(26, 52))
    assert advance([0, BIT[six] | BIT[king] | hearts ^ BIT[13]], stock, seg, random.Random(1), True) is None
    kept = advance([0, BIT[six] | hearts], stock, seg, random.Random(1), True)
    assert kept is not None and kept[0][1] == hearts
    assert [moves for _, moves in plans_of(seg, True)] == [((six, 0),)]

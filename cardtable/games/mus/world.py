"""Mus worlds for search: the other three hands consistent with one seat's view; playout hints.

A seat knows its hand, its own pending discard, the public talk (envites, answers, results), the
pares and juego declarations (sí/no, public and truthful), the hands shown at a showdown, the
tanteo and the deck size. Each other hand is drawn from the unseen cards until it agrees with that
seat's declarations (rejection, seat by seat); the rest is split at random between the deck and the
discard pile. Envites are not read as hand information (the search's own playouts weigh them).
Seats that have already announced a discard this mus round get a random one of 1–4 of their cards
(the count is public only as an event). Options the observation does not show (señas, bet limits,
scoring values) take their defaults.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cardtable.core.rng import rng_state
from cardtable.core.search import SearchHints
from cardtable.core.types import Seat
from cardtable.games.mus import actions as A
from cardtable.games.mus.fsm import BetStatus, Phase
from cardtable.games.mus.observation import BettingView, MusObservation
from cardtable.games.mus.options import MatchOptions, MusGameOptions, ScoringOptions
from cardtable.games.mus.rules import GRANDE_VALUE, MEDIAS, PAR, REY, HandValue, evaluate, holds, percentile
from cardtable.games.mus.state import Betting, Envite, LanceResult, MusState, SignalNote

DECK_SIZE = 40
#: Draws per hand before giving up on a seat's declarations (then the deal restarts).
TRIES = 400


def fits(hand: Sequence[int], pares: bool | None, juego: bool | None, modalidad: str) -> bool:
    """Whether a hand agrees with a seat's declarations (``None``: not declared yet)."""
    value = evaluate(hand, modalidad)
    return (pares is None or holds(value, "pares") == pares) and (juego is None or holds(value, "juego") == juego)


def sample_hands(obs: MusObservation, rng: random.Random) -> tuple[list[tuple[int, ...]], list[int]]:
    """The four hands (own as seen) and the unseen rest, shuffled, consistent with the declarations."""
    if obs.seat is None:
        raise ValueError("a world is sampled for a seat, not for a spectator")
    me = obs.seat
    if obs.shown_hands:
        shown = [tuple(h) for h in obs.shown_hands]
        rest = [c for c in range(DECK_SIZE) if not any(c in h for h in shown)]
        rng.shuffle(rest)
        return shown, rest
    others = [s for s in range(4) if s != me]
    # Most constrained seats first: a declared seat is harder to fit.
    others.sort(key=lambda s: -((obs.pares[s] is not None) + (obs.juego[s] is not None)))
    for _ in range(50):
        pool = [c for c in range(DECK_SIZE) if c not in obs.hand]
        hands: list[tuple[int, ...]] = [()] * 4
        hands[me] = tuple(obs.hand)
        for seat in others:
            hand = _draw_fitting(pool, obs.pares[seat], obs.juego[seat], obs.modalidad, rng)
            if hand is None:
                break
            hands[seat] = hand
            pool = [c for c in pool if c not in hand]
        else:
            rng.shuffle(pool)
            return hands, pool
    raise ValueError("no deal of the unseen cards agrees with the declarations")


def _draw_fitting(pool: list[int], pares: bool | None, juego: bool | None, modalidad: str,
                  rng: random.Random) -> tuple[int, ...] | None:
    """Four cards from ``pool`` that agree with the declarations, or None after ``TRIES`` draws."""
    for _ in range(TRIES):
        hand = tuple(sorted(rng.sample(pool, 4)))
        if fits(hand, pares, juego, modalidad):
            return hand
    return None


def sample_world(obs: MusObservation, rng: random.Random) -> MusState:
    """A full state consistent with ``obs``."""
    hands, rest = sample_hands(obs, rng)
    me = obs.seat
    assert me is not None
    options = MusGameOptions(modalidad=obs.modalidad,  # type: ignore[arg-type]
                             scoring=ScoringOptions(target=obs.target),
                             match=MatchOptions(games_to_win=obs.games_to_win))
    s = MusState(options, rng_state(rng.randrange(2**62)), obs.dealer)
    s.phase = Phase(obs.phase)
    s.hand_no, s.game_no, s.tanteo, s.games = obs.hand_number, obs.game_number, obs.tanteo, obs.games
    s.hands = tuple(hands)
    s.deck, s.discards = tuple(rest[:obs.deck_size]), tuple(rest[obs.deck_size:])
    s.mus_rounds, s.turn = obs.mus_rounds, obs.to_act
    s.discard_counts = obs.discard_counts
    s.mus_count = (obs.to_act - obs.mano) % 4 if s.phase is Phase.MUS_DECISION and obs.to_act is not None else 0
    s.pending = _pending(obs, hands, rng)
    s.betting = _betting(obs.betting, obs.to_act)
    s.envites = tuple(Envite(e.lance, e.seat, e.kind, e.amount) for e in obs.envites)  # type: ignore[arg-type]
    s.results = _results(obs, options)
    s.declared_pares, s.declared_juego = obs.pares, obs.juego
    s.shown = bool(obs.shown_hands)
    notes = tuple(SignalNote(v.sender, v.signal, v.intercepted) for v in obs.signals)
    s.signals_used = frozenset((n.sender, n.signal) for n in notes)
    s.signals_seen = tuple(notes if x == me else () for x in range(4))
    s.team_in, s.winner = obs.team_in, obs.winner
    return s


def _pending(obs: MusObservation, hands: list[tuple[int, ...]],
             rng: random.Random) -> tuple[tuple[int, ...] | None, ...]:
    """The discards announced this mus round: own as seen, others' drawn at random from their hands."""
    if obs.phase != Phase.DISCARD.value or obs.to_act is None:
        return (None, None, None, None)
    pending: list[tuple[int, ...] | None] = [None] * 4
    seat = obs.mano
    while seat != obs.to_act:
        if seat == obs.seat:
            pending[seat] = obs.discarding
        else:
            pending[seat] = tuple(sorted(rng.sample(hands[seat], rng.randint(1, 4))))
        seat = (seat + 1) % 4
    return tuple(pending)


def _betting(view: BettingView | None, to_act: int | None) -> Betting | None:
    """The betting sub-machine from its public view."""
    if view is None:
        return None
    status = BetStatus(view.status)
    index = view.speakers.index(to_act) if status is BetStatus.OPEN and to_act in view.speakers else 0
    return Betting(view.lance, status, view.speakers, index, view.bettor, view.to_answer,  # type: ignore[arg-type]
                   view.proposed, view.bet_in_force, view.ordago)


def _results(obs: MusObservation, options: MusGameOptions) -> tuple[LanceResult, ...]:
    """The closed lances, with each refused envite's deje worked out from the envites heard."""
    before: dict[str, int] = {}
    total: dict[str, int] = {}
    for e in obs.envites:
        if e.kind == "bet":
            before[e.lance], total[e.lance] = 0, e.amount
        elif e.kind == "raise":
            before[e.lance], total[e.lance] = total.get(e.lance, 0), total.get(e.lance, 0) + e.amount
        elif e.kind == "ordago":
            before[e.lance] = total.get(e.lance, 0)
    out = []
    for r in obs.results:
        b = before.get(r.lance, 0)
        deje = (options.scoring.negada if b == 0 else b) if r.status == "rejected" else 0
        out.append(LanceResult(r.lance, r.status, r.total, r.pair, deje))  # type: ignore[arg-type]
    return tuple(out)


# Playout hints: play the hand out, value the tantos won against the tantos lost.


def hand_over(world: MusState, state: MusState) -> bool:
    """The playout stops when the hand the search started in is over."""
    return state.hand_no != world.hand_no or state.game_no != world.game_no


def hand_value(state: MusState, seat: Seat) -> float:
    """+1 / -1 for a game won / lost; otherwise the pair's tantos ahead, scaled by the target."""
    pair = seat & 1
    if state.winner is not None:
        return 1.0 if state.winner == pair else -1.0
    target = state.options.scoring.target
    mine, theirs = state.tanteo[pair], state.tanteo[1 - pair]
    return (mine - theirs) / target


def cuts_mus(value: HandValue) -> bool:
    """A hand worth cutting the mus with: medias or better, 31, three reyes, or a par with juego.

    The playouts' rule, and the players' too (``simple``, ``careful``, ``reader``).
    """
    if value.pares_kind >= MEDIAS or value.total == 31 or value.count(REY) >= 3:
        return True
    return value.pares_kind == PAR and value.has_juego


def is_good(hand: Sequence[int], modalidad: str) -> bool:
    """Whether ``hand`` is worth cutting the mus with (:func:`cuts_mus`)."""
    return cuts_mus(evaluate(hand, modalidad))


def keep_discard(hand: Sequence[int], modalidad: str) -> tuple[int, ...]:
    """Keep reyes and cards that pair up; throw the rest (at least the weakest card): the cards thrown."""
    grande = GRANDE_VALUE[modalidad]
    ranks = Counter(grande[c % 10] for c in hand)
    keep = [c for c in hand if grande[c % 10] == REY or ranks[grande[c % 10]] >= 2]
    out = [c for c in hand if c not in keep]
    if not out:
        out = [min(hand, key=lambda c: (grande[c % 10] == REY, ranks[grande[c % 10]], grande[c % 10]))]
    return tuple(sorted(out))


def playout_policy(state: MusState, seat: Seat, legal: Sequence[A.MusAction], rng: random.Random) -> A.MusAction:
    """Threshold play on the seat's true hand: cut with good hands, bet and accept by strength."""
    hand, modalidad = state.hands[seat], state.options.modalidad
    if state.phase is Phase.MUS_DECISION:
        return A.CutMus() if is_good(hand, modalidad) or A.Mus() not in legal else A.Mus()
    if state.phase is Phase.DISCARD:
        choice: A.MusAction = A.Discard(keep_discard(hand, modalidad))
        return choice if choice in legal else legal[0]
    b = state.betting
    if b is None:
        return legal[0]
    p = percentile(evaluate(hand, modalidad), b.lance, modalidad) + 0.15 * (rng.random() - 0.5)
    if b.status is BetStatus.OPEN:
        choice = A.Bet(2) if p >= 0.8 else A.Pass()
        return choice if choice in legal else legal[0]
    accept = legal[0]
    if b.ordago:
        return accept if p >= 0.85 else A.Reject()
    return accept if p >= 0.6 + min(0.2, 0.02 * b.total) else A.Reject()


def candidates(obs: MusObservation, legal: Sequence[A.MusAction]) -> Sequence[A.MusAction]:
    """The root moves worth searching: no señas; envites of 2, 5 and the cap; discards the rule of thumb
    or one card more or less."""
    out = [a for a in legal if not isinstance(a, A.Signal)]
    amounts = sorted({a.amount for a in out if isinstance(a, (A.Bet, A.Raise))})
    keep_amounts = {x for x in amounts if x in (2, 5)} | ({amounts[-1]} if amounts else set())
    out = [a for a in out if not isinstance(a, (A.Bet, A.Raise)) or a.amount in keep_amounts]
    discards = [a for a in out if isinstance(a, A.Discard)]
    if discards:
        base = keep_discard(obs.hand, obs.modalidad)
        near = [a for a in discards if set(base) <= set(a.cards) or set(a.cards) <= set(base)]
        near = [a for a in near if abs(len(a.cards) - len(base)) <= 1]
        out = [a for a in out if not isinstance(a, A.Discard)] + near
    return out


HINTS = SearchHints(horizon=hand_over, value=hand_value, policy=playout_policy, candidates=candidates)

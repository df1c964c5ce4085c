"""Testing aid: a Mus state with explicit hands, for scenario tests.

``state_from_hands(["Ro Rc 1e 5b", ...], dealer=3)`` gives a state in the mus
decision with those hands (seat order), the mano to act, and the other cards in
the deck in an order drawn from ``seed``. It skips the DEALING phase on purpose
(the hands are given, not dealt); everything afterwards uses the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import SPANISH_40
from cardtable.core.rng import rng_state, shuffled
from cardtable.games.mus.fsm import Phase
from cardtable.games.mus.options import MusGameOptions
from cardtable.games.mus.state import MusState


def cards(text: str | Sequence[int]) -> tuple[int, ...]:
    """Sorted card ids from ids or notation ("Ro 3c 1e 5b"; comma or space separated)."""
    ids = SPANISH_40.parse_many(text) if isinstance(text, str) else list(text)
    return tuple(sorted(ids))


def state_from_hands(hands: Sequence[str | Sequence[int]], *, options: MusGameOptions | None = None,
                     dealer: int = 3, tanteo: tuple[int, int] = (0, 0), seed: int = 0,
                     deck: str | Sequence[int] | None = None) -> MusState:
    """A state in MUS_DECISION with ``hands[seat]`` dealt; ``dealer=3`` makes seat 0 the mano.

    ``deck`` fixes the top of the deck (drawn first after mus); the other cards follow, shuffled.
    """
    opts = options or MusGameOptions()
    dealt = [cards(h) for h in hands]
    used = [c for h in dealt for c in h]
    if len(dealt) != 4 or any(len(h) != 4 for h in dealt) or len(set(used)) != 16:
        raise ValueError("give four hands of four distinct cards")
    top = (SPANISH_40.parse_many(deck) if isinstance(deck, str) else list(deck)) if deck is not None else []
    rest, rng = shuffled(rng_state(seed), [c for c in range(40) if c not in used and c not in top])
    s = MusState(opts, rng, dealer)
    s.hands = tuple(dealt)
    s.deck = tuple(top + rest)
    s.hand_no = 1
    s.tanteo = tanteo
    target, margin = opts.scoring.target, opts.scoring.team_is_in_margin
    in0, in1 = (0 < target - t <= margin for t in tanteo)
    s.team_in = (in0, in1)
    s.phase = Phase.MUS_DECISION
    s.turn = s.mano
    return s

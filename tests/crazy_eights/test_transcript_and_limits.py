"""A golden transcript of one whole game (per seat), and the round's safety limit.

Regenerate the transcript after an intended rule or wording change with
``python -m tests.crazy_eights.test_transcript_and_limits``.
"""

from __future__ import annotations

from pathlib import Path

from cardtable.core import events_for
from cardtable.games.crazy_eights import GAME
from cardtable.games.crazy_eights.actions import Draw
from cardtable.games.crazy_eights.events import RoundDealt, RoundEnded
from cardtable.games.crazy_eights.game import ROUND_ACTION_LIMIT
from cardtable.games.crazy_eights.players.heuristic import HeuristicBot
from cardtable.games.crazy_eights.testing import state_from_hands

GOLDEN = Path(__file__).with_name("golden_2p_seed7.txt")


def transcript() -> str:
    """Two heuristic bots, one round, seed 7: each seat's view of the events, then the outcome."""
    options = GAME.options(players=2, rounds=1)
    state, events = GAME.new(options, 7)
    bots = [HeuristicBot(0), HeuristicBot(1)]
    while (seat := GAME.to_act(state)) is not None:
        action = bots[seat].act(GAME.observe(state, seat), GAME.legal_actions(state, seat))
        state, more = GAME.apply(state, seat, action)
        events.extend(more)
    lines = []
    for viewer in (0, 1, None):
        lines.append(f"== seen by {'spectator' if viewer is None else f'seat {viewer}'}")
        lines.extend(e.text() for e in events_for(events, viewer))
    lines.append(f"== outcome: {GAME.outcome(state)}")
    return "\n".join(lines) + "\n"


def test_golden_transcript_of_a_whole_game() -> None:
    assert transcript() == GOLDEN.read_text(encoding="utf-8")


def test_the_spectator_sees_no_card_drawn_or_dealt() -> None:
    spectator = transcript().split("== seen by spectator\n")[1]
    assert "was dealt" not in spectator and " drew " not in spectator.replace("drew a card", "")


def test_a_round_reaching_the_action_limit_ends_and_is_scored() -> None:
    options = GAME.options(players=2, rounds=3)
    state = state_from_hands(options, ["2♠ 3♠", "K♣"], starter="9♥", stock="4♣ 5♣")
    state.round_actions = ROUND_ACTION_LIMIT - 1
    state, events = GAME.apply(state, 0, Draw())
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert ended and ended[0].end == "limit" and ended[0].penalties == (2 + 3 + 4, 10)
    assert any(isinstance(e, RoundDealt) and e.round == 2 for e in events)
    assert GAME.max_actions(options) == 3 * ROUND_ACTION_LIMIT


if __name__ == "__main__":
    GOLDEN.write_text(transcript(), encoding="utf-8")

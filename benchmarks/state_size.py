"""Pickled size of one game state per game: what crosses a process pool, and what a search tree holds.

    python benchmarks/state_size.py

For each game (default options, 4 players where allowed), a random game is played to its
middle (half of the moves a game with that seed takes) and the state there is pickled; the
figure is the median over five seeds, in bytes, with the range.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
from typing import Any

import cardtable

OPTIONS: dict[str, dict[str, Any]] = {
    "wizard": {"players": 4}, "mus": {}, "durak": {"players": 3}, "kaiser": {}, "crazy_eights": {"players": 4},
}


def middle_state(game: Any, options: Any, seed: int) -> Any:
    """The state half-way through a random game from ``seed``."""
    def states() -> list[Any]:
        rng = random.Random(seed)
        state, _ = game.new(options, seed)
        out = [state]
        while (seat := game.to_act(state)) is not None:
            legal = game.legal_actions(state, seat)
            state, _ = game.apply_unchecked(state, seat, legal[rng.randrange(len(legal))])
            out.append(state)
        return out

    played = states()
    return played[len(played) // 2]


def main() -> None:
    """Print the sizes."""
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    print("pickled state in the middle of a game, bytes: median over 5 seeds [min–max]")
    for name, values in OPTIONS.items():
        game = cardtable.load_game(name)
        options = game.options(values)
        sizes = [len(pickle.dumps(middle_state(game, options, seed))) for seed in range(1, 6)]
        print(f"  {name:<14} {statistics.median(sizes):8.0f}  [{min(sizes)}–{max(sizes)}]")


if __name__ == "__main__":
    main()

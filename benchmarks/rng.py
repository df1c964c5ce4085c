"""The pinned RNG against the Mersenne Twister snapshots it replaced: shuffles, draws, Durak's deck, new games.

    python benchmarks/rng.py [--repeat 2000]

"before" re-creates the old scheme inline: the state held ``random.Random.getstate()`` (a
625-int tuple); a chance step did ``setstate``, drew, and ``getstate`` again. Figures are CPU
µs per call, the median of five runs of ``--repeat`` calls with the range over runs, and the
pickled size of the RNG value a state holds.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import time
from collections.abc import Callable

import cardtable
from cardtable.core.rng import randrange, seeded, shuffled
from cardtable.games.durak import rules as durak_rules


def old_shuffled(snapshot: tuple[object, ...], items: list[int]) -> tuple[list[int], tuple[object, ...]]:
    """The replaced scheme: thaw a Mersenne Twister snapshot, shuffle, freeze it again."""
    rng = random.Random.__new__(random.Random)
    rng.setstate(snapshot)
    out = list(items)
    rng.shuffle(out)
    return out, rng.getstate()


def old_durak_deck(number: int) -> list[int]:
    """The replaced Durak default shuffle: 1000 positions from ``Random(number)``, each card moved to the top."""
    rng = random.Random(number)
    deck = list(range(36))
    for _ in range(1000):
        deck.insert(0, deck.pop(rng.randrange(36)))
    return deck


def timed(call: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """Median, min and max over five runs, CPU µs per call."""
    runs = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(repeat):
            call()
        runs.append((time.process_time() - start) / repeat * 1e6)
    return statistics.median(runs), min(runs), max(runs)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    snapshot = random.Random(7).getstate()
    rng = seeded(7)
    deck60 = list(range(60))
    wizard = cardtable.load_game("wizard")
    options = wizard.options(players=4)
    cases: dict[str, Callable[[], object]] = {
        "shuffle 60 cards, before (MT snapshot)": lambda: old_shuffled(snapshot, deck60),
        "shuffle 60 cards, now": lambda: shuffled(rng, deck60),
        "randrange(4), before": lambda: (lambda r: (r.setstate(snapshot), r.randrange(4), r.getstate()))(
            random.Random.__new__(random.Random)),
        "randrange(4), now": lambda: randrange(rng, 4),
        "Durak default deck, before (1000 MT draws)": lambda: old_durak_deck(7),
        "Durak default deck, now": lambda: durak_rules.shuffle(7, "random"),
        "Wizard new game (4 players), now": lambda: wizard.new(options, 7),
    }
    print(f"CPU µs per call, median of 5 runs of {args.repeat} [min–max]:")
    for label, call in cases.items():
        repeat = args.repeat // 10 if "Durak" in label and "before" in label else args.repeat
        median, low, high = timed(call, repeat)
        print(f"  {label:<44} {median:8.1f}  [{low:.1f}–{high:.1f}]")
    print(f"pickled RNG value in a state: before {len(pickle.dumps(snapshot))} bytes, now {len(pickle.dumps(rng))}")


if __name__ == "__main__":
    main()

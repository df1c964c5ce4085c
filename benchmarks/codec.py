"""The JSON codec's speed on real views: a Wizard observation (4 players) encoded and decoded.

    python benchmarks/codec.py [--seeds 5] [--repeat 2000]

For each seed, a Wizard game is played by random moves to a position in the middle
of the game (round 7, cards on the table, a score sheet of six rounds); the view of
seat 0 is then encoded with ``to_json`` (JSON-ready Python data, what the server
sends) and ``dumps`` (JSON text), and decoded with ``observation_codec.loads``; a
``play`` action is decoded too. Each figure is the median over seeds of the best of
five timing runs of ``--repeat`` calls, in CPU time per call, with the range over
seeds. The reflective encoder the codec replaced is timed beside it for comparison.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import json
import random
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

import cardtable
from cardtable.core import dumps, to_json


def reflective_to_json(value: object) -> Any:
    """The encoder the codec replaced (reflection on every value)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"type": type(value).TYPE}  # type: ignore[attr-defined]
        for f in dataclasses.fields(value):
            if f.init:
                out[f.name] = reflective_to_json(getattr(value, f.name))
        return out
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (tuple, list, frozenset)):
        return [reflective_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): reflective_to_json(v) for k, v in value.items()}
    return value


def mid_game_view(seed: int) -> Any:
    """Seat 0's Wizard view in round 7 after a few cards, reached by random moves."""
    game = cardtable.load_game("wizard")
    state, _ = game.new(game.options(players=4), seed)
    rng = random.Random(seed)
    while not (state.round == 7 and len(state.trick) == 2):
        seat = game.to_act(state)
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])
    return game.observe(state, 0)


def per_call_us(call: Callable[[], object], repeat: int) -> float:
    """Best of five runs of ``repeat`` calls, in CPU microseconds per call."""
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(repeat):
            call()
        best = min(best, time.process_time() - start)
    return best / repeat * 1e6


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    game = cardtable.load_game("wizard")
    codec = game.observation_codec
    results: dict[str, list[float]] = {}
    size = 0
    for seed in range(1, args.seeds + 1):
        view = mid_game_view(seed)
        text = dumps(view)
        size = max(size, len(text))
        calls: dict[str, Callable[[], object]] = {
            "to_json(view)": lambda view=view: to_json(view),
            "dumps(view)": lambda view=view: dumps(view),
            "reflective json.dumps(view) (before)": lambda view=view: json.dumps(
                reflective_to_json(view), ensure_ascii=False, separators=(",", ":")),
            "observation_codec.loads(text)": lambda text=text: codec.loads(text),
            'action_codec.loads(\'{"type":"play","card":12}\')': lambda: game.action_codec.loads(
                '{"type":"play","card":12}'),
        }
        for label, call in calls.items():
            results.setdefault(label, []).append(per_call_us(call, args.repeat))
    print(f"Wizard view, 4 players, round 7 ({size} bytes of JSON); CPU µs per call, "
          f"median over {args.seeds} seeds [min–max]:")
    for label, values in results.items():
        print(f"  {label:<48} {statistics.median(values):8.1f}  [{min(values):.1f}–{max(values):.1f}]")


if __name__ == "__main__":
    main()

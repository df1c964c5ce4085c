"""What a training run of each game is: its options, who learns against whom, what a sample's target is.

Defaults per game (``DEFAULTS``) are the choices docs/learning.md explains; ``TrainSpec.make`` checks
a user's choices against the game and its compiled core before anything runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

Returns = Literal["game", "hand"]
"""A sample's target: ``game``, the seat's reward at the end of the game (+1 a winner, -1 the others);
``hand``, the points its side scores in the hand (round) the decision belongs to, times ``reward_scale``."""


@dataclass(frozen=True)
class TrainSpec:
    """One training run's fixed choices (everything but the seed and the length)."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    opponent: str = "heuristic"
    teams: bool = False
    self_play: float = 0.25
    returns: Returns = "game"
    reward_scale: float = 1.0
    hidden: tuple[int, ...] = (512, 256)
    envs: int = 256
    games_per_env: int = 2
    batch: int = 1024
    passes: int = 2
    learning_rate: float = 3e-4
    epsilon: float = 0.03
    guide: float = 0.0
    eval_games: int = 1000

    def with_(self, **changes: Any) -> TrainSpec:
        """A copy with some fields changed."""
        return replace(self, **changes)

    @property
    def reward_mode(self) -> str:
        """The batch core's reward mode this spec reads."""
        return "game" if self.returns == "game" else "round"


DEFAULTS: dict[str, TrainSpec] = {
    "crazy_eights": TrainSpec("crazy_eights", {"players": 4}, returns="hand", reward_scale=0.02),
    "durak": TrainSpec("durak", {"players": 2}),
    "wizard": TrainSpec("wizard", {"players": 4}, returns="hand", reward_scale=0.05, games_per_env=1),
    "kaiser": TrainSpec("kaiser", {}, teams=True, returns="hand", reward_scale=0.2, games_per_env=1),
    "mus": TrainSpec("mus", {}, opponent="simple", teams=True),
}


def learner_seats(spec: TrainSpec, players: int, env: int) -> tuple[int, ...]:
    """The seats the net plays in env ``env`` of an epoch: all (self-play), a side, or one seat (rotating)."""
    every = max(1, round(1 / spec.self_play)) if spec.self_play > 0 else 0
    if every and env % every == 0:
        return tuple(range(players))
    if spec.teams:
        side = env % 2
        return tuple(s for s in range(players) if s % 2 == side)
    return (env % players,)

"""What a training run of each game is: its options, who learns against whom, what a sample's target is.

Defaults per game (``DEFAULTS``) are the choices docs/learning.md explains; ``TrainSpec.make`` checks
a user's choices against the game and its compiled core before anything runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, get_args

Keep = Literal["best", "last"]
"""The net a run writes at its end: the best of its curve on the evaluation deals, or the last epoch's."""

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
    half_life: int = 0
    epsilon: float = 0.03
    guide: float = 0.0
    eval_games: int = 1000
    keep: Keep = "best"

    def with_(self, **changes: Any) -> TrainSpec:
        """A copy with some fields changed."""
        return replace(self, **changes)

    def rate_factor(self, epoch: int) -> float:
        """The share of ``learning_rate`` used in ``epoch``: halved every ``half_life`` epochs (0: constant)."""
        return 0.5 ** (epoch / self.half_life) if self.half_life > 0 else 1.0

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


#: The training choices ``cardtable train --set KEY=VALUE`` may change (the game and its options have flags).
TUNABLE = ("opponent", "teams", "self_play", "returns", "reward_scale", "hidden", "envs", "games_per_env", "batch",
           "passes", "learning_rate", "half_life", "epsilon", "guide", "eval_games", "keep")


def parse_setting(spec: TrainSpec, key: str, text: str) -> TrainSpec:
    """``spec`` with ``key`` set from its text (``hidden=256,128``, ``epsilon=0.01``); ``ValueError`` in one line."""
    if key not in TUNABLE:
        raise ValueError(f"no training choice {key!r} (known: {', '.join(TUNABLE)})")
    kind = {f.name: f.type for f in fields(TrainSpec)}[key]
    value: Any
    try:
        if key == "hidden":
            value = tuple(int(n) for n in text.split(","))
            if not value or min(value) < 1:
                raise ValueError
        elif key in ("returns", "keep"):
            value = text
            if value not in get_args(Returns if key == "returns" else Keep):
                raise ValueError
        elif kind in ("bool", bool):
            value = {"true": True, "false": False, "1": True, "0": False}[text.lower()]
        elif kind in ("int", int):
            value = int(text)
        elif kind in ("float", float):
            value = float(text)
            if value != value or value in (float("inf"), float("-inf")):
                raise ValueError
        else:
            value = text
    except (ValueError, KeyError):
        raise ValueError(f"--set {key}={text}: not a valid {key}") from None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        raise ValueError(f"--set {key}={text}: must not be negative")
    return spec.with_(**{key: value})


def settings_text(spec: TrainSpec) -> list[str]:
    """The ``--set`` arguments that turn the game's default spec into ``spec``."""
    default = DEFAULTS[spec.game]
    out = []
    for key in TUNABLE:
        value = getattr(spec, key)
        if value != getattr(default, key) and key != "opponent":
            text = ",".join(str(n) for n in value) if key == "hidden" else str(value).lower() \
                if isinstance(value, bool) else str(value)
            out += ["--set", f"{key}={text}"]
    return out

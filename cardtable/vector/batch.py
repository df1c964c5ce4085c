"""The batched environment: N games of one game and option set, stepped together by a compiled core."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from cardtable.core.errors import IllegalAction
from cardtable.core.registry import load_game
from cardtable.vector.cores import check_supported, load_core

if TYPE_CHECKING:
    import numpy.typing as npt

Illegal = Literal["raise", "lose"]
_ILLEGAL = {"raise": 0, "lose": 1}


class IllegalBatchAction(IllegalAction):
    """An action outside its env's mask; no env was stepped. ``env`` is its index, ``action`` the id."""

    def __init__(self, env: int, action: int, reason: str) -> None:
        ValueError.__init__(self, f"env {env}: illegal action {action}: {reason}")
        self.env = env
        self.action = action
        self.reason = reason
        self.step = None


class BatchEnv:
    """``num_envs`` games stepped at once; every array is indexed by env first (see ``docs/vector.md``).

    ``reset()`` and ``step(actions)`` return the env's own buffers, rewritten at the next call (copy
    them to keep them): ``obs`` (uint8, ``(num_envs, *obs_shape)``, the ``cardtable.rl`` encoding of the
    seat to act), ``mask`` (int8, ``(num_envs, num_actions)``), ``rewards`` (float32, ``(num_envs,
    players)``), ``done`` (bool, ``(num_envs,)``) and ``player`` (int32, the seat to act). A game that
    ends is replaced by the env's next game in the same step (``done`` says so; ``obs`` is the new
    game's). Game ``k`` of env ``i`` is dealt from seed ``seed + i + k * num_envs`` (mod 2**64), so it
    replays in the Python engine as a record. With ``autoreset=False`` a finished game stays (its
    ``player`` is -1, its observation and mask all zero, its action ignored, ``done`` set) until
    ``reset_env(i)``.
    """

    def __init__(self, game: str, num_envs: int, *, seed: int = 0, rewards: str = "game",
                 illegal: Illegal = "raise", policy_seed: int | None = None, autoreset: bool = True,
                 **options: Any) -> None:
        self.game = load_game(game)
        self.name = self.game.info.name
        self.options = self.game.options(**options)
        core = load_core(self.name)
        check_supported(self.name, core, options=self.options)
        self._module = core
        if illegal not in _ILLEGAL:
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        if type(seed) is not int or (policy_seed is not None and type(policy_seed) is not int):
            raise ValueError(f"seed and policy_seed must be ints, not {seed!r} and {policy_seed!r}")
        self.num_envs = num_envs
        self.seed = seed
        self.illegal: Illegal = illegal
        self._illegal = _ILLEGAL[illegal]
        mask64 = (1 << 64) - 1
        self.core = core.Core(num_envs, seed & mask64, self.options,
                              (seed if policy_seed is None else policy_seed) & mask64, autoreset=bool(autoreset),
                              rewards=rewards)
        self.autoreset = bool(autoreset)
        self.reward_mode = rewards
        self.policies: tuple[str, ...] = core.POLICIES
        self.players: int = self.core.players
        self.num_actions: int = self.core.num_actions
        self.obs_shape: tuple[int, ...] = (self.core.obs_size,)
        self.obs: npt.NDArray[np.uint8] = np.zeros((num_envs, *self.obs_shape), np.uint8)
        self.mask: npt.NDArray[np.int8] = np.zeros((num_envs, self.num_actions), np.int8)
        self.rewards: npt.NDArray[np.float32] = np.zeros((num_envs, self.players), np.float32)
        self._done = np.zeros(num_envs, np.uint8)
        self.done: npt.NDArray[np.bool_] = self._done.view(np.bool_)
        self.player: npt.NDArray[np.int32] = np.zeros(num_envs, np.int32)
        self._actions = np.zeros(num_envs, np.int64)
        self._started = False

    # The loop.

    def reset(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8], npt.NDArray[np.int32]]:
        """Deal every env's first game; ``(obs, mask, player)``."""
        self.core.reset(self.obs, self.mask, self.player)
        self.rewards[:] = 0
        self._done[:] = 0
        self._started = True
        return self.obs, self.mask, self.player

    def step(self, actions: Any, *, final_obs: npt.NDArray[np.uint8] | None = None
             ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8], npt.NDArray[np.float32],
                        npt.NDArray[np.bool_], npt.NDArray[np.int32]]:
        """One action id per env for its seat to act; ``(obs, mask, rewards, done, player)``.

        An id outside its env's mask raises ``IllegalBatchAction`` naming the env and the id, before
        any env moves (with ``illegal="lose"``: that game ends, the seat that acted scores -1, the
        others 0). ``final_obs``: a uint8 array shaped like ``obs`` that receives, for each game that
        ended, the last acting seat's view of its end.
        """
        chosen = self._check_actions(actions)
        if final_obs is not None:
            self._check_buffer(final_obs, "final_obs")
        bad = self.core.step(chosen, self.obs, self.mask, self.rewards, self._done, self.player, self._illegal,
                             True, final_obs)
        if bad >= 0:
            raise self._illegal_error(bad, int(chosen[bad]))
        return self.obs, self.mask, self.rewards, self.done, self.player

    def reset_env(self, env: int) -> None:
        """Deal env ``env``'s next game (with ``autoreset=False`` a finished game stays until this call)."""
        self.core.reset_env(env)
        self.core.observe(self.obs, self.mask, self.player)
        self._done[env] = 0

    def _check_actions(self, actions: Any) -> npt.NDArray[np.int64]:
        if not self._started:
            raise ValueError("call reset() before step()")
        if not isinstance(actions, np.ndarray):
            actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},) (one id per env), not {actions.shape}")
        if actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be integer action ids, not dtype {actions.dtype}")
        if actions.dtype == np.int64 and actions.flags.c_contiguous:
            return actions  # type: ignore[no-any-return]
        out = self._actions
        if actions.dtype.kind == "u" and actions.size and int(actions.max()) > np.iinfo(np.int64).max:
            raise ValueError("actions hold an id beyond int64")
        out[:] = actions
        return out

    def _check_buffer(self, buffer: Any, name: str) -> None:
        if not isinstance(buffer, np.ndarray) or buffer.dtype != np.uint8 or buffer.shape != self.obs.shape \
                or not buffer.flags.c_contiguous or not buffer.flags.writeable:
            raise ValueError(f"{name} must be a writeable C-contiguous uint8 array of shape {self.obs.shape}")

    def _illegal_error(self, env: int, action: int) -> IllegalBatchAction:
        legal = self.core.legal_ids(env)
        seat = int(self.player[env])
        if not 0 <= action < self.num_actions:
            return IllegalBatchAction(env, action, f"outside the {self.name} action space 0–{self.num_actions - 1}")
        return IllegalBatchAction(env, action, f"{self._describe(action, env)} is not legal for seat {seat} now "
                                               f"(legal: {', '.join(f'{i} {self._describe(i, env)}' for i in legal)})")

    def _describe(self, action_id: int, env: int) -> str:
        from cardtable.rl.spaces import encoding_for

        describe = getattr(self._module, "describe_id", None)
        if describe is not None:  # ids that depend on the state or the options (Mus: discards, amounts)
            return str(describe(self.core.state(env), action_id, self.options))

        try:
            return str(encoding_for(self.game).action_from_id(action_id).text())
        except ValueError:
            return "an unused id"

    # The built-in policies.

    def sample(self, policy: str = "random", out: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """Each env's action under a built-in policy (``policies``), computed in C; ``out`` to reuse an array."""
        index = self._policy_index(policy)
        if not self._started:
            raise ValueError("call reset() before sample()")
        if out is None:
            out = np.zeros(self.num_envs, np.int64)
        elif out.dtype != np.int64 or out.shape != (self.num_envs,) or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous int64 array of shape ({self.num_envs},)")
        self.core.policy(index, out)
        return out

    def play(self, steps: int, policy: str = "random", *, encode: bool = True) -> tuple[int, int]:
        """``steps`` decisions in every env under a built-in policy, all in C; ``(decisions, games ended)``.

        With ``encode`` every decision writes the seat to act's observation and mask into ``obs`` and
        ``mask`` first, as an agent's loop reads them; the games played are the same either way.
        """
        index = self._policy_index(policy)
        if not self._started:
            raise ValueError("call reset() before play()")
        if not self.autoreset:
            raise ValueError("play() replaces finished games as it goes: it needs autoreset=True")
        if type(steps) is not int or steps < 0:
            raise ValueError(f"steps must be an int >= 0, not {steps!r}")
        decisions, ended = self.core.play(steps, index, encode, self.obs, self.mask)
        self.core.observe(self.obs, self.mask, self.player)  # the buffers for the states reached
        self.rewards[:] = 0
        self._done[:] = 0
        return int(decisions), int(ended)

    def _policy_index(self, policy: str) -> int:
        if policy not in self.policies:
            raise ValueError(f"no built-in policy {policy!r}: the policies are {', '.join(self.policies)}")
        return self.policies.index(policy)

    # Looking inside.

    def seeds(self) -> list[int]:
        """The seed of the game each env plays now."""
        return [self.core.seed_of(i) for i in range(self.num_envs)]

    def legal_ids(self, env: int) -> list[int]:
        """The legal action ids of env ``env`` now, ascending."""
        return self.core.legal_ids(env)  # type: ignore[no-any-return]

    def state(self, env: int) -> dict[str, Any]:
        """Env ``env``'s state as a dict of Python values (the field names of the Python engine's state)."""
        return self.core.state(env)  # type: ignore[no-any-return]

    @property
    def state_bytes(self) -> int:
        """The core's memory per game (its state, policy stream and game counter), buffers aside."""
        return int(self.core.state_bytes)

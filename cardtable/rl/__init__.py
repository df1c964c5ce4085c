"""Learning agents: encodings, PettingZoo and Gymnasium environments (needs the ``[rl]`` extra).

    import cardtable.rl
    env = cardtable.rl.env("wizard", players=4, rounds=5)          # PettingZoo AEC
    single = cardtable.rl.single_agent_env("crazy_eights", players=2, opponents="heuristic")  # Gymnasium

See ``docs/rl.md`` for the spaces, shapes and action ids of every game.
"""

from cardtable.rl.aec import CardtableEnv, env
from cardtable.rl.single import SingleAgentEnv, single_agent_env
from cardtable.rl.spaces import encoding_for

__all__ = ["CardtableEnv", "SingleAgentEnv", "encoding_for", "env", "single_agent_env"]

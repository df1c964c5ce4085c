"""Entry points: a separate package adds a game and a bot without editing cardtable.

The plugin in ``tests/plugin_pkg`` is made visible the way pip installs it: its package and a
``.dist-info`` with ``entry_points.txt`` on ``sys.path``, in a fresh interpreter.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "tests" / "plugin_pkg"

ENTRY_POINTS = """[cardtable.games]
short_eights = cardtable_plugin_demo

[cardtable.bots]
first = cardtable_plugin_demo:FirstLegalBot
"""


def install_plugin(site: Path, entry_points: str = ENTRY_POINTS) -> None:
    """What ``pip install tests/plugin_pkg`` leaves in site-packages, without pip."""
    shutil.copytree(PLUGIN / "cardtable_plugin_demo", site / "cardtable_plugin_demo")
    info = site / "cardtable_plugin_demo-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cardtable-plugin-demo\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(entry_points)


def run(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)])}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=120)


PLAY = """
import cardtable
from cardtable.bots import bot_names, make_bot
from cardtable.runner import GameRunner
game = cardtable.load_game("short_eights")
print(sorted(cardtable.games()))
print(*(bot_names(cardtable.load_game(name))[:3] for name in ("short_eights", "wizard", "kaiser")))
print("first" in bot_names(cardtable.load_game("kaiser")))
bots = [make_bot(game, "first", 1), make_bot(game, "random", 2)]
runner = GameRunner(game, game.options(players=2), seed=3, agents=bots, timeout=5.0)
outcome = runner.run()
print(runner.status.name, len(outcome.scores), runner.record.to_json()["game"])
"""


def test_a_plugin_adds_a_game_and_a_bot(tmp_path: Path) -> None:
    install_plugin(tmp_path)
    out = run(tmp_path, "-c", PLAY)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "['crazy_eights', 'durak', 'kaiser', 'mus', 'short_eights', 'wizard']"
    # The generic bots, then the plugin's bot (offered for the games it names only), then each game's own.
    assert lines[1] == ("['random', 'first', 'heuristic'] ['random', 'first', 'heuristic'] "
                        "['random', 'heuristic', 'lowest']")
    assert lines[2] == "False"
    assert lines[3] == "FINISHED 2 short_eights"


def test_the_command_line_lists_the_plugin_game(tmp_path: Path) -> None:
    install_plugin(tmp_path)
    out = run(tmp_path, "-m", "cardtable", "selfplay", "short_eights", "--bots", "first,random", "--games", "2",
              "--json")
    assert out.returncode == 0, out.stderr
    assert '"first"' in out.stdout


def test_a_broken_plugin_is_reported_and_the_rest_still_works(tmp_path: Path) -> None:
    install_plugin(tmp_path, ENTRY_POINTS + "broken = cardtable_plugin_demo:NoSuchBot\n"
                   "\n[cardtable.games]\nghost = no_such_module\n")
    code = ("import warnings, cardtable\nfrom cardtable.core.registry import PLUGIN_ERRORS\n"
            "from cardtable.bots import bot_names\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    warnings.simplefilter('always')\n"
            "    names = sorted(cardtable.games()); bots = bot_names(cardtable.load_game('wizard'))\n"
            "print(names); print(bots); print(len(caught)); print(PLUGIN_ERRORS)")
    out = run(tmp_path, "-c", code)
    assert out.returncode == 0, out.stderr
    names, bots, warned, errors = out.stdout.splitlines()
    assert "short_eights" in names and "ghost" not in names
    assert "first" in bots and "broken" not in bots
    assert warned == "2"
    assert "cardtable.games:ghost: ModuleNotFoundError" in errors and "cardtable.bots:broken" in errors


@pytest.mark.parametrize("blocked", [("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "psycopg")])
def test_the_engine_runs_without_the_server_stack(blocked: tuple[str, ...]) -> None:
    """Import cardtable, load every game and play one, with the server's libraries unimportable."""
    code = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
import cardtable
from cardtable.bots import make_bot
for name, game in cardtable.all_games().items():
    state, _ = game.new(game.options(), 1)
    while (seat := game.to_act(state)) is not None:
        state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    print(name, game.outcome(state) is not None)
print(sorted(m for m in sys.modules if m.split(".")[0] in {blocked!r}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[:-1] == [f"{n} True" for n in ("crazy_eights", "durak", "kaiser", "mus", "wizard")]
    assert lines[-1] == "[]"

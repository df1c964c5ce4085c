"""The 2020 program: the published log byte for byte, the default rules' lines, JSON, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cardtable.cli.durak import durak
from cardtable.games.durak.players.scripted import ScriptedBot
from cardtable.games.durak.program import ProgramError, log_json, log_text, play, run

FIXTURE = Path(__file__).parents[1] / "fixtures" / "reference-log-seed60493-Rick-Morty-Summer.txt"
NAMES = ["Rick", "Morty", "Summer"]
ARGS = ["--preset", "reference", "--seed", "60493", *NAMES]


def command_app() -> typer.Typer:
    """A one-command app around ``durak``, as the main app mounts it."""
    app = typer.Typer()
    app.command()(durak)
    return app


# The known answer.


def test_reference_log_is_byte_exact_through_the_program_functions() -> None:
    expected = FIXTURE.read_bytes()
    assert log_text(play("reference", 60493, NAMES, ScriptedBot)).encode("utf-8") == expected
    assert run("reference", "60493", NAMES, ScriptedBot).encode("utf-8") == expected


def test_reference_log_is_byte_exact_through_the_command() -> None:
    result = CliRunner().invoke(command_app(), ARGS)
    assert result.exit_code == 0
    assert result.stdout_bytes == FIXTURE.read_bytes()


def test_reference_log_is_byte_exact_through_the_installed_script() -> None:
    script = Path(sys.executable).with_name("cardtable")
    command = [str(script)] if script.exists() else [sys.executable, "-c", "from cardtable.cli import main; main()"]
    done = subprocess.run([*command, "durak", *ARGS], capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == FIXTURE.read_bytes()


# The default rules' output.


def _first(rules: str, players: int, wanted: str) -> str:
    """The first log (seeds 1, 2, …) whose last lines are of the kind wanted."""
    names = [f"P{i}" for i in range(players)]
    for seed in range(1, 3000):
        text = log_text(play(rules, seed, names, ScriptedBot))
        tail = text.rstrip("\n").split("\n\n")[-1].split("\n")
        if wanted == "draw-no-winner" and tail == ["Ничья"]:
            return text
        if wanted == "draw-winner" and tail[0] == "Ничья" and len(tail) == 2:
            return text
        if wanted == "fool-winner" and tail[0].startswith("Fool: ") and len(tail) == 2:
            return text
        if wanted == "reference-draw" and tail == ["Fool: -"]:
            return text
    raise AssertionError(f"no {wanted} game found")


def test_default_rules_print_the_winner_the_first_player_out() -> None:
    text = _first("default", 3, "fool-winner")
    fool, winner = text.rstrip("\n").split("\n")[-2:]
    assert fool.startswith("Fool: P") and winner.startswith("Winner: P") and fool[6:] != winner[8:]
    data = log_json(play("default", int(text.split("\n")[0].split(": ")[1]), ["P0", "P1", "P2"], ScriptedBot))
    assert winner == f"Winner: {data['winner']}" and fool == f"Fool: {data['fool']}"


def test_default_rules_say_nichya_for_a_draw_and_a_winner_only_if_one_left_first() -> None:
    assert _first("default", 2, "draw-no-winner").endswith("\n\nНичья\n")
    assert "\n\nНичья\nWinner: P" in _first("default", 3, "draw-winner")


def test_reference_rules_print_a_dash_for_a_draw_and_never_a_winner() -> None:
    text = _first("reference", 2, "reference-draw")
    assert text.endswith("\n\nFool: -\n") and "Winner" not in text


# JSON.


def test_json_describes_the_reference_game() -> None:
    result = CliRunner().invoke(command_app(), [*ARGS, "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == ["rules", "seed", "players", "trump", "hands", "bouts", "fool", "winner", "draw", "reason"]
    assert (data["rules"], data["seed"], data["players"], data["trump"]) == ("reference", 60493, NAMES, "6♦")
    assert data["hands"]["Rick"] == ["6♣", "6♥", "8♥", "10♣", "В♥", "Т♣"]
    assert (data["fool"], data["winner"], data["draw"]) == ("Rick", "Summer", False)
    assert data["reason"] == "one player holds cards"
    assert len(data["bouts"]) == 14
    first = data["bouts"][0]
    assert (first["attacker"], first["defender"], first["taken"]) == ("Rick", "Morty", True)
    assert [(p["kind"], p["card"]) for p in first["plays"]] == [("attack", "6♣"), ("hand_over", "6♥")]
    assert first["draws"] == [{"player": "Rick", "card": "В♣"}, {"player": "Rick", "card": "7♣"}]
    assert data["bouts"][1]["plays"][1] == {"kind": "beat", "player": "Rick", "card": "10♣"}
    assert [b["taken"] for b in data["bouts"]].count(True) == 6


def test_without_a_seed_the_program_draws_one_and_prints_it() -> None:
    text = run("default", None, ["A", "B"], ScriptedBot)
    seed = int(text.split("\n")[0].removeprefix("Deck random: "))
    assert 1 <= seed <= 65535
    assert run("default", str(seed), ["A", "B"], ScriptedBot) == text


# Bad input.


@pytest.mark.parametrize(("args", "message"), [
    (["Rick"], "2–5 players, not 1"),
    ([], "not 0"),
    (["A", "B", "C", "D", "E", "F"], "2–5 players, not 6"),
    (["--preset", "reference", "A", "B", "C", "D", "E"], "2–4 players, not 5"),
    (["Rick", "Rick"], "'Rick' is given twice"),
    (["--seed", "12x", "A", "B"], "the seed must be an integer"),
    (["--seed", "1.5", "A", "B"], "the seed must be an integer"),
    (["--preset", "house", "A", "B"], "unknown rules 'house'"),
    (["A", ""], "non-empty"),
])
def test_bad_input_exits_2_with_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(command_app(), args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().split("\n")
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.stderr


def test_program_functions_raise_program_error() -> None:
    with pytest.raises(ProgramError):
        play("reference", 1, ["A"], ScriptedBot)
    with pytest.raises(ProgramError):
        run("default", "seven", ["A", "B"], ScriptedBot)


#: A deck order (top first) on which the scripted players loop for ever: from bout 15 on, the same
#: positions come back. (It was the deck of number 271 under the earlier shuffle.)
ENDLESS_DECK = (3, 34, 4, 14, 27, 24, 33, 19, 26, 15, 9, 31, 35, 1, 28, 11, 29, 21, 23, 5, 0, 10, 13, 12, 17,
                30, 7, 2, 22, 16, 32, 18, 6, 25, 20, 8)


def test_an_endless_scripted_game_is_stopped_by_the_bout_limit_as_a_draw() -> None:
    from cardtable.core.rng import Scripted
    from cardtable.games.durak.game import DurakGame
    from cardtable.games.durak.program import Play

    game, bot = DurakGame(), ScriptedBot(0)
    state, events = game.new(game.options(preset="default", players=3), Scripted((ENDLESS_DECK,)))
    seen: set[object] = set()
    while (seat := game.to_act(state)) is not None:
        if not state.bout and state.bout_number < 100:
            key = (state.hands, state.deck, state.attacker, state.defender)
            assert key not in seen or state.bout_number > 15  # the cycle starts at bout 15
            seen.add(key)
        state, more = game.apply(state, seat, bot.act(game.observe(state, seat), game.legal_actions(state, seat)))
        events += more
    assert len(seen) < 99  # positions repeat: the 2020 program would never end this game
    data = log_json(Play("default", 0, ("a", "b", "c"), tuple(events)))
    assert (data["draw"], data["fool"], data["reason"]) == (True, None, "bout limit 1000 reached")
    assert len(data["bouts"]) == 1000

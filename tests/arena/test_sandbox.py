"""Misbehaving external bots in real games: each costs only its own decisions, counted under its kind."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from cardtable.arena.external import ExternalBot
from cardtable.arena.sandbox import Limits, Sandbox, bwrap_available
from cardtable.bots import RandomBot
from cardtable.runner import GameRunner, RunnerStatus, TimeLeft
from cardtable.selfplay import selfplay
from tests.core.toy import ToyGame

BOTS = Path(__file__).parent / "bots"
GAME = ToyGame()
# Short decisions for bots meant to time out; room for a busy machine everywhere else (a bot that
# should be counted as malformed must not time out first: Python starts slowly under load).
FAST = Limits(decision=0.2, handshake=5.0, game=10.0, memory=64 * 2**20, processes=8)
ROOMY = Limits(decision=2.0, handshake=5.0, game=30.0, memory=64 * 2**20, processes=8)
TIMING_OUT = {"hang.py", "spin.py", "forkbomb.py", "silent.py"}
ISOLATIONS = ["none", "bwrap"] if bwrap_available() else ["none"]


def bot(script: str, limits: Limits = ROOMY) -> ExternalBot:
    return ExternalBot([sys.executable, "-S", str(BOTS / script)], limits=limits)


def play(agent: ExternalBot, *, max_failures: int | None = 1) -> GameRunner:
    with GameRunner(GAME, GAME.options(), 7, [agent, RandomBot(1)], max_failures=max_failures) as runner:
        runner.run()
    assert runner.status is RunnerStatus.FINISHED, runner.error
    assert runner.outcome is not None
    return runner


@pytest.mark.parametrize(("script", "kind"), [
    ("hang.py", "timeout"),
    ("spin.py", "timeout"),
    ("allocate.py", "crashed"),
    ("forkbomb.py", "timeout"),
    ("garbage.py", "malformed"),
    ("silent.py", "timeout"),
    ("exit.py", "crashed"),
    ("illegal.py", "illegal"),
    ("version.py", "protocol"),
    ("slow_handshake.py", "timeout"),
])
def test_a_misbehaving_bot_costs_its_decisions_and_is_counted_under_its_kind(script: str, kind: str) -> None:
    # Filling 64 MB takes a while on a busy machine: the allocating bot gets time to reach its limit.
    if script == "slow_handshake.py":
        limits = Limits(handshake=0.5)
    elif script == "silent.py":
        limits = Limits(handshake=0.3)
    else:
        limits = FAST if script in TIMING_OUT else ROOMY
    agent = bot(script, limits)
    runner = play(agent)
    failures = runner.failures_by_seat()
    assert failures[1] == {}, "the other seat is untouched"
    assert failures[0].get(kind, 0) >= 1, failures[0]
    assert set(failures[0]) <= {kind, "forfeited"}, failures[0]
    assert 0 in runner.forfeited and 0 not in runner.outcome.winners  # type: ignore[union-attr]
    assert agent.sandbox is None, "closed with the runner"


def test_the_file_size_limit_kills_a_program_that_fills_the_disk() -> None:
    runner = play(bot("bigfile.py", Limits(decision=5.0, file_size=2**20)))
    crash = next(s for s in runner.substitutions if s.kind == "crashed")
    assert "File too large" in crash.detail, crash.detail  # Python ignores SIGXFSZ: the write fails
    assert runner.forfeited == {0}


def test_the_cpu_limit_kills_a_spinning_program() -> None:
    box = Sandbox([sys.executable, "-S", "-c", "while True: pass"], Limits(cpu=1))
    try:
        box.process.wait(60)  # one CPU second; longer in wall time on a busy machine
        assert box.exit_status() in ("killed by SIGXCPU", "killed by SIGKILL")
    finally:
        box.close()


def test_a_bot_that_times_out_is_restarted_for_its_next_decision() -> None:
    runner = play(bot("spin.py", FAST), max_failures=None)
    failures = runner.failures_by_seat()[0]
    decisions = sum(1 for seat, _ in runner.record.actions if seat == 0)
    assert failures == {"timeout": decisions}
    assert runner.forfeited == set()


def test_a_program_whose_game_time_is_spent_is_forfeited() -> None:
    runner = play(bot("spin.py", Limits(decision=0.2, handshake=5.0, game=0.3)), max_failures=None)
    failures = runner.failures_by_seat()[0]
    assert failures["timeout"] == 2 and failures["forfeited"] >= 1
    assert runner.forfeited == {0}
    assert any("game time of 0.3s spent" in s.detail for s in runner.substitutions)


def test_an_illegal_answer_is_explained_to_the_bot() -> None:
    agent = bot("illegal.py")
    runner = play(agent, max_failures=None)
    subs = runner.substitutions
    assert subs and all(s.kind == "illegal" and "add 3" in s.detail for s in subs)
    assert all("not among the legal actions" in s.detail for s in subs)


def test_the_refusal_reaches_the_program() -> None:
    agent = bot("illegal.py")
    agent.start(GAME, GAME.options(), 0)
    state, _ = GAME.new(GAME.options(), 1)
    observation, legal = GAME.observe(state, 0), GAME.legal_actions(state, 0)
    answer = agent.act_within(observation, legal, TimeLeft(2.0, None))
    agent.refused(answer, "not among the legal actions now")
    agent.act_within(observation, legal, TimeLeft(2.0, None))  # answered after it read the refusal
    assert agent.sandbox is not None
    assert "refused add: not among the legal actions now" in agent.sandbox.stderr_tail()
    agent.close()


def test_a_good_bot_plays_whole_games_in_selfplay_without_failures() -> None:
    result = selfplay(GAME, ["ext", "random"], games=3, seed=4, factories={"ext": lambda seed: bot("first.py")},
                      max_failures=1)
    assert result["bots"]["ext"]["failures"] == {} and result["bots"]["ext"]["games"] == 3
    assert result["errors"] == []


def test_selfplay_with_misbehaving_programs_completes_and_counts_each_kind() -> None:
    factories = {"garbage": lambda seed: bot("garbage.py"), "exit": lambda seed: bot("exit.py"),
                 "illegal": lambda seed: bot("illegal.py")}
    result = selfplay(GAME, ["garbage", "exit", "illegal"], games=3, seed=4, factories=factories, max_failures=2)
    bots = result["bots"]
    assert set(bots["garbage"]["failures"]) <= {"malformed", "forfeited"} and bots["garbage"]["failures"]["malformed"]
    assert bots["exit"]["failures"]["crashed"] == 3
    assert bots["illegal"]["failures"]["illegal"] >= 3
    assert result["errors"] == []


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_the_fork_bomb_is_bounded_and_every_child_is_killed(isolation: str) -> None:
    limits = Limits(processes=6, isolation=isolation)  # type: ignore[arg-type]
    box = Sandbox([sys.executable, "-S", str(BOTS / "forkbomb.py")], limits)
    group, workdir = box.process.pid, box.workdir
    deadline = time.monotonic() + 30  # a hang guard: a busy machine may take seconds to start Python
    box.write_line(b'{"type":"hello","protocol":1}', deadline)
    assert b"ready" in box.read_line(deadline)
    box.write_line(b'{"type":"act","id":1}', deadline)
    while "forked" not in box.stderr_tail() and time.monotonic() < deadline:
        time.sleep(0.02)
    forked = int(box.stderr_tail().split("forked ")[1].split()[0])
    assert len(_group_members(group)) >= 2
    if box.enforces_process_limit:
        assert forked <= 6, f"{forked} children beyond the limit of 6 processes"
    box.close()
    gone = time.monotonic() + 60  # a hang guard: killed processes leave /proc when the kernel gets to them
    while _group_members(group) and time.monotonic() < gone:
        time.sleep(0.05)
    assert not _group_members(group), "no process of the bot's group survives"
    assert not workdir.exists()


def _group_members(pgid: int) -> list[int]:
    members = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                members.append(int(entry))
    return members


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_the_program_gets_a_clean_environment_and_a_private_directory(isolation: str, monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    monkeypatch.setenv("CARDTABLE_SECRET", "hunter2")
    script = ("import os, sys; print(sorted(os.environ)); print(os.getcwd() == os.environ['HOME']); "
              "sys.stdout.flush()")
    box = Sandbox([sys.executable, "-S", "-c", script], Limits(isolation=isolation))  # type: ignore[arg-type]
    deadline = time.monotonic() + 30  # a hang guard: a busy machine may take seconds to start Python
    names, own_dir = (box.read_line(deadline).decode() for _ in range(2))
    workdir = box.workdir
    box.close()
    assert names in (str(["HOME", "LANG", "PATH"]), str(["HOME", "LANG", "PATH", "PWD"]))  # bwrap sets PWD
    assert own_dir == "True"
    assert not workdir.exists()


def test_with_bwrap_where_available_the_program_has_no_network_and_a_read_only_view() -> None:
    if not bwrap_available():
        box = Sandbox([sys.executable, "-S", "-c", "pass"], Limits(isolation="auto"))
        box.close()
        assert box.uses_bwrap is False
        return
    script = ("import socket, sys\n"
              "try:\n    socket.create_connection(('1.1.1.1', 53), timeout=1); print('net')\n"
              "except OSError:\n    print('no net')\n"
              f"try:\n    open({str(BOTS / 'x')!r}, 'w'); print('wrote')\n"
              "except OSError:\n    print('read-only')\n"
              "sys.stdout.flush()")
    box = Sandbox([sys.executable, "-S", "-c", script], Limits(isolation="bwrap"))
    deadline = time.monotonic() + 30  # a hang guard: a busy machine may take seconds to start Python
    answers = [box.read_line(deadline).decode() for _ in range(2)]
    box.close()
    assert answers == ["no net", "read-only"]

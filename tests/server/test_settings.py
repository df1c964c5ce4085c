"""``cardtable serve``'s settings: the command line over ``CARDTABLE_*`` over a TOML file over the defaults; a bad
setting is one line naming where it came from, before anything is opened; ``--log-format json`` logs JSON."""

from __future__ import annotations

import importlib
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtable.cli import app
from cardtable.server.settings import JsonFormatter, ServeSettings

runner = CliRunner()
serve_module = importlib.import_module("cardtable.cli.serve")  # the module (the package's ``serve`` is the command)


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Any]:
    """What ``serve`` would have run: the uvicorn config of each start (no server is started)."""
    runs: list[Any] = []

    class Recorder:
        def __init__(self, config: Any) -> None:
            self.config = config

        def run(self) -> None:
            runs.append(self.config)

    monkeypatch.setattr(serve_module, "_graceful_server", lambda: Recorder)
    monkeypatch.chdir(tmp_path)
    for name in ServeSettings.model_fields:
        monkeypatch.delenv(f"CARDTABLE_{name.upper()}", raising=False)
    monkeypatch.delenv("CARDTABLE_CONFIG", raising=False)
    return runs


def test_every_option_comes_from_the_environment(started: list[Any], monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    for name, value in {"HOST": "0.0.0.0", "PORT": "9123", "BOT_DELAY": "0", "LEASE_TTL": "20",
                        "LOG_LEVEL": "warning", "PROXY_HEADERS": "false", "LIMIT": '["outbox=64"]',
                        "DATABASE_URL": f"sqlite:///{tmp_path / 'env.db'}", "BOT_DECISION_TIME": "2.5"}.items():
        monkeypatch.setenv(f"CARDTABLE_{name}", value)
    result = runner.invoke(app, ["serve"])
    assert result.exit_code == 0, result.output
    config = started[0]
    assert (config.host, config.port, config.log_level, config.proxy_headers) == ("0.0.0.0", 9123, "warning", False)
    manager = config.app.state.manager
    assert manager.bot_delay == 0 and manager.lease_ttl == 20 and manager.registry.limits.outbox == 64
    assert (tmp_path / "env.db").exists()


def test_the_command_line_wins_over_the_environment_which_wins_over_the_file(
        started: list[Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "cardtable.toml"
    config.write_text(f'port = 7001\nhost = "10.0.0.1"\nbot_delay = 0.2\nlog_format = "json"\n'
                      f'database_url = "sqlite:///{tmp_path / "file.db"}"\n', encoding="utf-8")
    monkeypatch.setenv("CARDTABLE_PORT", "7002")
    result = runner.invoke(app, ["serve", "--config", str(config), "--host", "127.0.0.2"])
    assert result.exit_code == 0, result.output
    uvicorn_config = started[0]
    assert (uvicorn_config.host, uvicorn_config.port) == ("127.0.0.2", 7002)  # command line, environment
    assert uvicorn_config.app.state.manager.bot_delay == 0.2  # the file
    assert uvicorn_config.log_config["formatters"]["json"]["()"].endswith("JsonFormatter")
    assert (tmp_path / "file.db").exists()


@pytest.mark.parametrize(("args", "content", "environment", "message"), [
    ([], "prot = 7000\n", {}, "unknown setting 'prot'"),
    ([], "port = 70000\n", {}, "port (--port, CARDTABLE_PORT or"),
    ([], "port = \n", {}, "Invalid value"),
    ([], "", {"CARDTABLE_LOG_FORMAT": "xml"}, "log_format (--log-format, CARDTABLE_LOG_FORMAT"),
    ([], "", {"CARDTABLE_BOT_DELAY": "-1"}, "bot_delay"),
    (["--log-level", "loud"], "", {}, "log_level (--log-level"),
    (["--config", "missing.toml"], None, {}, "--config missing.toml: no such file"),
])
def test_a_bad_setting_is_one_line_and_opens_nothing(started: list[Any], monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path, args: list[str], content: str | None,
                                                     environment: dict[str, str], message: str) -> None:
    if content is not None:
        (tmp_path / "c.toml").write_text(content, encoding="utf-8")
        args = [*args, "--config", "c.toml"]
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    result = runner.invoke(app, ["serve", *args])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.stderr
    assert started == [] and sorted(p.name for p in tmp_path.iterdir()) == (["c.toml"] if content is not None else [])


def test_the_json_formatter_writes_one_object_a_line() -> None:
    record = logging.LogRecord("cardtable.server", logging.WARNING, __file__, 1, "lost %s", ("table x",), None)
    line = JsonFormatter().format(record)
    entry = json.loads(line)
    assert "\n" not in line
    assert entry["level"] == "warning" and entry["logger"] == "cardtable.server" and entry["message"] == "lost table x"
    assert entry["time"].endswith("Z") and entry["time"][10] == "T"


def test_help_shows_plain_value_names() -> None:
    result = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--config" in result.output and "CARDTABLE_PORT" in result.output


def test_the_hosting_page_lists_every_setting_with_its_variable() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "hosting.md").read_text(encoding="utf-8")
    for name in ServeSettings.model_fields:
        assert f"`--{name.replace('_', '-')}" in page and f"`CARDTABLE_{name.upper()}`" in page, name


def test_a_real_server_logs_json_lines_with_secrets_hidden(tmp_path: Path) -> None:
    from tests.server.realserver import serve

    with serve(f"sqlite:///{tmp_path / 'json.db'}", tmp_path / "server.log", "--log-format", "json",
               "--log-level", "info") as served:
        assert served.request("GET", "/healthz?token=ctb_secretsecretsecretsecret")[0] == 200
    lines = [line for line in served.text_log().splitlines() if line.startswith("{")]
    entries = [json.loads(line) for line in lines]
    assert any(e["logger"] == "uvicorn.access" and "/healthz" in e["message"] for e in entries), lines
    assert all({"time", "level", "logger", "message"} <= set(e) for e in entries)
    assert "secretsecret" not in served.text_log()


def test_every_serve_option_is_a_setting() -> None:
    """A new ``serve`` flag must be a field of ServeSettings too, or the environment and the file cannot set it."""
    import typer.main

    command = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    options = {p.name for p in command.params}
    assert options - set(ServeSettings.model_fields) == {"config", "bot_decision"}  # the file; an old spelling
    assert set(ServeSettings.model_fields) <= options

"""``cardtable serve``'s settings from three places: the command line, ``CARDTABLE_*`` environment variables and
an optional TOML file (``--config``), in that order of precedence, over the defaults (pydantic-settings).

Every option of ``serve`` is a field here under the option's name with ``_`` for ``-``: ``--bot-delay`` is
``bot_delay`` in the file and ``CARDTABLE_BOT_DELAY`` in the environment. A list (``limit``) is a TOML array,
or JSON in the environment (``CARDTABLE_LIMIT='["outbox=64"]'``).
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

ENV_PREFIX = "CARDTABLE_"
#: The environment variable naming the TOML file when ``--config`` is not given.
CONFIG_ENV = "CARDTABLE_CONFIG"


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def _upper(value: Any) -> Any:
    return value.upper() if isinstance(value, str) else value


class ServeSettings(BaseSettings):
    """What ``cardtable serve`` runs with (the defaults are the command's)."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", validate_default=True)

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    database_url: str | None = None
    bot_delay: float = Field(0.6, ge=0.0)
    takeover_after: float = Field(30.0, ge=0.0)
    lease_ttl: float = Field(15.0, ge=1.0)
    waiting_idle: float = Field(3600.0, ge=1.0)
    tables_per_minute: float = Field(30.0, ge=0.1)
    proxy_headers: bool = True
    sqlite_sync: Annotated[Literal["FULL", "NORMAL"], BeforeValidator(_upper)] = "FULL"
    limit: list[str] = Field(default_factory=list)
    log_level: Annotated[Literal["critical", "error", "warning", "info", "debug", "trace"],
                         BeforeValidator(_lower)] = "info"
    log_format: Annotated[Literal["text", "json"], BeforeValidator(_lower)] = "text"
    open_bots: bool = False
    bot_decision_time: float = Field(5.0, ge=0.05)
    bot_game_time: float = Field(600.0, ge=1.0)
    bot_max_failures: int = Field(10, ge=0)


class SettingsError(ValueError):
    """A setting that cannot be used; the message is one line naming where it came from."""


def load_settings(given: dict[str, Any], config: Path | None) -> ServeSettings:
    """The settings: ``given`` (from the command line) over the environment over ``config`` over the defaults."""
    if config is not None and not config.is_file():
        raise SettingsError(f"--config {config}: no such file")

    class Sourced(ServeSettings):
        @classmethod
        def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                       env_settings: PydanticBaseSettingsSource,
                                       dotenv_settings: PydanticBaseSettingsSource,
                                       file_secret_settings: PydanticBaseSettingsSource,
                                       ) -> tuple[PydanticBaseSettingsSource, ...]:
            sources = [init_settings, env_settings]
            if config is not None:
                sources.append(TomlConfigSettingsSource(settings_cls, toml_file=config))
            return tuple(sources)

    try:
        return Sourced(**given)
    except ValidationError as exc:
        raise SettingsError(_one_line(exc, config)) from None
    except ValueError as exc:  # a TOML syntax error, a list that is not JSON in the environment
        raise SettingsError(f"{config or 'the environment'}: {str(exc).splitlines()[0]}") from None


def _one_line(exc: ValidationError, config: Path | None) -> str:
    """The first problem as ``NAME (--option, CARDTABLE_NAME[, the file]): what``."""
    first = exc.errors()[0]
    name = str(first["loc"][0]) if first["loc"] else "settings"
    if first["type"] == "extra_forbidden":
        return f"{config}: unknown setting {name!r} (known: {', '.join(ServeSettings.model_fields)})"
    where = f"--{name.replace('_', '-')}, {ENV_PREFIX}{name.upper()}" + (f" or {config}" if config else "")
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{name} ({where}): {first['msg']}{more}"


# Logs.


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, and the traceback if any."""

    converter = time.gmtime  # type: ignore[assignment]

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON (the message already redacted by ``cardtable.server.logs``)."""
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def log_config(log_format: str) -> dict[str, Any] | None:
    """uvicorn's logging configuration for ``log_format``: ``None`` keeps its own (text), ``json`` one object
    a line on stderr for uvicorn's and cardtable's loggers."""
    if log_format != "json":
        return None
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "cardtable.server.settings.JsonFormatter"}},
        "handlers": {"default": handler},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "cardtable": {"handlers": ["default"], "level": "INFO", "propagate": False},
        },
    }

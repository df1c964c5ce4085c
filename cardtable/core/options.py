"""Game options: one frozen dataclass per game, described as data for CLIs and UIs.

Each option is a dataclass field with a default. Its type says what it may be:
``bool``, ``int``, ``str`` or a ``Literal[...]`` of choices; a nested dataclass
groups options (named with dots: ``signals.enabled``). ``metadata={"help": ...}``
gives the text a setup screen shows. Every options class has ``players``.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from cardtable.core.errors import InvalidOptions

O = TypeVar("O")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option as data: dotted name, kind (bool, int, float, str, choice), default, choices, help."""

    name: str
    kind: str
    default: Any
    choices: tuple[Any, ...] | None
    help: str


@cache
def option_specs(cls: type[Any]) -> tuple[OptionSpec, ...]:
    """Every option of an options dataclass, nested groups flattened with dotted names."""
    return tuple(_specs(cls, ""))


def _specs(cls: type[Any], prefix: str) -> list[OptionSpec]:
    hints = typing.get_type_hints(cls)
    out: list[OptionSpec] = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        name = prefix + f.name
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            out.extend(_specs(hint, name + "."))
            continue
        default: Any = f.default
        if default is dataclasses.MISSING and callable(f.default_factory):
            default = f.default_factory()
        help_text = str(f.metadata.get("help", ""))
        if typing.get_origin(hint) is typing.Literal:
            out.append(OptionSpec(name, "choice", default, typing.get_args(hint), help_text))
        elif hint in (bool, int, float, str):
            out.append(OptionSpec(name, hint.__name__, default, None, help_text))
        else:
            raise TypeError(f"option {name} has unsupported type {hint}")
    return out


def options_to_dict(options: object) -> dict[str, Any]:
    """The options as a plain nested dict (JSON- and TOML-ready)."""
    return dataclasses.asdict(options)  # type: ignore[call-overload, no-any-return]


def parse_options(
    cls: type[O],
    values: Mapping[str, Any] | None = None,
    *,
    presets: Mapping[str, Mapping[str, Any]] | None = None,
    preset: str | None = None,
) -> O:
    """Build options from defaults, then a named preset, then ``values`` (nested or dotted keys).

    Raises :class:`InvalidOptions` naming the bad key or value.
    """
    merged: dict[str, Any] = {}
    if preset is not None:
        if not presets or preset not in presets:
            known = ", ".join(sorted(presets or {})) or "none"
            raise InvalidOptions(f"unknown preset {preset!r} (known: {known})")
        _merge(merged, presets[preset])
    if values:
        _merge(merged, values)
    return _build(cls, merged, "")


def _merge(target: dict[str, Any], values: Mapping[str, Any]) -> None:
    for key, value in values.items():
        if key == "preset":
            continue
        parts = str(key).split(".")
        node = target
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise InvalidOptions(f"option {key!r} mixes a group and a value")
        if isinstance(value, Mapping):
            node.setdefault(parts[-1], {})
            _merge(node[parts[-1]], value)
        else:
            node[parts[-1]] = value


def _build(cls: type[O], values: Mapping[str, Any], prefix: str) -> O:
    hints = _hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(values) - names)
    if unknown:
        raise InvalidOptions(
            f"unknown option {prefix + unknown[0]!r} (known: {', '.join(prefix + n for n in sorted(names))})"
        )
    kwargs: dict[str, Any] = {}
    for name, value in values.items():
        hint = hints[name]
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            if not isinstance(value, Mapping):
                raise InvalidOptions(f"option {prefix + name!r} is a group of options, not a value")
            kwargs[name] = _build(hint, value, prefix + name + ".")
        else:
            kwargs[name] = _coerce(hint, value, prefix + name)
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise InvalidOptions(str(exc)) from None


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    """The field annotations of an options class, resolved once (``get_type_hints`` is slow)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


def _coerce(hint: Any, value: Any, name: str) -> Any:
    """Accept the value itself or its text form (from a command line or a form)."""
    if typing.get_origin(hint) is typing.Literal:
        for choice in typing.get_args(hint):
            if (value == choice and type(value) is type(choice)) or str(value) == str(choice):
                return choice
        raise InvalidOptions(f"option {name!r} must be one of {typing.get_args(hint)}, not {value!r}")
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
    elif hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value)
            except ValueError:
                pass
    elif hint is str:
        if isinstance(value, str):
            return value
    raise InvalidOptions(f"option {name!r} must be {getattr(hint, '__name__', hint)}, not {value!r}")

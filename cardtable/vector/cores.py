"""Which games have a compiled core, loading it, and checking that it plays exactly the options asked for."""

from __future__ import annotations

import dataclasses
import importlib
import os
from types import ModuleType
from typing import Any

from cardtable.core.errors import InvalidOptions

#: Game name -> the compiled rules module (built from ``cardtable/vector/_<name>.pyx`` by setup.py).
CORES: dict[str, str] = {"crazy_eights": "cardtable.vector._crazy_eights", "wizard": "cardtable.vector._wizard",
                         "durak": "cardtable.vector._durak", "kaiser": "cardtable.vector._kaiser",
                         "mus": "cardtable.vector._mus"}


class CoreNotBuilt(ImportError):
    """The compiled core was not built on this machine (no C compiler at install); the Python engines still work."""


class UnsupportedOptions(InvalidOptions):
    """Options the compiled core does not play: it refuses them rather than play a different game."""


def available() -> list[str]:
    """The games whose compiled core is built and importable here."""
    out = []
    for name in CORES:
        try:
            load_core(name)
        except CoreNotBuilt:
            continue
        out.append(name)
    return out


#: The builds of every core: ``portable`` runs on any x86-64 (or whatever the compiler targets); ``wide`` is the
#: same source compiled for x86-64-v4 with AVX-512 VBMI (its encoders write 64 bytes per instruction), for CPUs
#: that run it. Both play and write exactly the same (tests/vector/test_builds.py).
BUILDS = ("portable", "wide")

#: The environment variable that picks a build: ``auto`` (the default: wide where the CPU runs it and it is built),
#: ``portable`` or ``wide``.
BUILD_VARIABLE = "CARDTABLE_VECTOR_BUILD"


def load_core(name: str, build: str | None = None) -> ModuleType:
    """The compiled rules module of ``name``; ``ValueError`` for a game without one, ``CoreNotBuilt`` if unbuilt.

    ``build`` is ``"auto"``, ``"portable"`` or ``"wide"`` (see BUILDS); ``None`` reads CARDTABLE_VECTOR_BUILD
    (default ``"auto"``). Asking for the wide build where the CPU cannot run it or it is not built raises
    ``CoreNotBuilt`` saying which.
    """
    module = CORES.get(name)
    if module is None:
        raise ValueError(f"no compiled core for {name!r}: cardtable.vector has {', '.join(sorted(CORES))} "
                         f"(the Python engine plays every game: cardtable.load_game({name!r}))")
    if build is None:
        build = os.environ.get(BUILD_VARIABLE, "auto") or "auto"
    if build not in ("auto", *BUILDS):
        raise ValueError(f"no build {build!r} of the compiled cores: the builds are auto, {', '.join(BUILDS)} "
                         f"(from {BUILD_VARIABLE} or load_core's build)")
    portable = _import(name, module)
    if build == "portable":
        return portable
    if not portable.cpu_runs_wide():
        if build == "wide":
            raise CoreNotBuilt(f"this CPU cannot run the wide build of the {name} core (it needs x86-64-v4 with "
                               "AVX-512 VBMI); the portable build runs here: build='portable' or 'auto'")
        return portable
    try:
        return importlib.import_module(module + "_wide")
    except ImportError as exc:
        if build == "wide":
            raise CoreNotBuilt(f"the wide build of the {name} core ({module}_wide) is not built here ({exc}); "
                               "setup.py builds it on x86-64 with a compiler that targets x86-64-v4 "
                               "(GCC 11 or later)") from None
        return portable


def build_of(core: ModuleType) -> str:
    """Which build a module from ``load_core`` is: ``portable`` or ``wide``."""
    return "wide" if core.WIDE else "portable"


def _import(name: str, module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise CoreNotBuilt(
            f"the compiled core of {name} ({module}) is not built here ({exc}). It is built at install when a C "
            "compiler and the Python headers are present (Debian: apt-get install gcc python3-dev; then "
            "pip install -e . again). The Python engines work without it: cardtable.load_game(name).") from None


def check_supported(name: str, core: ModuleType, options: Any) -> None:
    """``UnsupportedOptions`` naming every option the core does not play (a field it lacks, a value it lacks).

    ``core.SUPPORTED`` maps each option (dotted names for nested groups: ``scoring.target``) to the values
    the core plays: a tuple of them, a ``range`` of ints, or a type (every value of it the game accepts).
    A core may add ``unsupported(options)``: problems that span several options, as sentences.
    """
    supported: dict[str, Any] = core.SUPPORTED
    problems = []
    for key, value, default in _flat(options, ""):
        if key not in supported:
            if value != default:
                problems.append(f"{key}={value!r} (the core knows only its default {default!r})")
        elif not _plays(supported[key], value):
            problems.append(f"{key}={value!r} (the core plays {_values(supported[key])})")
    more = getattr(core, "unsupported", None)
    if more is not None:
        problems.extend(more(options))
    if problems:
        raise UnsupportedOptions(f"the compiled {name} core does not support {'; '.join(problems)}; "
                                 "the Python engine plays them (cardtable.rl, cardtable.load_game)")


def _flat(options: Any, prefix: str) -> list[tuple[str, Any, Any]]:
    """(dotted name, value, default) of every option, nested groups flattened."""
    out = []
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            out.extend(_flat(value, f"{prefix}{f.name}."))
            continue
        out.append((prefix + f.name, value, f.default))
    return out


def _plays(allowed: Any, value: Any) -> bool:
    """Whether ``value`` is one the core plays: one of the values listed (of the same type), an int in the range,
    or any value of the type."""
    if isinstance(allowed, range):
        return type(value) is int and value in allowed
    if isinstance(allowed, type):
        return type(value) is allowed
    return any(value == v and type(value) is type(v) for v in allowed)


def _values(allowed: Any) -> str:
    """The values a core plays, in words: ``2, 3, 4``, ``1–2147483647`` or ``any float the game accepts``."""
    if isinstance(allowed, range):
        return f"{allowed.start}–{allowed.stop - 1}"
    if isinstance(allowed, type):
        return f"any {allowed.__name__} the game accepts"
    return ", ".join(map(repr, allowed))

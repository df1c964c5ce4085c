"""Bots that work for every game, and name resolution: the generic bots, plugins' bots, each game's own, search.

Other packages add bots through the ``cardtable.bots`` entry-point group: the entry's name is
the bot's name and its object a factory (``seed -> bot``); a factory with a ``games`` attribute
(game names) is offered for those games only.

A bot name may carry options: ``search:sims=400:ms=800``. Each name has metadata (a label, a
strength rank and a typical decision time) in :mod:`cardtable.bots.catalog`.
"""

from __future__ import annotations

import warnings
from functools import partial
from importlib.metadata import entry_points
from typing import Any

from cardtable.bots.random import RandomBot
from cardtable.bots.search import SearchBot
from cardtable.core.bot import Bot, BotFactory
from cardtable.core.game import Game

GENERIC_BOTS: dict[str, BotFactory] = {"random": RandomBot}
BOTS_GROUP = "cardtable.bots"
_PLUGIN_BOTS: dict[str, BotFactory] = {}
_LOADED: set[str] = set()


def plugin_bots(*, refresh: bool = False) -> dict[str, BotFactory]:
    """The bots of installed plugins by name; a broken entry point is warned about and recorded.

    Installed packages are scanned once per process; ``refresh`` scans again.
    """
    from cardtable.core.registry import PLUGIN_ERRORS

    if _LOADED and not refresh:
        return dict(_PLUGIN_BOTS)
    _LOADED.add("")
    for ep in entry_points(group=BOTS_GROUP):
        key = f"{ep.name}={ep.value}"
        if key in _LOADED:
            continue
        _LOADED.add(key)
        try:
            factory = ep.load()
            if not callable(factory):
                raise TypeError(f"{ep.value} is not a bot factory (seed -> bot)")
            _PLUGIN_BOTS[ep.name] = factory
        except Exception as exc:  # a plugin's bug must not take the whole platform down
            message = f"{BOTS_GROUP}:{ep.name}: {type(exc).__name__}: {exc}"
            PLUGIN_ERRORS.append(message)
            warnings.warn(f"cardtable could not load the bot plugin {message}", RuntimeWarning, stacklevel=2)
    return dict(_PLUGIN_BOTS)

#: Search budgets offered by name: ``search`` decides within about a second, ``search_quick`` faster.
SEARCH_BUDGETS: dict[str, dict[str, Any]] = {"search": {}, "search_quick": {"sims": 40}}


def bot_factories(game: Game[Any, Any, Any, Any]) -> dict[str, BotFactory]:
    """Every bot usable in ``game`` by name: the generic ones, plugins' bots for it, the game's own, then search."""
    plugins = {name: f for name, f in plugin_bots().items()
               if game.info.name in getattr(f, "games", (game.info.name,))}
    own = game.bots()
    out = {**GENERIC_BOTS, **plugins, **own}
    if game.can_sample_worlds() and _has_encoding(game):
        out.setdefault("learned", partial(learned_bot, game))
        from cardtable.bots.guided import GUIDED_GAMES, guided_bot

        if game.info.name in GUIDED_GAMES:
            out.setdefault("learned_search", partial(guided_bot, game))
    if game.can_sample_worlds() and "search" not in own:
        budgets = game_search_budgets(game)
        for name in SEARCH_BUDGETS:
            out.setdefault(name, partial(SearchBot, game, **budgets[name]))
    return out


def _has_encoding(game: Game[Any, Any, Any, Any]) -> bool:
    from cardtable.core.encoding import encoding_for

    try:
        encoding_for(game)
    except ValueError:
        return False
    return True


def learned_bot(game: Game[Any, Any, Any, Any], seed: int = 0, **options: str) -> Bot:
    """The learned player of ``game`` (``cardtable.bots.learned``; numpy is imported on first use).

    Option ``weights=PATH``: a weights file written by ``cardtable train`` instead of the shipped ones.
    """
    from cardtable.bots.learned import LearnedBot

    unknown = set(options) - {"weights"}
    if unknown:
        raise ValueError(f"learned has no option {sorted(unknown)[0]!r} (known: weights)")
    return LearnedBot(game, seed, weights=options.get("weights"))


learned_bot.accepts_options = True  # type: ignore[attr-defined]


def game_search_budgets(game: Game[Any, Any, Any, Any]) -> dict[str, dict[str, Any]]:
    """The default options of each named search budget for ``game`` (games tune them in the catalog)."""
    from cardtable.bots.catalog import SEARCH_OPTIONS

    tuned = SEARCH_OPTIONS.get(game.info.name, {})
    return {name: {**opts, **tuned.get(name, {})} for name, opts in SEARCH_BUDGETS.items()}


def bot_names(game: Game[Any, Any, Any, Any]) -> list[str]:
    """The names of every bot usable in ``game``."""
    return list(bot_factories(game))


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"search:sims=400:ms=800"`` -> ``("search", {"sims": "400", "ms": "800"})``; ValueError if malformed.

    Options follow the name, each after a colon (commas separate bots in a list of seats).
    """
    name, *parts = spec.split(":")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in parts)):
        key, eq, value = part.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ValueError(f"bot option {part!r} in {spec!r} is not key=value")
        options[key.strip()] = value.strip()
    return name.strip(), options


def make_bot(game: Game[Any, Any, Any, Any], name: str, seed: int = 0, *, options: Any = None) -> Bot:
    """A bot by name (options after a colon) for ``game``; one-line ``ValueError`` if unknown or malformed.

    With the table's ``options``, a bot that plays only some option sets (``learned``: those its net was
    trained for) refuses the others here, by name, before any game starts.
    """
    base, bot_options = parse_bot_spec(name)
    factories = bot_factories(game)
    if base not in factories:
        raise ValueError(f"no bot {base!r} for {game.info.name} (known: {', '.join(factories)})")
    if not bot_options:
        bot = factories[base](seed)
    else:
        factory = factories[base]
        takes = getattr(factory.func if isinstance(factory, partial) else factory, "accepts_options", False)
        if not takes:
            raise ValueError(f"bot {base!r} takes no options (given: {', '.join(bot_options)})")
        bot = factory(seed, **bot_options)
    check = getattr(bot, "check_options", None)
    if options is not None and check is not None:
        check(options)
    return bot


__all__ = ["GENERIC_BOTS", "RandomBot", "SearchBot", "bot_factories", "bot_names", "make_bot", "parse_bot_spec",
           "plugin_bots"]

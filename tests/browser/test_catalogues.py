"""The message catalogues: every key the pages use is in English, Spanish and Russian, with the same
placeholders and the plural forms each language needs; every server refusal code has its text; every event
and every action of every built-in game has its log line or its button's name (and its variants') in each
language, written from its own fields; every seña is named as the rules write it; every game has its rules
text in each language; every note the server announces at a table has its line in each language.

(No browser needed: this reads the JavaScript and the catalogues as files.)
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import re
from pathlib import Path
from typing import Any

from cardtable.core import Event
from cardtable.core.registry import GAMES_PACKAGE, all_games
from cardtable.server.refusals import CODES

STATIC = Path(__file__).resolve().parents[2] / "cardtable" / "server" / "static"
LANGUAGES = ("en", "es", "ru")
WORDS_JS = STATIC / "js" / "words.js"
PLURALS = {"en": {"one", "other"}, "es": {"one", "other"}, "ru": {"one", "few", "many"}}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: A catalogue key written in the code: a quoted dotted name ("mus.lance.grande").
LITERAL = re.compile(r"""["']([a-z][a-z_0-9]*(?:\.[a-z_0-9 ]+)+)["']""")
#: A key built from a prefix: t(`mus.phase.${...}`).
TEMPLATE = re.compile(r"""\bt\(\s*`([a-z][a-z_0-9.]*\.)\$\{""")


def _catalogue(lang: str) -> dict[str, object]:
    return dict(json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8")))


def _sources() -> str:
    files = [*sorted((STATIC / "js").glob("*.js")), *sorted((STATIC / "games").glob("*.js")),
             *sorted(STATIC.glob("*.html"))]
    return "\n".join(f.read_text("utf-8") for f in files)


def _texts(value: object) -> list[str]:
    return [str(v) for v in value.values()] if isinstance(value, dict) else [str(value)]


def test_every_key_the_pages_use_is_in_every_catalogue() -> None:
    """Quoted keys in the JavaScript and data-i18n attributes in the HTML exist in en, es and ru; so do keys
    built from a prefix (at least one key under it)."""
    catalogues = {lang: _catalogue(lang) for lang in LANGUAGES}
    namespaces = {key.split(".")[0] for key in catalogues["en"]}
    source = _sources()
    used = {k for k in LITERAL.findall(source) if k.split(".")[0] in namespaces}
    html = "\n".join(f.read_text("utf-8") for f in STATIC.glob("*.html"))
    used |= set(re.findall(r'data-i18n(?:-label|-placeholder)?="([^"]+)"', html))
    assert len(used) > 300  # the scan sees the pages' keys, not nothing
    for lang, catalogue in catalogues.items():
        missing = sorted(k for k in used if k not in catalogue)
        assert not missing, f"{lang}.json lacks {missing}"
        for prefix in set(TEMPLATE.findall(source)):
            assert any(k.startswith(prefix) for k in catalogue), f"{lang}.json has no key under {prefix}"


def test_translations_have_every_english_key_and_nothing_else() -> None:
    """es and ru have exactly the English keys: the page writes every line itself in every language."""
    english = set(_catalogue("en"))
    for lang in ("es", "ru"):
        own = set(_catalogue(lang))
        assert not sorted(english - own), f"{lang}.json lacks {sorted(english - own)}"
        assert not sorted(own - english), f"{lang}.json has keys English lacks: {sorted(own - english)}"


def test_translations_use_only_placeholders_english_has_and_their_plural_forms() -> None:
    """A {placeholder} a translation uses exists in English (a typo would show as {nmae}); plural entries
    have the forms of their language."""
    english = _catalogue("en")
    for lang in LANGUAGES:
        for key, value in _catalogue(lang).items():
            if isinstance(value, dict):
                assert set(value) >= PLURALS[lang], f"{lang}.json {key} needs the forms {sorted(PLURALS[lang])}"
            if key not in english:
                continue
            allowed = {p for text in _texts(english[key]) for p in PLACEHOLDER.findall(text)} | {"n"}
            for text in _texts(value):
                unknown = set(PLACEHOLDER.findall(text)) - allowed
                assert not unknown, f"{lang}.json {key} uses {sorted(unknown)}"


def test_every_refusal_code_has_its_text() -> None:
    """Each code the server gives a refusal (``cardtable.server.refusals``) is in every catalogue."""
    codes = sorted(CODES)
    for lang in LANGUAGES:
        catalogue = _catalogue(lang)
        assert [c for c in codes if f"error.{c}" not in catalogue] == [], lang


def test_every_computer_player_has_a_name_and_the_servers_label_in_every_catalogue() -> None:
    """The lobby names and describes each bot in the page's language; English says what the server says."""
    from cardtable import load_game
    from cardtable.bots import bot_names
    from cardtable.bots.catalog import BOT_INFO, bot_info

    catalogues = {lang: _catalogue(lang) for lang in LANGUAGES}
    for game in (load_game(name) for name in BOT_INFO):
        for bot in bot_names(game):
            info = bot_info(game.info.name, bot)
            assert info is not None, f"{game.info.name}: {bot} has no label in cardtable/bots/catalog.py"
            for lang, catalogue in catalogues.items():
                assert f"bot.{bot}" in catalogue, f"{lang}.json has no name for {bot}"
                keys = [k for k in (f"bot.label.{game.info.name}.{bot}", f"bot.label.{bot}") if k in catalogue]
                assert keys, f"{lang}.json has no label for {game.info.name} {bot}"
                if lang == "en":
                    assert catalogue[keys[0]] == info.label, f"en.json's label for {game.info.name} {bot} is stale"


# Event lines: what the log says, for every event of every built-in game.

#: Parameters words.js computes besides the event's own fields, each with the fields it is computed from:
#: a line may use one only for an event that has one of those fields.
DERIVED = {"n": ("count", "tantos", "tantos_left", "total", "cards_each", "cards", "winners"), "nt": ("no_trump",)}


def _variants() -> dict[str, dict[str, dict[str, dict[str, Any]]]]:
    """words.js's VARIANTS: game -> event type -> suffix -> the field values that choose it."""
    source = WORDS_JS.read_text("utf-8")
    match = re.search(r"^const VARIANTS = (\{.*?^\});$", source, re.MULTILINE | re.DOTALL)
    assert match, "words.js has no `const VARIANTS = {...};` written as JSON"
    return dict(json.loads(match.group(1)))


def _builtin_events() -> dict[str, dict[str, type[Event]]]:
    """Every built-in game's event classes by TYPE: those it declares and every Event in its events module."""
    out: dict[str, dict[str, type[Event]]] = {}
    for name, game in all_games().items():
        if not type(game).__module__.startswith(f"{GAMES_PACKAGE}."):
            continue  # a plugin's game: its own texts are shown
        module = importlib.import_module(f"{GAMES_PACKAGE}.{name}.events")
        classes = {c for _, c in inspect.getmembers(module, inspect.isclass)
                   if issubclass(c, Event) and c.__module__ == module.__name__}
        out[name] = {c.TYPE: c for c in (*game.info.event_types, *sorted(classes, key=lambda c: c.__name__))}
    return out


def _fields(cls: type[Event]) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]


def test_the_derived_parameters_are_the_ones_words_js_computes() -> None:
    """DERIVED above says what words.js does: each derived parameter is set there from exactly those fields."""
    source = WORDS_JS.read_text("utf-8")
    for name, sources in DERIVED.items():
        statement = re.search(rf"params\.{name} = (.*?);\n", source, re.DOTALL)
        assert statement, f"words.js does not compute params.{name}"
        assert set(re.findall(r"event\.(\w+)", statement.group(1))) == set(sources), statement.group(0)


def test_every_event_of_every_game_has_its_line_in_every_language() -> None:
    """event.<game>.<type> and each variant's key exist in en, es and ru; nothing else is under event.; the
    variants choose by the event's own fields."""
    events = _builtin_events()
    variants = _variants()
    assert set(events) == {"crazy_eights", "durak", "kaiser", "mus", "wizard"}
    assert sum(len(types) for types in events.values()) >= 60  # the scan sees the games' events
    assert set(variants) <= set(events), sorted(set(variants) - set(events))
    expected = set()
    for game, types in events.items():
        assert set(variants.get(game, {})) <= set(types), f"{game}: variants of unknown events"
        for type_name, cls in types.items():
            expected.add(f"event.{game}.{type_name}")
            for suffix, condition in variants.get(game, {}).get(type_name, {}).items():
                assert set(condition) <= _fields(cls), f"{game} {type_name}_{suffix} chooses by {sorted(condition)}"
                expected.add(f"event.{game}.{type_name}_{suffix}")
    for lang in LANGUAGES:
        keys = {k for k in _catalogue(lang) if k.startswith("event.")}
        assert not sorted(expected - keys), f"{lang}.json has no line for {sorted(expected - keys)}"
        assert not sorted(keys - expected), f"{lang}.json has lines for no event: {sorted(keys - expected)}"


def test_every_event_line_is_written_from_the_events_fields() -> None:
    """Each {placeholder} of an event line is a field of that event (or a parameter words.js derives from
    one it has); a line with plural forms has a count to choose them by."""
    for game, types in _builtin_events().items():
        for lang in LANGUAGES:
            catalogue = _catalogue(lang)
            for key, value in catalogue.items():
                match = re.fullmatch(rf"event\.{game}\.(\w+)", key)
                if not match:
                    continue
                type_name = next((t for t in sorted(types, key=len, reverse=True)
                                  if match.group(1) == t or match.group(1).startswith(f"{t}_")), None)
                assert type_name is not None, f"{lang}.json {key}: no such event"
                fields = _fields(types[type_name])
                allowed = fields | {name for name, sources in DERIVED.items() if fields & set(sources)}
                used = {p for text in _texts(value) for p in PLACEHOLDER.findall(text)}
                assert used <= allowed, f"{lang}.json {key} uses {sorted(used - allowed)}"
                if isinstance(value, dict):
                    assert "n" in allowed, f"{lang}.json {key} has plural forms but no count"


# Action names: every button of every built-in game, written by the page from the action's fields.

ACTIONS_JS = STATIC / "js" / "actions.js"
#: Parameters actions.js computes besides the action's own fields, each with the fields it comes from.
ACTION_DERIVED = {"n": ("amount", "tricks", "points")}


def _action_variants() -> dict[str, dict[str, dict[str, dict[str, Any]]]]:
    """actions.js's ACTION_VARIANTS: game -> action type -> suffix -> the field values that choose it."""
    source = ACTIONS_JS.read_text("utf-8")
    match = re.search(r"^const ACTION_VARIANTS = (\{.*?^\});$", source, re.MULTILINE | re.DOTALL)
    assert match, "actions.js has no `const ACTION_VARIANTS = {...};` written as JSON"
    return dict(json.loads(match.group(1)))


def _builtin_actions() -> dict[str, dict[str, type[Any]]]:
    """Every built-in game's action classes by TYPE (its declared action types)."""
    return {name: {cls.TYPE: cls for cls in game.info.action_types} for name, game in all_games().items()
            if type(game).__module__.startswith(f"{GAMES_PACKAGE}.")}


def test_the_derived_action_parameters_are_the_ones_actions_js_computes() -> None:
    """ACTION_DERIVED says what actions.js does: params.n comes from exactly those fields."""
    statement = re.search(r"params\.n = (.*?);\n", ACTIONS_JS.read_text("utf-8"), re.DOTALL)
    assert statement, "actions.js does not compute params.n"
    assert set(re.findall(r"action\.(\w+)", statement.group(1))) == set(ACTION_DERIVED["n"]), statement.group(0)


def test_every_action_of_every_game_has_its_name_in_every_language() -> None:
    """action.<game>.<type> and each variant's key exist in en, es and ru, nothing else is under action.<game>.,
    and each name is written from the action's own fields (a card, a suit, an amount)."""
    actions = _builtin_actions()
    variants = _action_variants()
    assert set(actions) == {"crazy_eights", "durak", "kaiser", "mus", "wizard"}
    assert sum(len(types) for types in actions.values()) >= 25  # the scan sees the games' actions
    expected: dict[str, type[Any]] = {}
    for game, types in actions.items():
        assert set(variants.get(game, {})) <= set(types), f"{game}: variants of unknown actions"
        for type_name, cls in types.items():
            expected[f"action.{game}.{type_name}"] = cls
            for suffix, condition in variants.get(game, {}).get(type_name, {}).items():
                assert set(condition) <= _fields(cls), f"{game} {type_name}_{suffix} chooses by {sorted(condition)}"
                expected[f"action.{game}.{type_name}_{suffix}"] = cls
    for lang in LANGUAGES:
        catalogue = _catalogue(lang)
        keys = {k for k in catalogue if re.match(r"action\.(" + "|".join(actions) + r")\.", k)}
        assert not sorted(set(expected) - keys), f"{lang}.json has no name for {sorted(set(expected) - keys)}"
        assert not sorted(keys - set(expected)), f"{lang}.json names no action: {sorted(keys - set(expected))}"
        for key, cls in expected.items():
            fields = _fields(cls)
            allowed = fields | {name for name, sources in ACTION_DERIVED.items() if fields & set(sources)}
            used = {p for text in _texts(catalogue[key]) for p in PLACEHOLDER.findall(text)}
            assert used <= allowed, f"{lang}.json {key} uses {sorted(used - allowed)}"


def test_every_sena_has_its_name_as_the_rules_write_it() -> None:
    """Each Mus seña (``mus.actions.SIGNALS``) is named in every catalogue; in English and Spanish exactly as
    docs/rules/mus.md lists the official señas (accents included), in Russian with that name first."""
    from cardtable.games.mus.actions import SIGNALS

    rules = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "mus.md").read_text("utf-8")
    listed = re.search(r"The official señas: (.*?)\.\n", rules, re.DOTALL)
    assert listed, "docs/rules/mus.md no longer lists the official señas"
    official = [name.strip() for name in re.sub(r"\s+", " ", listed.group(1)).split(",")]
    assert len(official) == len(SIGNALS) == 14
    for lang in LANGUAGES:
        catalogue = _catalogue(lang)
        names = [str(catalogue[f"mus.signal.{s}"]) for s in SIGNALS]
        if lang == "ru":
            assert all(n.split(" (")[0] in official for n in names), names
        else:
            assert sorted(names) == sorted(official), (lang, names)


# The rules panel.

RULES = Path(__file__).resolve().parents[2] / "cardtable" / "server" / "rules"


def test_every_game_has_its_rules_text_in_every_language() -> None:
    """cardtable/server/rules/<game>.<lang>.md exists for each built-in game in en, es and ru, and the panel's
    endpoint serves each language its own file (a heading first; Cyrillic in Russian)."""
    from cardtable.server.table_api import rules_html

    games = sorted(_builtin_actions())
    for game in games:
        for lang in LANGUAGES:
            path = RULES / f"{game}.{lang}.md"
            assert path.is_file(), f"no rules text {path.name}"
            text = path.read_text("utf-8")
            assert text.startswith("# "), path.name
            if lang == "ru":
                assert len(re.findall(r"[а-яё]", text, re.IGNORECASE)) > 200, path.name
            served = rules_html(game, lang)
            assert served["lang"] == lang and served["html"].startswith("<h1>"), (game, lang)
    assert sorted(p.name for p in RULES.glob("*.md")) == sorted(f"{g}.{lang}.md" for g in games for lang in LANGUAGES)


# Table notes: the lines the server writes into a table's chat (``social.announce``).

SERVER = Path(__file__).resolve().parents[2] / "cardtable" / "server"
#: ``announce(table, "note", ...)`` and ``announce(table, f"bot_{kind}", ...)`` (a kind of the runner's).
ANNOUNCE = re.compile(r"""\bannounce\(\s*\w+\s*,\s*(f?)["']([a-z_{}]+)["']""")


def _announced_notes() -> set[str]:
    """Every note key the server can announce: each call's literal key, f-strings over the runner's kinds."""
    from cardtable.runner import FAILURE_KINDS

    notes: set[str] = set()
    for path in sorted(SERVER.rglob("*.py")):
        source = path.read_text("utf-8")
        found = ANNOUNCE.findall(source)
        assert len(found) == len(re.findall(r"\.announce\(", source)), f"{path.name}: a note this test cannot read"
        for formatted, key in found:
            if not formatted:
                notes.add(key)
                continue
            assert re.fullmatch(r"[a-z_]*\{kind\}", key), f"{path.name}: announce({key!r}) is not understood here"
            notes |= {key.replace("{kind}", kind) for kind in FAILURE_KINDS}
    return notes


def test_every_note_the_server_announces_has_its_line_in_every_language() -> None:
    """note.<key> for each note social.announce can send (takeovers, the timer, every bot seat's note)."""
    notes = _announced_notes()
    assert {"timeout", "takeover_done", "bot_seated", "bot_timeout", "bot_forfeited", "bot_released"} <= notes
    for lang in LANGUAGES:
        catalogue = _catalogue(lang)
        assert not sorted(n for n in notes if f"note.{n}" not in catalogue), lang
        # Each line is written from what a note carries: the seat's name, who, and the seat's number.
        for note in notes:
            used = {p for text in _texts(catalogue[f"note.{note}"]) for p in PLACEHOLDER.findall(text)}
            assert used <= {"name", "who", "n"}, f"{lang}.json note.{note} uses {sorted(used)}"

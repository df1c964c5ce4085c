"""The message catalogues: every key the pages use is in English, Spanish and Russian, with the same
placeholders and the plural forms each language needs; every server refusal code has its text.

(No browser needed: this reads the JavaScript and the catalogues as files.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from cardtable.server.refusals import CODES

STATIC = Path(__file__).resolve().parents[2] / "cardtable" / "server" / "static"
LANGUAGES = ("en", "es", "ru")
#: Keys only a translation has: it rewrites engine texts that English shows as the engine wrote them.
OWN_LANGUAGE_ONLY = {"ru": ("card.", "event."), "es": ("card.", "event.")}
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
    own_only = tuple(p for prefixes in OWN_LANGUAGE_ONLY.values() for p in prefixes)
    for lang, catalogue in catalogues.items():
        missing = sorted(k for k in used if k not in catalogue and not k.startswith(own_only))
        assert not missing, f"{lang}.json lacks {missing}"
        for prefix in set(TEMPLATE.findall(source)):
            if lang == "en" and prefix.startswith(own_only):
                continue  # a translation's own rewriting of engine words
            assert any(k.startswith(prefix) for k in catalogue), f"{lang}.json has no key under {prefix}"


def test_translations_have_every_english_key_and_nothing_else() -> None:
    """es and ru have every English key; a key English lacks is only one that rewrites engine texts."""
    english = set(_catalogue("en"))
    for lang in ("es", "ru"):
        own = set(_catalogue(lang))
        assert not sorted(english - own), f"{lang}.json lacks {sorted(english - own)}"
        extra = [k for k in own - english if not k.startswith(OWN_LANGUAGE_ONLY.get(lang, ("-",)))]
        assert not extra, f"{lang}.json has keys English lacks: {extra}"


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

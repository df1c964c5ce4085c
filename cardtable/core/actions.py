"""Helpers for actions: most are game-specific dataclasses, but many are a single word."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Self


@dataclass(frozen=True, slots=True)
class WordAction:
    """An action with no fields, written as a fixed word or phrase (``pass``, ``take``, ``no hay mus``).

    ``WORDS[0]`` is its text form; every word in ``WORDS`` parses to it, in any case
    (``("pass", "paso")``).
    """

    TYPE: ClassVar[str]
    WORDS: ClassVar[tuple[str, ...]]

    def text(self) -> str:
        """The action's one word."""
        return self.WORDS[0]

    @classmethod
    def parse(cls, text: str) -> Self | None:
        """This action if ``text`` is one of its words, else None."""
        return cls() if text.strip().lower() in cls.WORDS else None

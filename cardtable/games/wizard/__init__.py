"""Wizard: 3–6 players, 60 cards, bid your tricks exactly. Official rules by default, house rules as toggles."""

from cardtable.core import register
from cardtable.games.wizard.game import WizardGame

GAME = register(WizardGame(), bots="cardtable.games.wizard.players:BOTS")

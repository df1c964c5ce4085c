"""The engine core: protocol, events, observations, outcomes, options, codecs, RNG, records."""

from cardtable.core.bot import Bot, BotFactory
from cardtable.core.checks import MaxChars, MaxItems, Within, problem_of
from cardtable.core.codec import Codec, decode_as, dumps, parse_json, to_json
from cardtable.core.errors import DecodeError, IllegalAction, InvalidOptions
from cardtable.core.events import Event, PrivateEvent, events_for
from cardtable.core.game import Game, GameInfo
from cardtable.core.observation import Observation
from cardtable.core.options import OptionSpec, option_specs, options_to_dict, parse_options
from cardtable.core.outcome import Outcome
from cardtable.core.record import GameRecord, load_record, load_state, new_record, replay, replay_state
from cardtable.core.registry import register
from cardtable.core.types import CardId, Seat

__all__ = [
    "Bot", "BotFactory", "CardId", "Codec", "DecodeError", "Event", "Game", "GameInfo",
    "GameRecord", "IllegalAction", "InvalidOptions", "MaxChars", "MaxItems", "Observation", "OptionSpec", "Outcome",
    "PrivateEvent", "Seat", "Within", "decode_as", "dumps", "events_for", "load_record", "load_state", "new_record",
    "option_specs", "options_to_dict", "parse_json", "parse_options", "problem_of", "register", "replay",
    "replay_state", "to_json",
]

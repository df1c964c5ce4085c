"""The codes of the server's refusals, which the pages translate (``static/i18n/<lang>.json``, ``error.<code>``)."""

from __future__ import annotations

from typing import Literal, get_args

#: Every code a refusal can carry; each has a sentence in every catalogue (a test checks it).
RefusalCode = Literal[
    "store_down", "not_your_turn", "stale", "no_longer_computer", "table_is", "seats_before_start",
    "table_is_not", "other_process", "table_status", "seat_is_computer", "seat_taken", "seat_promised",
    "no_takeover", "no_seat", "no_token_seat", "rematch_host", "host_settings", "host_only",
    "spectators_cannot_act", "chat_empty", "chat_too_long", "chat_rate", "socket_rate", "tables_rate",
    "connections_rate", "rematch_not_finished", "replay_not_finished", "record_not_finished",
    "changing_hands", "no_table", "table_stopped", "server_failed", "illegal", "refused",
    "bots_closed", "bots_rate", "bot_name_taken", "bot_name_bad", "no_bot", "seat_is_bot", "seat_held",
    "not_a_bot_seat", "csrf", "sign_in", "name_taken", "login_refused", "login_rate", "rated_sign_in",
    "rated_one_seat", "rated_takeover", "no_player", "vote_own_seat", "vote_not_away",
]
CODES: frozenset[str] = frozenset(get_args(RefusalCode))

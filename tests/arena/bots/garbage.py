"""Answers every decision with text that is not JSON."""
import _common

_common.run(lambda message: _common.send(None, raw="garbage }{ not json"))

"""Speaks protocol version 2."""
import _common

_common.run(_common.first, protocol=2)

"""Takes three seconds to answer the handshake."""
import time

import _common

_common.run(_common.first, before_ready=lambda: time.sleep(3.0))

"""Moved to bpe_ref.course.hub: this path stays, the same module, for code written before the move.

`python -m bpe_ref.hub` runs it as before."""

import sys

from .course import hub

if __name__ == "__main__":
    sys.exit(hub.main())
else:
    sys.modules[__name__] = hub

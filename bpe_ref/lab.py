"""Moved to bpe_ref.course.lab: this path stays, the same module, for code written before the move.

`python -m bpe_ref.lab` runs it as before."""

import sys

from .course import lab

if __name__ == "__main__":
    sys.exit(lab.main())
else:
    sys.modules[__name__] = lab

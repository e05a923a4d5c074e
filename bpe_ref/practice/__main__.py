"""`python -m bpe_ref.practice`: the same as the bpe-practice command."""

import sys

from .cli import main

sys.exit(main())

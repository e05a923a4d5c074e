"""`python -m bpe_ref.bench [options]`: see bpe_ref/bench/cli.py."""

from .cli import main

main()

"""The benchmark: bpe_ref's trainer and encoder against the naive loop, Hugging Face and tiktoken.

Run it with `python -m bpe_ref.bench` (see cli.py for the options).
"""

from .cli import *  # noqa: F401,F403

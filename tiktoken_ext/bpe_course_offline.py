"""bpe-course's tiktoken plugin: no encodings of its own, only the course's rank files offline.

tiktoken imports every module of the tiktoken_ext namespace the first time any process asks for an
encoding, before it reads a rank file. This one points TIKTOKEN_CACHE_DIR at the rank files (and
GPT-2's encoder.json and vocab.bpe) shipped in bpe_ref/data/tiktoken_cache, unless a cache folder
was chosen, so `tiktoken.get_encoding("gpt2")` works with no network wherever the course is
installed (a wheel, `pip install -e .`, the conda environment), whether bpe_ref is imported or not.
It imports nothing of bpe_ref and writes nothing.
"""

import importlib.util
import os
from pathlib import Path

ENCODING_CONSTRUCTORS = {}  # tiktoken requires the name; the encodings are tiktoken's own


def shipped_cache():
    """bpe_ref's rank-file folder, found without importing bpe_ref (None if it is not installed)."""
    spec = importlib.util.find_spec("bpe_ref")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(list(spec.submodule_search_locations)[0]) / "data" / "tiktoken_cache"
    return folder if folder.is_dir() else None


if not (os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")):
    _folder = shipped_cache()
    if _folder is not None:
        os.environ["TIKTOKEN_CACHE_DIR"] = str(_folder)

"""What runs inside the sandbox, beside the learner's code: the worker and what it loads by path.

Nothing here imports bpe_ref (in a sandbox bpe_ref is absent, and these files are a copy), and
nothing here is trusted: the learner's code shares the worker's process and can change any of it.
The parent reads only the data the worker sends (wire.py) and judges it itself.
"""

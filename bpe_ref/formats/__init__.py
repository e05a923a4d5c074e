"""Formats and interop, built on the core: tiktoken's encodings, GPT-2's files, the .model file,
Hugging Face's tokenizer.json, a vocab in any id layout, and the cache of recovered merges."""

"""The reference byte-level BPE, the one the grader trusts and a learner reads.

naive.py is the lesson's functions; base.py, basic.py and regex_tokenizer.py the Tokenizer
classes; trainer.py and fast.py the fast merge loop and chunk encoder; the other modules are
the stages around them (reading and counting, splitting, special tokens, worker processes).
"""

"""Learner code runs under one fixed hash seed, chosen so that a set of the cases' overlapping special
tokens yields the shortest first: special tokens joined in a set's order then fail on every run,
where a random seed let the same file pass one run in three."""

import itertools
import json
import subprocess
import sys

from bpe_ref.grade.judge.exercises.w08_special_tokens import OVERLAPPING
from bpe_ref.grade.walls import isolation

GROUPS = [sorted(OVERLAPPING, key=len), ["<|endoftext|>", "<|endoftext|><|endoftext|>"]]

ORDERS = """
import itertools, json, sys
out = []
for group in json.loads(sys.argv[1]):
    for perm in itertools.permutations(group):
        for size in range(2, len(perm) + 1):
            for part in itertools.combinations(perm, size):
                if group[0] in part:
                    out.append([list(set(part))[0], list(frozenset(part))[0], list({t: 0 for t in set(part)})[0]])
print(json.dumps(out))
"""


def first_in_sets(env):
    out = subprocess.run([sys.executable, "-c", ORDERS, json.dumps(GROUPS)], env=env,
                         capture_output=True, text=True, check=True).stdout
    return {first for row in json.loads(out) for first in row}


def test_the_seed_puts_the_shortest_special_token_first_in_any_set_of_them():
    firsts = first_in_sets({**isolation.BARE_ENVIRONMENT})
    assert firsts <= {group[0] for group in GROUPS}, firsts


def test_every_worker_environment_carries_the_seed():
    assert isolation.BARE_ENVIRONMENT["PYTHONHASHSEED"] == isolation.HASH_SEED
    command = isolation.sandbox_command(["true"], isolation.worker_dir(), 256)
    assert ["--setenv", "PYTHONHASHSEED", isolation.HASH_SEED] in [command[i:i + 3] for i in range(len(command))]
    assert "-E" not in isolation.WORKER_FLAGS and "-I" not in isolation.WORKER_FLAGS  # either would drop the seed

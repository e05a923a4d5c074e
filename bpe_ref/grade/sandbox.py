"""The grader's side of the sandbox: start a worker process for one submission, load its
cells, call its functions with a deadline, and restart it when it hangs or dies.
"""

import json
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import wire

WORKER = Path(__file__).with_name("worker.py")
MAX_REPLY = 50_000_000  # bytes of one reply line
GRACE = 2.0  # seconds past a request's own time limit before the worker is killed
KINDS = ("raised", "not_implemented", "reference", "missing", "timeout", "exit", "memory", "crashed")


@dataclass
class Reply:
    """What happened to one request: `kind` is ok, raised, not_implemented, reference,
    missing, timeout, crashed, exit or memory; `info` is calling.py's outcome dict."""

    kind: str
    value: object = None
    info: dict = field(default_factory=dict)


def reply_from(outcome):
    """The Reply for one of calling.py's outcome dicts (its value already plain Python)."""
    if "ok" in outcome:
        return Reply("ok", outcome["ok"], outcome)
    return Reply(next(k for k in KINDS if k in outcome), info=outcome)


class Sandbox:
    """One learner submission, loaded in its own process."""

    def __init__(self, cells, cwd=None, timeout=10.0, memory_mb=2048):
        self.cells, self.cwd, self.timeout, self.memory_mb = cells, cwd, timeout, memory_mb
        self.process = None
        self.hanging = set()  # cells that never finished: skipped when the worker restarts
        self.cell_reports = {}
        self.defined = {}
        self.load_failure = None  # set when the submission cannot be loaded at all

    # --------------------------------------------------------------- process

    def _spawn(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env["MPLBACKEND"] = "Agg"
        self.process = subprocess.Popen(
            [sys.executable, "-I", str(WORKER), str(self.memory_mb)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=self.cwd, env=env, start_new_session=(os.name != "nt"),
        )
        self.replies = queue.Queue()
        threading.Thread(target=self._read, args=(self.process, self.replies), daemon=True).start()

    @staticmethod
    def _read(process, replies):
        for line in iter(lambda: process.stdout.readline(MAX_REPLY), b""):
            try:
                replies.put(json.loads(line))
            except ValueError:
                replies.put({"garbled": True})
        replies.put(None)  # end of stream: the process is gone

    def exit_code(self):
        """The worker's exit code, waiting a moment for a process whose pipe just closed."""
        try:
            return self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        if self.process is None:
            return
        try:
            if os.name != "nt":
                os.killpg(self.process.pid, 9)
            else:
                self.process.kill()
        except (ProcessLookupError, PermissionError, OSError):
            pass
        self.process.wait()
        self.process = None

    def close(self):
        if self.process is not None and self.process.poll() is None:
            try:
                self._send({"op": "quit"})
            except OSError:
                pass
        self.kill()

    def _send(self, request):
        self.process.stdin.write((wire.dumps(request) + "\n").encode("ascii"))
        self.process.stdin.flush()

    def _receive(self, deadline):
        try:
            return self.replies.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return "timeout"

    # --------------------------------------------------------------- loading

    def start(self):
        """Start the worker and run every cell, skipping those that hung before."""
        while True:
            self._spawn()
            outcome = self._load()
            if outcome == "loaded":
                return True
            if outcome == "crashed-on-load":
                self.kill()
                return False

    def _load(self):
        self._send({"op": "load", "cells": self.cells, "skip": sorted(self.hanging), "seconds": self.timeout})
        current = None
        while True:
            message = self._receive(time.monotonic() + self.timeout + GRACE)
            if message == "timeout":
                self.kill()
                if current is None:
                    self.load_failure = f"the submission did not start within {self.timeout:g} s"
                    return "crashed-on-load"
                self.hanging.add(current)
                self.cell_reports[current] = {"status": "timeout"}
                return "restart"
            if message is None or "garbled" in message:
                code = self.exit_code()
                self.load_failure = (
                    f"the process ended while running {self.cells[current]['name'] if current is not None else 'the submission'}"
                    f" (exit code {code}): os._exit(), a crash or the memory limit"
                )
                if current is not None:
                    self.cell_reports[current] = {"status": "crashed"}
                return "crashed-on-load"
            if message.get("loaded"):
                self.defined = message["defined"]
                return "loaded"
            current = message["cell"]
            if message["status"] not in ("started", "skipped"):
                self.cell_reports[current] = message

    # --------------------------------------------------------------- calls

    def request(self, request, deadline):
        """Send one request; restart the worker first if an earlier call killed it."""
        if self.process is None or self.process.poll() is not None:
            self.kill()
            if self.load_failure or not self.start():
                return Reply("crashed", info={"message": self.load_failure})
        seconds = deadline - time.monotonic()
        if seconds <= 0:
            return Reply("timeout")
        self._send({**request, "seconds": seconds})
        message = self._receive(deadline + GRACE)
        if message == "timeout":
            self.kill()
            return Reply("timeout")
        if message is None or "garbled" in message:
            code = self.exit_code() if self.process else None
            self.kill()
            return Reply("crashed", info={"message": f"the process ended during the call (exit code {code}): "
                                                     "os._exit(), a crash or the memory limit"})
        if "ok" in message:
            message["ok"] = wire.from_wire(message["ok"])
        return reply_from(message)

    def call(self, name, args, deadline, rule=None):
        request = {"op": "call", "name": name, "args": wire.to_wire(list(args))}
        return self.request({**request, "rule": rule} if rule else request, deadline)

    def get(self, name, deadline):
        return self.request({"op": "get", "name": name}, deadline)

    def measure(self, name, text, vocab_size, deadline):
        """(Reply, pair lookups) of the learner's trainer on a counting text (see work.py)."""
        reply = self.request({"op": "measure", "name": name, "text": text, "vocab_size": vocab_size}, deadline)
        return reply, reply.info.get("lookups")

    def by_hand(self, name, rule, deadline):
        """What the learner's function and its helpers use that the by-hand rule refuses."""
        reply = self.request({"op": "by_hand", "name": name, "rule": rule}, deadline)
        return reply.value if reply.kind == "ok" else []


class SandboxCaller:
    """The engine's way to run one exercise's function inside the sandbox, before a deadline.

    For an exercise of several functions, `combine(call, args)` runs them (call(name, args)).
    """

    def __init__(self, sandbox, name, deadline, combine=None):
        self.sandbox, self.name, self.deadline, self.combine = sandbox, name, deadline, combine

    def call(self, args, rule=None):
        if self.combine:
            return self.combine(lambda name, arguments: self.sandbox.call(name, arguments, self.deadline), args)
        return self.sandbox.call(self.name, args, self.deadline, rule)

    def measure(self, text, vocab_size):
        return self.sandbox.measure(self.name, text, vocab_size, self.deadline)

    def by_hand(self, rule):
        return self.sandbox.by_hand(self.name, rule, self.deadline)

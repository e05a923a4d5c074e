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


@dataclass
class Reply:
    """What happened to one request: `kind` is ok, raised, not_implemented, reference,
    missing, timeout, crashed, output_limit, exit or memory."""

    kind: str
    value: object = None
    info: dict = field(default_factory=dict)


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
        self._send({"op": "load", "cells": self.cells, "skip": sorted(self.hanging)})
        current = None
        while True:
            message = self._receive(time.monotonic() + self.timeout)
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
        if time.monotonic() >= deadline:
            return Reply("timeout")
        self._send(request)
        message = self._receive(deadline)
        if message == "timeout":
            self.kill()
            return Reply("timeout")
        if message is None or "garbled" in message:
            code = self.exit_code() if self.process else None
            self.kill()
            return Reply("crashed", info={"message": f"the process ended during the call (exit code {code}): "
                                                     "os._exit(), a crash or the memory limit"})
        if "ok" in message:
            return Reply("ok", wire.from_wire(message["ok"]), message)
        kind = next(k for k in ("raised", "not_implemented", "reference", "missing",
                                "output_limit", "exit", "memory") if k in message)
        return Reply(kind, info=message)

    def call(self, name, args, deadline):
        return self.request({"op": "call", "name": name, "args": wire.to_wire(list(args))}, deadline)

    def get(self, name, deadline):
        return self.request({"op": "get", "name": name}, deadline)

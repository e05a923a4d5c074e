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

from . import isolation, replies
from .replies import Malformed
from ..inside import wire, work

WORKER = Path(__file__).resolve().parents[1] / "inside" / "worker.py"
MAX_REPLY = 16_000_000  # bytes of one reply line: a longer one is malformed, and the worker is stopped
QUEUED = 4  # reply lines read ahead of the grader: a worker that floods the pipe waits for it
EXERCISE_CALLS = 3  # an exercise's calls together get this many times --timeout
GRACE = 2.0  # seconds past a request's own time limit before the worker is killed
PROCESSES = 8  # processes and threads the learner's code may start, besides the worker (--processes)
WATCH_EVERY = 0.2  # seconds between two looks at the memory of all the sandbox's processes
SETTLE = 0.2  # seconds a call's leftover processes and threads get to end before the sandbox is restarted
SETTLE_EVERY = 0.02  # seconds between two counts of them meanwhile
KINDS = ("raised", "not_implemented", "reference", "missing", "timeout", "exit", "memory", "crashed", "malformed")


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


def split_twice(reply):
    """A reply to a call made twice on the same arguments (calling.call's `twice`): the first answer
    as the value, the second as info["again"]. Anything but a pair of answers cannot be graded."""
    if reply.kind != "ok":
        return reply
    if not (isinstance(reply.value, (list, tuple)) and len(reply.value) == 2):
        return Reply("malformed", info={"message": "the call made twice did not give two answers"})
    first, second = reply.value
    return Reply("ok", first, {**reply.info, "again": second})


class Sandbox:
    """One learner submission, loaded in its own process: behind bubblewrap's walls when
    `isolated` (see isolation.py), else a plain child process. `file_timeout` caps the wall time
    of the whole submission, however many cells hang and restarts it takes."""

    def __init__(self, cells, cwd=None, timeout=10.0, memory_mb=2048, isolated=False, file_timeout=None,
                 module="__main__", run_as=None, file=None, processes=PROCESSES):
        self.cells, self.cwd, self.timeout, self.memory_mb = cells, cwd, timeout, memory_mb
        self.isolated, self.module, self.processes = isolated, module, processes
        self.file = file  # the handed-in file: the learner's __file__ (and, in the walls, its only file)
        self.over_memory = False  # set by the watch when all the processes together passed memory_mb
        self.run_as = run_as  # (uid, gid) a root grader drops the worker to when bubblewrap cannot run
        self.file_timeout = file_timeout if file_timeout is not None else 20 * timeout
        self.expires = None  # the wall-clock end of this submission's time, from the first start
        self.expired = False
        self.process = None
        self.host_pid = None  # the worker's pid as the grader sees it (for its CPU time)
        self.init_pid = None  # bubblewrap's PID 1 of the sandbox, as the grader sees it
        self.hanging = set()  # cells that never finished: skipped when the worker restarts
        self.cell_reports = {}
        self.defined = {}
        self.load_failure = None  # set when the submission cannot be loaded at all
        self.at_rest = None  # the sandbox's processes and threads once loaded: what each call starts from
        self.restarts_owed = False  # set when the parent killed the sandbox to clear a call's leftovers
        self.credit = {}  # deadline -> seconds of such restarts, given back to that exercise's calls

    # --------------------------------------------------------------- process

    def _spawn(self):
        if self.expires is None:
            self.expires = time.monotonic() + self.file_timeout
        if self.isolated:
            self._spawn_isolated()
        elif self.run_as:
            self._spawn_dropped()
        else:
            env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
            env.update(MPLBACKEND="Agg", **isolation.LEARNER_ENVIRONMENT)
            self.process = subprocess.Popen(
                [sys.executable, *isolation.SAFE_PATH, str(WORKER), str(self.memory_mb),
                 "--processes", str(self.processes + 1)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                cwd=self.cwd, env=env, start_new_session=(os.name != "nt"),
            )
            self.host_pid = self.process.pid
        self.replies = queue.Queue(QUEUED)
        threading.Thread(target=self._read, args=(self.process, self.replies), daemon=True).start()
        threading.Thread(target=self._watch_memory, args=(self.process,), daemon=True).start()

    def _watch_memory(self, process):
        """Kill the whole sandbox when its processes together hold more than memory_mb: each has the
        limit on its own (RLIMIT_AS), and the learner's code may start several."""
        limit = self.memory_mb * 1024 * 1024
        while process.poll() is None:
            if tree_memory(process.pid) > limit:
                self.over_memory = True
                kill_group(process)
                return
            time.sleep(WATCH_EVERY)

    def _spawn_isolated(self):
        """Start bwrap; its --info-fd names the sandbox's PID 1, whose child is the worker."""
        info_read, info_write = os.pipe()
        argv = isolation.worker_command(self.memory_mb, self.processes + 1, self.file)
        argv[1:1] = ["--info-fd", str(info_write)]
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                pass_fds=(info_write,), env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                start_new_session=True,
            )
        finally:
            os.close(info_write)
        with os.fdopen(info_read, "rb") as info:
            self.init_pid = json.loads(info.read() or b"{}").get("child-pid")
        self.host_pid = None  # found when first needed (cpu_seconds): most files never need it

    def _spawn_dropped(self):
        """No bubblewrap, but a root grader: the worker (a copy, with a copy of the allowed packages)
        drops to the run_as account before any learner code runs; a bare environment."""
        self.process = subprocess.Popen(
            isolation.dropped_command(self.memory_mb, self.run_as, self.processes + 1),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=self.cwd,
            env=isolation.BARE_ENVIRONMENT, start_new_session=True,
        )
        self.host_pid = self.process.pid

    @staticmethod
    def _read(process, replies):
        """Reply lines as JSON, at most QUEUED ahead; a line past MAX_REPLY, or not JSON, is garbled
        and ends the reading (the worker is killed when the grader meets it)."""
        try:
            for line in iter(lambda: process.stdout.readline(MAX_REPLY), b""):
                if len(line) >= MAX_REPLY and not line.endswith(b"\n"):
                    replies.put({"garbled": f"a reply of more than {MAX_REPLY:,} bytes"})
                    break
                try:
                    replies.put(json.loads(line))
                except (ValueError, RecursionError):
                    replies.put({"garbled": "a reply that is not JSON"})
                    break
        except (OSError, ValueError):
            pass
        replies.put(None)  # end of stream: the process is gone, or not to be listened to any more

    def exit_code(self):
        """The worker's exit code, waiting a moment for a process whose pipe just closed."""
        try:
            return self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        if self.process is None:
            return
        kill_group(self.process)
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
        """The next reply, "timeout" at the deadline, or "expired" when the file's time is up."""
        try:
            return self.replies.get(timeout=max(0.0, min(deadline, self.expires) - time.monotonic()))
        except queue.Empty:
            if time.monotonic() >= self.expires:
                self.expired = True
                return "expired"
            return "timeout"

    def expired_reply(self):
        self.kill()
        self.load_failure = self.load_failure or (
            f"the submission used up its {self.file_timeout:g} s (--file-timeout): "
            "what was not graded by then counts as an error")
        return Reply("timeout", info={"message": self.load_failure})

    def cpu_seconds(self):
        """CPU time the worker has used so far, read by the grader from /proc (None where unknown)."""
        if self.host_pid is None and self.isolated and self.init_pid:
            self.host_pid = child_of(self.init_pid)
        return cpu_seconds(self.host_pid)

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
        self._send({"op": "load", "cells": self.cells, "skip": sorted(self.hanging), "seconds": self.timeout,
                    "module": self.module, "file": isolation.inside_path(self.file) if self.isolated else self.file})
        current = None
        while True:
            message = self._receive(time.monotonic() + self.timeout + GRACE)
            if message == "expired":
                self.expired_reply()
                return "crashed-on-load"
            if message == "timeout":
                self.kill()
                if current is None:
                    self.load_failure = f"the submission did not start within {self.timeout:g} s"
                    return "crashed-on-load"
                self.hanging.add(current)
                self.cell_reports[current] = {"status": "timeout"}
                return "restart"
            try:
                if message is not None and "garbled" in message:
                    raise Malformed(str(message["garbled"]))
                if message is not None and message.get("loaded") is True:
                    self.defined = replies.defined(message)
                    self.at_rest = self.tasks()
                    return "loaded"
                if message is not None:
                    current, report = replies.cell_report(message, len(self.cells))
            except Malformed as e:
                self.kill()
                self.load_failure = f"could not be graded (grader-side: the sandbox answered out of turn: {e})"
                return "crashed-on-load"
            if message is None:
                code = self.exit_code()
                self.load_failure = (
                    f"the process ended while running {self.cells[current]['name'] if current is not None else 'the submission'}"
                    f" (exit code {code}): os._exit(), a crash or the memory limit"
                )
                if current is not None:
                    self.cell_reports[current] = {"status": "crashed"}
                return "crashed-on-load"
            if report["status"] not in ("started", "skipped"):
                self.cell_reports[current] = report

    # --------------------------------------------------------------- calls

    def request(self, request, deadline, whole=False):
        """Send one request, given at most `timeout` seconds (with `whole`, all that is left) and no
        later than `deadline` (the exercise's: see exercise_deadline); restart the worker first if
        an earlier call killed it."""
        refusal, deadline = self.ready_by(deadline)
        if refusal:
            return refusal
        spent = time.monotonic() >= deadline
        end = deadline if whole else min(deadline, time.monotonic() + self.timeout)
        seconds = min(end, self.expires) - time.monotonic()
        if seconds <= 0:
            return self.expired_reply() if time.monotonic() >= self.expires else self.spent_reply(spent)
        self._send({**request, "seconds": seconds})
        message = self._receive(end + GRACE)
        if message == "expired":
            return self.expired_reply()
        if message == "timeout":
            self.kill()
            return self.spent_reply(end >= deadline)
        if message is None:
            code = self.exit_code() if self.process else None
            self.kill()
            if self.over_memory:
                return Reply("memory")
            return Reply("crashed", info={"message": f"the process ended during the call (exit code {code}): "
                                                     "os._exit(), a crash or the memory limit"})
        try:
            if "garbled" in message:
                raise Malformed(str(message["garbled"]))
            reply = reply_from(replies.outcome(message))
        except Malformed as e:
            self.kill()  # a worker that said something out of turn is not listened to again
            return Reply("malformed", info={"message": str(e)})
        self.clear_leftovers()
        return self.process_limit_reply(reply) or reply

    # --------------------------------------------------------------- processes

    def tasks(self):
        """How many processes and threads the sandbox holds now, as the parent counts them in /proc
        (bwrap's PID 1 and everything under it; outside the walls, the worker and its children)."""
        root = self.init_pid if self.isolated and self.init_pid else (self.process.pid if self.process else None)
        return tree_tasks(root) if root else None

    def clear_leftovers(self):
        """After a call: whatever it left running (a pool never closed, a thread never joined) counts
        against --processes for every later call. The parent lets it end while its count falls, then
        kills the sandbox, so that the next call starts from a fresh load under the cap. Nothing the
        worker says is used: the parent counts in /proc. The time the fresh load takes is the
        grader's, not the exercise's (ready_by)."""
        if self.at_rest is None or self.process is None:
            return
        ends, last = time.monotonic() + SETTLE, None
        while True:
            now = self.tasks()
            if now is None or now <= self.at_rest:
                return
            if (last is not None and now >= last) or time.monotonic() >= ends:
                self.kill()  # the next request starts the submission again (ready)
                self.restarts_owed = True
                return
            last = now
            time.sleep(SETTLE_EVERY)

    def process_limit_reply(self, reply):
        """A grader-side Reply when the learner's code ran into the sandbox's process cap (a fork or a
        thread refused: BlockingIOError EAGAIN, "can't start new thread"), else None. The cap is the
        grader's setting, not the learner's bug; this can only turn a verdict into an error."""
        if reply.kind != "raised" or not hit_process_limit(reply.info["raised"]):
            return None
        raised = reply.info["raised"]
        where = f" at {raised['where']}" if raised.get("where") else ""
        return Reply("processes", info={"message": (
            f"the code wanted more than {self.processes} processes and threads at once, the sandbox's limit "
            f"(--processes {self.processes}; a larger --processes lets it run): {raised['type']}: "
            f"{raised['message'][:120]}{where}")})

    def spent_reply(self, whole_exercise):
        """A timeout: of one call (an endless loop?), or of all an exercise's calls together."""
        if not whole_exercise:
            return Reply("timeout")
        budget = EXERCISE_CALLS * self.timeout
        return Reply("timeout", info={"message": f"its calls together took longer than {budget:g} s, the time "
                                                 f"one exercise gets ({EXERCISE_CALLS} x --timeout); no call alone "
                                                 f"took {self.timeout:g} s: make each call faster"})

    def ready_by(self, deadline):
        """(ready()'s refusal, the deadline to keep): a fresh load the parent forced to clear a call's
        leftovers (clear_leftovers) is added to the exercise's time, for this call and its next ones."""
        started, owed = time.monotonic(), self.restarts_owed
        refusal = self.ready()
        if owed:
            self.restarts_owed = False
            self.credit[deadline] = self.credit.get(deadline, 0.0) + time.monotonic() - started
        return refusal, deadline + self.credit.get(deadline, 0.0)

    def ready(self):
        """None once a loaded worker is running (restarted if an earlier call killed it), else the
        Reply that says why there is none."""
        if self.expired:
            return self.expired_reply()
        if self.process is None or self.process.poll() is not None:
            self.kill()
            if self.load_failure or not self.start():
                return Reply("crashed", info={"message": self.load_failure})
        return None

    def call(self, name, args, deadline, rule=None, twice=False, tables=None, stand_ins=None):
        """`tables`: {name: value} set as the module's globals before the call: the merges and vocab
        its cells never made, a word-level BPE's word counts."""
        request = {"op": "call", "name": name, "args": wire.to_wire(list(args))}
        if tables:
            request["globals"] = wire.to_wire(tables)
        if stand_ins:  # {name: kind}: a stand-in the worker makes (worker.STAND_INS)
            request["stand_ins"] = dict(stand_ins)
        if twice:
            return split_twice(self.request({**request, "rule": rule, "twice": True}, deadline))
        return self.request({**request, "rule": rule} if rule else request, deadline)

    def carry_file(self, path, deadline):
        """Move a file the learner's code wrote into a fresh process of the same submission: read
        it out (bounded), restart the worker, write it back. None, or the Reply that went wrong."""
        read = self.request({"op": "read_file", "path": path}, deadline)
        if read.kind != "ok" or not isinstance(read.value, bytes):
            return read if read.kind != "ok" else Reply("malformed", info={"message": "read_file gave no bytes"})
        self.kill()  # the next request starts the submission again, from its cells
        written = self.request({"op": "write_file", "path": path, "data": wire.to_wire(read.value)}, deadline)
        return None if written.kind == "ok" else written

    def get(self, name, deadline):
        return self.request({"op": "get", "name": name}, deadline)

    def measure(self, name, text, vocab_size, deadline):
        """(Reply, pair lookups) of the learner's trainer on a text of costly ids (see work.py).

        In the walls the count kept inside the learner's process is only believed as far as the CPU
        time the parent sees the worker use (/proc) bears it out: never below two thirds of what that
        time stands for. The count is exact and the same on a busy machine; the CPU estimate moves
        with the load, so it only bounds the count. The instrument, the costly ids, is inside that
        process: a trainer can dodge it (plain ints hash cheaply), so this check can take points
        away, never give them; the merges earn them (docs/instructors.md). Outside the walls, a
        learner grading their own file, the count itself is used."""
        refusal = self.ready()
        if refusal:
            return refusal, None
        reply, reported, seen = self._measured(name, text, vocab_size, deadline)
        if seen is None:
            # no /proc (not Linux), or the worker died during the call: a learner's own run only
            return reply, (None if self.isolated or self.run_as else reported)
        if reported < seen / 1.5:  # the CPU says more than the count: load, or a count forged low
            # a busy machine only adds CPU to the same work: the least of two runs is the truer one
            again, reported_again, seen_again = self._measured(name, text, vocab_size, deadline)
            if seen_again is not None and again.kind == reply.kind:
                reported, seen = max(reported, reported_again), min(seen, seen_again)
        # The count from inside can only take the pass away: CPU that did not go into hashing the
        # text's ids (a recount on plain ints) leaves it low, and then the work was not measured.
        if reported < seen / 2:
            return reply, 0
        return reply, max(reported, int(seen / 1.5))  # a count forged low still meets the CPU it took

    def _measured(self, name, text, vocab_size, deadline):
        """(Reply, the count reported from inside, the heavy hashes the worker's CPU time stands for
        or None when /proc cannot tell) of one measuring run."""
        cost_before = work.heavy_hash_seconds()
        before = self.cpu_seconds()
        reply = self.request({"op": "measure", "name": name, "text": text, "vocab_size": vocab_size,
                              "heavy": True}, deadline, whole=True)
        after = self.cpu_seconds()
        hash_seconds = max(cost_before, work.heavy_hash_seconds())  # the machine's load may change meanwhile
        reported = reply.info.get("lookups") or 0
        if before is None or after is None or after < before:
            return reply, reported, None
        return reply, reported, work.lookups_from_cpu(after - before, hash_seconds)

    def by_hand(self, name, rule, deadline):
        """What the learner's function and its helpers use that the by-hand rule refuses, as read in
        the sandbox: it can only take points away (an empty answer proves nothing, see replies.py)."""
        reply = self.request({"op": "by_hand", "name": name, "rule": rule}, deadline)
        try:
            return replies.shortcuts(reply.value) if reply.kind == "ok" else []
        except Malformed:
            return []


def exercise_deadline(timeout):
    """When an exercise's calls must all be done: each call gets `timeout`, all of them together
    EXERCISE_CALLS times that (a trainer that starts a pool of processes on every call is slow
    to start, not stuck)."""
    return time.monotonic() + EXERCISE_CALLS * timeout


def kill_group(process):
    """Kill a worker and everything it started (its process group; bwrap's namespace follows)."""
    try:
        if os.name != "nt":
            os.killpg(process.pid, 9)
        else:
            process.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass


def hit_process_limit(raised):
    """Whether a learner's exception is the process cap refusing a fork or a thread: os.fork's
    BlockingIOError (EAGAIN), or threading's "can't start new thread"."""
    kinds = raised.get("kinds") or []
    message = raised.get("message") or ""
    return ("BlockingIOError" in kinds and ("Errno 11]" in message or "temporarily unavailable" in message)) \
        or ("RuntimeError" in kinds and "can't start new thread" in message)


def descendants(pid):
    """pid and every process under it, from /proc (only pids from `pid` on: see tree_memory);
    just [pid] where there is no /proc (not Linux)."""
    children = {}
    for entry in (os.scandir("/proc") if os.path.isdir("/proc") else ()):
        if entry.name.isdigit() and int(entry.name) >= pid:
            parent = parent_of(entry.name)
            if parent is not None:
                children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def tree_tasks(pid):
    """Processes and threads of `pid` and all its descendants (what RLIMIT_NPROC counts), or None."""
    total = 0
    for member in descendants(pid):
        try:
            total += len(os.listdir(f"/proc/{member}/task"))
        except OSError:
            continue
    return total or None


def tree_memory(pid):
    """Resident bytes of process `pid` and all its descendants (Linux /proc; 0 where unknown).
    Only processes started after `pid` are read (pids grow until they wrap, far away): a few."""
    children, sizes = {}, {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) < pid:
            continue
        fields = stat_fields(entry.name)
        if fields and len(fields) > 22:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
            sizes[int(entry.name)] = int(fields[21]) * PAGE
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        total += sizes.get(current, 0)
        todo += children.get(current, [])
    return total


PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def child_of(pid, tries=200):
    """The first child of `pid` (bwrap's PID 1 forks the worker right away), from /proc."""
    for _ in range(tries):
        for entry in os.scandir("/proc"):
            if entry.name.isdigit() and parent_of(entry.name) == pid:
                return int(entry.name)
        time.sleep(0.005)
    return None


def stat_fields(pid):
    """The fields of /proc/PID/stat after the command's name (state, ppid, ...), or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def parent_of(pid):
    fields = stat_fields(pid)
    return int(fields[1]) if fields else None


def cpu_seconds(pid):
    """user + system CPU seconds of process `pid` (Linux /proc; microseconds where sched shows them)."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/sched", encoding="ascii") as f:
            for line in f:
                if line.startswith("se.sum_exec_runtime"):
                    return float(line.split(":")[1]) / 1000.0
    except (OSError, ValueError):
        pass
    fields = stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if fields else None


class SandboxCaller:
    """The engine's way to run one exercise's function inside the sandbox, before a deadline.

    For an exercise of several functions, `combine(call, args)` runs them (call(name, args)).
    """

    def __init__(self, sandbox, name, deadline, combine=None):
        self.sandbox, self.name, self.deadline, self.combine = sandbox, name, deadline, combine

    def call(self, args, rule=None, twice=False, tables=None, stand_ins=None):
        """`tables`, `stand_ins`: set as the module's globals before the call (Sandbox.call)."""
        if self.combine:
            return self.combine(lambda name, arguments: self.sandbox.call(name, arguments, self.deadline), args,
                                lambda path: self.sandbox.carry_file(path, self.deadline))
        return self.sandbox.call(self.name, args, self.deadline, rule, twice, tables, stand_ins)

    def measure(self, text, vocab_size):
        return self.sandbox.measure(self.name, text, vocab_size, self.deadline)

    def by_hand(self, rule):
        return self.sandbox.by_hand(self.name, rule, self.deadline)

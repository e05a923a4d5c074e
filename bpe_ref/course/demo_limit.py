"""A time limit on the learner's functions when a workbook's demo cells call them.

`check` limits every call it makes, but a demo cell calls the learner's `encode` directly, and an
`encode` that never shortens its ids used to hang Run All until someone interrupted the kernel.
While a workbook cell runs (bpe_ref.course.workbook wraps each one), the kernel's main thread is
looked at four times a second: by a CPU-time timer's signal (it reaches code that holds on to
the interpreter, such as a backtracking regex) and by a watchdog thread (for code that sleeps or
waits). When one call of an exercise the learner wrote in the notebook has been running for
SECONDS (AGAIN, for a function stopped before and not redefined since), the signal's handler raises TooLong inside it, and from then on every line of the
learner's code raises TooLong again, so an `except:` in their loop cannot swallow it. The cell
prints one line (what did not finish, the line it was running) and Run All goes on.

Only time inside the learner's exercise functions counts: a demo may call them many times, and
the course's own code (and `check`, which has its own limit) runs as long as it needs.
A signal cannot stop code that never comes back to Python (a built-in working on a huge input);
when the call is still running GRACE seconds after the signal, the watchdog itself prints how
to interrupt the kernel. Where there is no signal to send (Windows), there is no limit.
"""

import contextvars
import linecache
import signal
import sys
import threading
import time


# One call of a learner's exercise from a demo cell. The solutions' longest, recover_merges on a
# tiktoken encoding in workbook 09, took 4.5 s here; a learner's right but slower code, on a slower
# computer, may take several times that. Change it in a notebook with bpe_ref.course.demo_limit.SECONDS = 120.
SECONDS = 60.0
AGAIN = 5.0  # a function already stopped once, until it is redefined: so that Run All does not wait a
#             full minute at each of the demo cells that call a broken encode
GRACE = 3.0  # after the signal: when to say that the call could not be stopped
TICK = 0.25  # how often the watchdog looks
ICON = "⏰"
SIGNAL = getattr(signal, "SIGPROF", None)  # what ITIMER_PROF sends; the watchdog thread sends it too
INTERRUPT = ("interrupt the kernel: ■ in the notebook's toolbar, or Kernel → Interrupt Kernel "
             "(if that does not stop it either, Kernel → Restart Kernel)")


class TooLong(BaseException):
    """Raised in a learner's function that ran past the limit (BaseException: `except Exception` misses it).

    Its text is the line the cell prints; `name` is the function that was stopped."""

    def __init__(self, message, name):
        super().__init__(message)
        self.name = name


def is_cell_file(filename):
    """Whether code comes from a notebook cell of this kernel (where the learner's code lives)."""
    return "ipykernel_" in filename or filename.startswith("<ipython-input")


exercise_names = frozenset()  # the graded exercises' names, handed in by install()


def is_learner_exercise(code):
    return code.co_name in exercise_names and is_cell_file(code.co_filename)


def running_call(frame):
    """The outermost call of a learner's exercise in the stack that ends at `frame`, or None.

    Calls that `check` makes (the grader's frames are below them) have their own limit: skipped."""
    found = None
    while frame is not None:
        if frame.f_globals.get("__name__", "").startswith("bpe_ref.grade"):
            found = None
        elif is_learner_exercise(frame.f_code):
            found = frame
        frame = frame.f_back
    return found


stopped_before = set()  # code objects of the learner's functions stopped once (a redefinition is new code)


def limit(call):
    """The seconds a learner's call may run: less for a function that was stopped before."""
    return min(AGAIN, SECONDS) if call.f_code in stopped_before else SECONDS


def on_stack(target, frame):
    while frame is not None:
        if frame is target:
            return True
        frame = frame.f_back
    return False


def where(frame, target):
    """'line 7 of encode: `while ids:`': the learner's line that was running when the call was stopped."""
    while frame is not None and not is_cell_file(frame.f_code.co_filename):
        frame = frame.f_back  # out of the library the learner's code had called (a regex, a dict...)
    if frame is None:
        frame = target
    named = frame
    while named.f_code.co_name.startswith("<") and named is not target and named.f_back is not None:
        named = named.f_back  # a comprehension or lambda: name the function around it
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
    text = f"line {frame.f_lineno} of {named.f_code.co_name}"
    return f"{text}: `{line[:80]}`" if line else text


def likely_cause(frame):
    """What to look at, from the module the call was in when it was stopped."""
    module = frame.f_globals.get("__name__", "") if frame is not None else ""
    if module.split(".")[0] in ("re", "regex"):
        return ("a regex that backtracks without end? Nested repeats such as (a+)+ or (a|aa)+ try every "
                "way of splitting the text; make each repeat match one way only.")
    return "an endless loop? Check that each pass of the loop gets closer to its end."


class Clock:
    """How long one learner's call has been running, as seen by one observer."""

    def __init__(self):
        self.call, self.since = None, 0.0

    def see(self, call, now):
        if call is not self.call:
            self.call, self.since = call, now
        return now - self.since


class Watchdog:
    """Stops a learner's call that runs too long while a cell runs, by two clocks.

    The main thread's own: a CPU-time timer (ITIMER_PROF) sends SIGPROF four times a second of
    work, and the handler looks at the stack it interrupted. It needs no lock, so it works when
    C code holds the GIL and only checks for signals (a regex backtracking).
    The watchdog thread's: four times a second of wall time it looks at the main thread from
    outside, for a call that sleeps or waits, and kicks the main thread with the same signal.
    It is also the one that says so when a kick did not stop the call.
    """

    def __init__(self):
        self.main = threading.main_thread().ident
        self.running = threading.Event()
        self.depth = 0  # cells within cells (%timeit runs a wrapped cell inside one)
        self.context = None  # the running cell's context: what the watchdog prints goes to that cell
        self.reset()
        self.thread = threading.Thread(target=self.watch, name="bpe-course demo limit", daemon=True)
        self.thread.start()

    def reset(self):
        self.main_clock, self.thread_clock = Clock(), Clock()
        self.kicked, self.kicked_at, self.warned = None, 0.0, False

    # -- in the main thread

    def cell_started(self):
        if threading.get_ident() != self.main:
            return
        self.depth += 1
        if self.depth == 1:
            self.context = contextvars.copy_context()
            self.reset()
            self.running.set()
            signal.setitimer(signal.ITIMER_PROF, TICK, TICK)

    def cell_ended(self):
        """Returns whether the cell that ended is the outermost one (a cell within a cell is not)."""
        if threading.get_ident() != self.main or self.depth == 0:
            return True
        self.depth -= 1
        if self.depth == 0:
            signal.setitimer(signal.ITIMER_PROF, 0)
            self.running.clear()
            self.reset()
            stop_tracing()
        return self.depth == 0

    def tick(self, frame):
        """At each signal: the learner's call to stop now, or None."""
        call = running_call(frame)
        now = time.monotonic()
        seconds = self.main_clock.see(call, now)
        if call is not None and self.kicked is call:  # the thread has watched it for longer
            seconds = max(seconds, now - self.thread_clock.since)
        return call if call is not None and seconds >= limit(call) else None

    # -- in the watchdog's thread

    def watch(self):
        while True:
            self.running.wait()
            time.sleep(TICK)
            if self.running.is_set():
                self.look()

    def look(self):
        frame = sys._current_frames().get(self.main)
        call = running_call(frame)
        del frame
        now = time.monotonic()
        if call is None or self.thread_clock.see(call, now) < limit(call):
            return
        if self.kicked is not call:
            self.kicked, self.kicked_at, self.warned = call, now, False
        signal.pthread_kill(self.main, SIGNAL)  # again at every look, until the call has ended
        if now - self.kicked_at >= GRACE and not self.warned:
            self.warned = True
            self.context.run(print, f"{ICON} {call.f_code.co_name} has run for {now - self.thread_clock.since:.0f} s "
                                    "and Python cannot stop it from here (it is inside a built-in or a C "
                                    f"library): {INTERRUPT}.", flush=True)


WATCHDOG = None
_previous_trace = None
_handling = False  # the handler is running
_stopping = None  # the call being stopped: every line of the learner's code inside it raises TooLong


def on_signal(signum, frame):
    """The signal's handler, in the main thread: raise TooLong in a call that ran past the limit.

    A second signal can arrive while this one is handled: it is ignored, so that the frame named
    is the learner's and not this handler's."""
    global _handling
    if _handling or WATCHDOG is None:
        return
    _handling = True
    try:
        target = WATCHDOG.tick(frame) if WATCHDOG.running.is_set() else None
    finally:
        _handling = False
    if target is None:
        return
    message = (f"{ICON} {target.f_code.co_name} did not finish in {limit(target):g} s and was stopped: "
               f"{likely_cause(frame)} It was running {where(frame, target)}.")
    stopped_before.add(target.f_code)
    start_tracing(frame, target, message)
    raise TooLong(message, target.f_code.co_name)


def start_tracing(frame, target, message):
    """From now on, every line of the learner's code inside `target` raises TooLong again."""
    global _previous_trace, _stopping
    _stopping = target

    def again(traced, event, arg):
        if _stopping is target and is_cell_file(traced.f_code.co_filename) and on_stack(target, traced):
            raise TooLong(message, target.f_code.co_name)
        return again

    if _previous_trace is None:
        _previous_trace = sys.gettrace() or False
    sys.settrace(again)
    while frame is not None:
        frame.f_trace = again
        if frame is target:
            break
        frame = frame.f_back


def stop_tracing():
    global _previous_trace, _stopping
    _stopping = None
    if _previous_trace is not None:
        sys.settrace(_previous_trace or None)
        _previous_trace = None


def install(exercises):
    """Limit calls of the functions named `exercises` (the grader's catalogue, handed in by
    bpe_ref.course.workbook): start the watchdog (once per kernel) and take the signal it sends.
    False where it cannot work."""
    global WATCHDOG, exercise_names
    exercise_names = frozenset(exercises)
    if SIGNAL is None or not hasattr(signal, "pthread_kill") or not hasattr(signal, "setitimer"):
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    signal.signal(SIGNAL, on_signal)
    if WATCHDOG is None:
        WATCHDOG = Watchdog()
    return True


def cell_started():
    if WATCHDOG is not None:
        WATCHDOG.cell_started()


def cell_ended():
    """Returns whether the cell that ended is the outermost one (%timeit runs cells within one)."""
    return WATCHDOG.cell_ended() if WATCHDOG is not None else True

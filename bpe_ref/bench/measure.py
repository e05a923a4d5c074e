"""Measuring one job: in a fresh process (run_job, in the parent), its wall and CPU time and
the rise of its peak resident memory (measure, in the child; see bpe_ref/bench/cli.py)."""

import gc
import json
import os
import resource
import subprocess
import sys
import time

from .corpora import MB


def reset_peak():
    """Reset the peak RSS where Linux allows it; the RSS (MB) to measure the peak against."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="utf-8") as f:
            f.write("5")
        return _proc_status_mb("VmRSS")
    except OSError:
        return peak_mb()  # no reset: an earlier, higher peak would hide this one


def peak_method():
    """How peak_mb() measures, for the JSON."""
    if os.access("/proc/self/clear_refs", os.W_OK):
        return "VmHWM, reset via /proc/self/clear_refs"
    return "ru_maxrss (not reset: a lower bound)"


def peak_mb():
    """The peak RSS of this process so far, in MB."""
    try:
        return _proc_status_mb("VmHWM")
    except OSError:
        scale = 1 if sys.platform == "darwin" else 1024  # macOS counts bytes, Linux KiB
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / MB


def _proc_status_mb(field):
    with open("/proc/self/status", encoding="utf-8") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024 / MB
    raise OSError(f"no {field} in /proc/self/status")


def cpu_seconds():
    """CPU time of this process's threads and of its finished child processes (worker pools)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measure(call, repeats, workers=0):
    """Best wall and CPU times of `repeats` calls, the peak RSS rise (MB) during the first call,
    and what the last call returned. `workers`: how many worker processes the call forks;
    their CPU time and (each) their peak rise are added."""
    walls, cpus, peak, result = [], [], None, None
    for _ in range(repeats):
        result = None
        gc.collect()
        base = reset_peak() if peak is None else None
        wall, cpu = time.perf_counter(), cpu_seconds()
        result = call()
        walls.append(time.perf_counter() - wall)
        cpus.append(cpu_seconds() - cpu)
        if peak is None:
            peak = peak_mb() - base
            if workers:  # a forked worker starts at our size; its peak above that is its own
                peak += workers * max(0.0, _children_peak_mb() - base)
    figures = {"seconds": min(walls), "cpu_seconds": min(cpus), "peak_mb": peak, "runs": repeats,
               "peak_method": peak_method()}
    return figures, result


def _children_peak_mb():
    """The largest peak RSS of the worker processes that have ended, in MB."""
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale / MB


def run_job(spec, env=None):
    """Run one job in a fresh Python process (with environment `env`); its figures, or {'error': ...}."""
    shown = " ".join(f"{k}={v}" for k, v in spec.items() if k != "repeats")
    print("  running", shown, file=sys.stderr, flush=True)
    command = [sys.executable, "-m", "bpe_ref.bench", "--job", json.dumps(spec)]
    done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", check=False, env=env)
    if done.returncode != 0:
        return {**spec, "error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    return {**spec, **json.loads(done.stdout.strip().splitlines()[-1])}

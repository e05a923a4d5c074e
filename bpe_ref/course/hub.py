"""The course on a JupyterHub: `bpe-course-hub singleuser` and `bpe-course-hub restart`.

A hub starts `bpe-course-hub singleuser` as each learner's server (`c.Spawner.cmd`, see
docs/hub.md). Running as the learner (not as root in the hub, where a learner's links in their
own home could steer it), it
- makes their workspace (~/bpe-course, or $BPE_COURSE_WORKSPACE) current with
  bpe_ref.course.workspace, exactly as `course.py lab` does on a laptop: the first start copies every
  workbook and the read-only solutions, later starts bring the course's updates and never
  overwrite the learner's work;
- keeps it private (mode 700): homes on a shared machine are often readable by everyone;
- starts JupyterHub's single-user server with the workspace as its root and 00_start_here as
  its first page.

`bpe-course-hub restart` is how an instructor pushes a course update: after updating the course
the hub's environment uses, it stops the learners' servers through the hub's REST API (the idle
ones, or all), so that each one's next start makes their workspace current.
"""

import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

from . import lab
from .lab import COURSE, FIRST_WORKBOOK
from .workspace import prepare

WORKSPACE = "bpe-course"  # the workspace's folder in each learner's home
DEFAULT_URL = f"/lab/tree/{FIRST_WORKBOOK}"
HUB_API = "http://127.0.0.1:8081/hub/api"  # JupyterHub's own default
PAGINATED = "application/jupyterhub-pagination+json"


def course_path():
    """The course the hub serves: $BPE_COURSE_DIR, else the clone bpe_ref was installed from
    (`pip install -e /opt/bpe-course`)."""
    return Path(os.environ.get("BPE_COURSE_DIR") or COURSE)


def workspace_path():
    """The learner's workspace: $BPE_COURSE_WORKSPACE, else ~/bpe-course."""
    chosen = os.environ.get("BPE_COURSE_WORKSPACE")
    return Path(chosen).expanduser() if chosen else Path.home() / WORKSPACE


def make_private(folder):
    """Create `folder` if needed and take away every other user's access to it. The folder's
    mode is enough: no one else can reach a file inside. (A umask of 077 would hide more, but
    also the feedback files an instructor's nbgrader copies out with their modes.)"""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    mode = folder.stat().st_mode & 0o7777
    if mode & 0o077:
        os.chmod(folder, mode & ~0o077)


def singleuser(argv):
    """Make the learner's workspace current, then become JupyterHub's single-user server on it."""
    workspace = workspace_path()
    try:
        make_private(workspace)
        for note in prepare(course_path(), workspace):
            print(f"bpe-course: {note}", flush=True)
    except (OSError, ValueError) as error:
        print(f"bpe-course: could not make the workspace {workspace}: {error}", file=sys.stderr)
        return 1
    print(f"bpe-course: the learner's work is saved in {workspace}", flush=True)
    os.chdir(workspace)
    env = dict(os.environ, JUPYTERHUB_ROOT_DIR=str(workspace), JUPYTERHUB_DEFAULT_URL=DEFAULT_URL)
    command = [sys.executable, "-m", "jupyterhub.singleuser", *server_options(), *argv]
    os.execve(sys.executable, command, env)


def server_options():
    """The options of `course.py lab`'s server that apply on a hub too: the contents manager
    that keeps the course's copies read only, when bpe_ref.course.lab names one."""
    manager = getattr(lab, "CONTENTS_MANAGER", None)
    return [f"--ServerApp.contents_manager_class={manager}"] if manager else []


def hub_request(api, token, path, method="GET"):
    """One call of the hub's REST API; the decoded JSON reply (None when empty)."""
    request = urllib.request.Request(f"{api.rstrip('/')}{path}", method=method, headers={
        "Authorization": f"token {token}", "Accept": PAGINATED})
    with urllib.request.urlopen(request, timeout=30) as reply:
        body = reply.read()
    return json.loads(body) if body else None


def running_servers(api, token):
    """(user, server name, last activity) of every server that is running, page by page."""
    offset = 0
    while True:
        page = hub_request(api, token, f"/users?state=ready&offset={offset}")
        items = page["items"] if isinstance(page, dict) else page
        for user in items:
            for name, server in (user.get("servers") or {}).items():
                yield user["name"], name, server.get("last_activity")
        following = page.get("_pagination", {}).get("next") if isinstance(page, dict) else None
        if not following:
            return
        offset = following["offset"]


def idle_minutes(last_activity, now):
    """Minutes since an ISO time the hub reports ('2026-11-24T11:02:03.123Z'); None if unknown."""
    if not last_activity:
        return None
    then = datetime.fromisoformat(last_activity.replace("Z", "+00:00"))
    return max(0.0, (now - then).total_seconds() / 60)  # a hub's clock may run a little ahead


def restart(argv):
    """Stop the learners' servers that have been idle for --idle minutes (all with --idle 0)."""
    parser = argparse.ArgumentParser(prog="bpe-course-hub restart", description=(
        "Push a course update: stop the learners' servers through the hub's REST API, so that "
        "each one's next start makes their workspace current. Run it after updating the course "
        "in the hub's environment. Needs a token with the scopes list:users, read:users:activity, "
        "read:servers and admin:servers in $JUPYTERHUB_API_TOKEN."))
    parser.add_argument("--hub-api", default=os.environ.get("JUPYTERHUB_API_URL") or HUB_API,
                        help=f"the hub's REST API (default: $JUPYTERHUB_API_URL or {HUB_API})")
    parser.add_argument("--idle", type=float, default=10, metavar="MINUTES",
                        help="stop only servers idle this long (default 10; 0 stops every server, "
                             "and a learner still at work loses their running kernels)")
    parser.add_argument("--dry-run", action="store_true", help="say what would be stopped, stop nothing")
    args = parser.parse_args(argv)
    if args.idle < 0:
        parser.error(f"--idle is a number of minutes, 0 or more, not {args.idle:g}")
    token = os.environ.get("JUPYTERHUB_API_TOKEN")
    if not token:
        parser.error("set JUPYTERHUB_API_TOKEN to a hub token (an admin's, or a service's) first")
    try:
        return stop_servers(args, token)
    except urllib.error.HTTPError as error:
        print(f"bpe-course-hub: the hub answered {error.code} {error.reason} to {error.url}; "
              "check the token's scopes (list:users, read:users:activity, read:servers, admin:servers)",
              file=sys.stderr)
    except (urllib.error.URLError, OSError) as error:
        print(f"bpe-course-hub: could not reach the hub at {args.hub_api}: {error}", file=sys.stderr)
    return 1


def stop_servers(args, token):
    """Stop the servers --idle chose, several at once (the hub may take seconds over each)."""
    now, chosen, left = datetime.now(timezone.utc), [], 0
    for user, name, last_activity in list(running_servers(args.hub_api, token)):
        label = f"{user}'s server" + (f" {name!r}" if name else "")
        idle = idle_minutes(last_activity, now)
        if args.idle and (idle is None or idle < args.idle):
            left += 1
            print(f"left {label} running: " + ("no activity known" if idle is None else f"active {idle:.0f} min ago"))
            continue
        where = f"/users/{urllib.parse.quote(user)}/server" + (f"s/{urllib.parse.quote(name)}" if name else "")
        chosen.append((label, where))
    if args.dry_run:
        for label, _ in chosen:
            print(f"would stop {label}")
        print(f"{len(chosen)} server(s) to stop, {left} left running")
        return 0
    with ThreadPoolExecutor(max_workers=8) as pool:
        problems = list(pool.map(partial(stop_one, args.hub_api, token), [where for _, where in chosen]))
    for (label, _), problem in zip(chosen, problems):
        print(f"could not stop {label}: {problem}" if problem else f"stopped {label}")
    stopped = problems.count(None)
    print(f"{stopped} server(s) stopped, {left} left running; each learner's next start brings the update")
    return 0 if stopped == len(chosen) else 1


def stop_one(api, token, where):
    """Ask the hub to stop one server; None when it did (or is doing it), else what it answered."""
    try:
        hub_request(api, token, where, method="DELETE")
    except urllib.error.HTTPError as error:
        return f"the hub answered {error.code} {error.reason}"
    return None


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    commands = {"singleuser": singleuser, "restart": restart}
    if not argv or argv[0] not in commands:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: bpe-course-hub singleuser [jupyterhub-singleuser options]\n"
              "       bpe-course-hub restart [--hub-api URL] [--idle MINUTES] [--dry-run]", file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    return commands[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())

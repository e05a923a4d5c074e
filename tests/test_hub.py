"""The course on a real JupyterHub, on loopback only (docs/hub.md).

The test installs the course once, where every user can read it, as a hub's administrator does:
an environment made from a Python every user can run (the test's own may live under /root,
which only root can enter), holding the packages of the test's environment and a copy of the
course. It starts JupyterHub (PyPI) with configurable-http-proxy (npm) and the local-process
spawner running `bpe-course-hub singleuser`, creates three system users, starts their servers
through the hub's REST API and logs one of them in with Chromium. Each user gets a private
workspace with 00 first and read-only solutions, runs cells in their own kernel and saves; no
one can read another's workspace; then an instructor's update reaches a restarted server
without touching the learner's work. Users, processes and files are removed afterwards, also
when a test fails.

It needs root (to create users and let the hub switch to them), Linux, npm (or a
configurable-http-proxy on PATH) and the `hub` and `test` extras. Without them it is skipped,
loudly; with BPE_COURSE_CI=1 (as .ci/run sets) it fails instead.
"""

import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import metadata
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import nbformat
import pytest

from bpe_ref import hub as hub_commands

try:
    import pwd  # system users: Unix only (the test skips elsewhere)
except ImportError:
    pwd = None

ROOT = Path(__file__).resolve().parent.parent
START_LIMIT = 60  # seconds for the hub, or a user's server, to come up
PROXY = "configurable-http-proxy"
COURSE_FILES = ["bpe_ref", "notebooks", "solutions", "docs", "README.md", "pyproject.toml"]


def skip_or_fail(reason):
    if os.environ.get("BPE_COURSE_CI") == "1":
        pytest.fail(f"the hub test must run here, but: {reason}")
    pytest.skip(f"HUB TEST SKIPPED: {reason}")


def readable_by_all(path):
    """Whether any user can reach and read `path` (every folder above it searchable by others)."""
    real = Path(os.path.realpath(path))
    for folder in real.parents:
        if not folder.stat().st_mode & 0o001:
            return False
    return bool(real.stat().st_mode & 0o004)


def shared_python():
    """A Python of this test's version that every user can run, or None. The test's own may be
    installed under /root: each candidate is tried as `nobody`."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (f"/usr/bin/{version}", f"/usr/local/bin/{version}", sys._base_executable):
        if os.path.exists(candidate) and subprocess.run(
                ["runuser", "-u", "nobody", "--", candidate, "-c", "import venv"], cwd="/",
                capture_output=True, timeout=60).returncode == 0:
            return candidate
    return None


def proxy_command():
    """configurable-http-proxy: on PATH, or installed from npm into this environment once."""
    found = shutil.which(PROXY)
    local = Path(sys.prefix) / "node" / "node_modules" / ".bin" / PROXY
    if found or local.exists():
        return found or str(local)
    if not shutil.which("npm"):
        return None
    subprocess.run(["npm", "install", "--prefix", str(local.parents[2]), "--no-audit", "--no-fund",
                    f"{PROXY}@5"], check=True, capture_output=True, timeout=300)
    return str(local)


def hub_or_skip():
    """(shared python, proxy command), or skip (fail under BPE_COURSE_CI=1) saying why."""
    if not sys.platform.startswith("linux"):
        skip_or_fail("it needs Linux (local system users)")
    if os.geteuid() != 0:
        skip_or_fail("it needs root: it creates three system users and the hub runs a server as each")
    if not shutil.which("useradd"):
        skip_or_fail("no useradd here")
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        skip_or_fail("JupyterHub is not installed (pip install -e '.[hub]'; the test extra brings it)")
    python = shared_python()
    if not python:
        skip_or_fail(f"no python{sys.version_info.major}.{sys.version_info.minor} that every user can run: "
                     "this test's own cannot be reached by other users, and the packages it shares "
                     "with theirs are built for this version")
    try:
        proxy = proxy_command()
    except (subprocess.SubprocessError, OSError) as error:
        skip_or_fail(f"npm could not install {PROXY}: {error}")
    if not proxy:
        skip_or_fail(f"no {PROXY} on PATH and no npm to install it")
    return python, proxy


def link_or_copy(source, target):
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def install_for_everyone(root, python):
    """The course installed once, as a hub's administrator does: a copy of the course, and an
    environment of `python` that sees the course (as `pip install -e` would put it) and this
    test environment's packages (where they are, if everyone can read them, else hard links or
    copies), with its commands in bin/ and its JupyterLab settings written. Returns the
    environment's folder."""
    course, env = root / "course", root / "env"
    for name in COURSE_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, course / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, course / name)
    subprocess.run([python, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    ours = Path(sysconfig.get_paths()["purelib"])
    site = Path(subprocess.run([str(env / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True, timeout=60).stdout.strip())
    packages = ours
    if not readable_by_all(ours):  # e.g. a checkout under /root: hard links (or copies) elsewhere
        packages = root / "packages"
        shutil.copytree(ours, packages, copy_function=link_or_copy, ignore=shutil.ignore_patterns("*.pth"))
    (site / "bpe_course_hub_test.pth").write_text(f"{course}\n{packages}\n", encoding="utf-8")
    for folder in ("share/jupyter", "etc/jupyter"):  # copied, not linked: the settings are rewritten
        if (Path(sys.prefix) / folder).is_dir():
            shutil.copytree(Path(sys.prefix) / folder, env / folder, dirs_exist_ok=True)
    for dist in metadata.distributions(path=[str(ours)]):
        for entry in dist.entry_points.select(group="console_scripts"):
            script = env / "bin" / entry.name
            script.write_text(f"#!{env}/bin/python\nimport sys\nfrom importlib.metadata import EntryPoint\n"
                              f"sys.exit(EntryPoint({entry.name!r}, {entry.value!r}, 'console_scripts').load()())\n",
                              encoding="utf-8")
            script.chmod(0o755)
    subprocess.run([str(env / "bin" / "python"), "-m", "bpe_ref.lab", "--configure"], check=True,
                   capture_output=True, timeout=120)
    return env


def free_ports(count):
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


HUB_CONFIG = """\
c = get_config()  # noqa
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.pid_file = {hub_dir!r} + "/proxy.pid"
c.JupyterHub.db_url = "sqlite:///" + {hub_dir!r} + "/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = {hub_dir!r} + "/jupyterhub_cookie_secret"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {password!r}
c.Authenticator.allowed_users = set({users!r})
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [{env!r} + "/bin/bpe-course-hub", "singleuser"]
c.Spawner.env_keep = ["LANG", "LC_ALL"]
c.Spawner.environment = {{"PATH": {env!r} + "/bin:/usr/local/bin:/usr/bin:/bin"}}
c.Spawner.start_timeout = {limit}
c.Spawner.http_timeout = {limit}
c.JupyterHub.tornado_settings = {{"slow_spawn_timeout": 0}}  # POST .../server answers at once
c.JupyterHub.services = [{{"name": "course-test", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{"name": "course-test", "services": ["course-test"], "scopes": [
    "list:users", "read:users", "read:users:activity", "read:servers", "admin:servers", "access:servers"]}}]
"""


class Hub:
    """A running hub: its URL, the service token, the users and where everything lives."""

    def __init__(self, root, env, users, password):
        self.root, self.env, self.users, self.password = root, env, users, password
        self.token = secrets.token_hex(16)
        self.url = self.process = None
        self.log = root / "hub" / "hub.log"

    def call(self, path, method="GET", body=None, expect=(200, 201, 202, 204)):
        """A REST call through the proxy with the service token: (status, decoded reply)."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method,
                                         headers={"Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                status, raw = reply.status, reply.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        assert status in expect, f"{method} {path}: {status} {raw[:500]!r}\n{self.log_tail()}"
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, raw

    def log_tail(self, lines=60):
        try:
            return "hub log:\n" + "\n".join(self.log.read_text(encoding="utf-8").splitlines()[-lines:])
        except OSError:
            return "(no hub log)"

    def home(self, user):
        return Path(pwd.getpwnam(user).pw_dir)

    def workspace(self, user):
        return self.home(user) / "bpe-course"

    def start_servers(self, users):
        for user in users:
            self.call(f"/hub/api/users/{user}/server", method="POST", expect=(201, 202, 400))
        deadline = time.monotonic() + START_LIMIT
        waiting = set(users)
        while waiting and time.monotonic() < deadline:
            for user in sorted(waiting):
                server = self.call(f"/hub/api/users/{user}")[1]["servers"].get("")
                if server and server.get("ready"):
                    waiting.discard(user)
            time.sleep(0.5)
        assert not waiting, f"servers of {sorted(waiting)} did not start in {START_LIMIT} s\n{self.log_tail()}"

    def wait_stopped(self, users):
        deadline = time.monotonic() + START_LIMIT
        while time.monotonic() < deadline:
            if not any(self.call(f"/hub/api/users/{u}")[1]["servers"] for u in users):
                return
            time.sleep(0.5)
        pytest.fail(f"servers did not stop\n{self.log_tail()}")


def wait_for_hub(hub, limit=START_LIMIT):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if hub.process.poll() is not None:
            pytest.fail(f"JupyterHub exited ({hub.process.returncode})\n{hub.log_tail()}")
        try:
            with urllib.request.urlopen(f"{hub.url}/hub/api/", timeout=5) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail(f"JupyterHub did not answer in {limit} s\n{hub.log_tail()}")


def processes_of(uid):
    """Ids of the processes running as `uid` (the servers and kernels the hub started)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def remove_user(user):
    try:
        uid = pwd.getpwnam(user).pw_uid
    except KeyError:
        return
    for pid in processes_of(uid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    subprocess.run(["userdel", "-r", user], capture_output=True, timeout=60)


def stop_group(process, limit=30):
    """End the hub and what it started in its session (the proxy); the hub stops the servers."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(limit)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def stop_proxy(pid_file):
    """The proxy the hub started, if the hub could not stop it (it runs in a session of its own)."""
    try:
        pid = int(pid_file.read_text(encoding="utf-8").strip())
        if PROXY.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():  # still the proxy, not a reused id
            os.kill(pid, signal.SIGTERM)
    except (OSError, ValueError):
        pass


@pytest.fixture(scope="module")
def hub():
    """JupyterHub on loopback with three system users whose servers run; removed afterwards."""
    python, proxy = hub_or_skip()
    root = Path(tempfile.mkdtemp(prefix="bpe-hub-"))  # not tmp_path: pytest's folders are root's alone
    root.chmod(0o755)
    tag = uuid.uuid4().hex[:6]
    users = [f"bh{tag}{name}" for name in ("ann", "bob", "cat")]
    hub = None
    try:
        if not readable_by_all(root):
            skip_or_fail(f"{root} is not readable by other users: set TMPDIR to a folder that is")
        env = install_for_everyone(root, python)
        for user in users:
            subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", user], check=True,
                           capture_output=True, timeout=60)
        hub = Hub(root, env, users, secrets.token_hex(8))
        hub_dir = root / "hub"
        hub_dir.mkdir(mode=0o700)
        port, hub_port, proxy_port = free_ports(3)
        config = hub_dir / "jupyterhub_config.py"
        config.write_text(HUB_CONFIG.format(port=port, hub_port=hub_port, proxy_port=proxy_port, proxy=proxy,
                                            hub_dir=str(hub_dir), password=hub.password, users=users,
                                            env=str(env), limit=START_LIMIT, token=hub.token), encoding="utf-8")
        hub.url = f"http://127.0.0.1:{port}"
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "VIRTUAL_ENV"))}
        with open(hub.log, "w", encoding="utf-8") as log:
            hub.process = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=hub_dir,
                                           env=environ, stdin=subprocess.DEVNULL, stdout=log,
                                           stderr=subprocess.STDOUT, start_new_session=True)
        wait_for_hub(hub)
        hub.start_servers(users)
        yield hub
    finally:
        if hub and hub.process:
            stop_group(hub.process)
            stop_proxy(root / "hub" / "proxy.pid")
        for user in users:
            remove_user(user)
        shutil.rmtree(root, ignore_errors=True)


async def run_in_kernel(hub, user, code, limit=60):
    """Run `code` in a new kernel of `user`'s server (through the hub's proxy, as JupyterLab does);
    returns what it printed or displayed, and any error, as text."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    kernel = hub.call(f"/user/{user}/api/kernels", method="POST", body={"name": "python3"})[1]
    url = hub.url.replace("http", "ws", 1) + f"/user/{user}/api/kernels/{kernel['id']}/channels"
    # a kernel that lost a port race is restarted on new ports: the connection waits for it
    socket_ = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {hub.token}"},
                                                  connect_timeout=limit, request_timeout=limit))
    msg_id, pieces = uuid.uuid4().hex, []
    socket_.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": user, "session": uuid.uuid4().hex,
                   "date": "", "version": "5.3"},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True}}))
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            raw = await asyncio.wait_for(socket_.read_message(), deadline - time.monotonic())
            message = json.loads(raw)
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = message["msg_type"], message["content"]
            if kind == "stream":
                pieces.append(content["text"])
            elif kind in ("execute_result", "display_data"):
                pieces.append(content["data"].get("text/plain", ""))
            elif kind == "error":
                pieces.append(f"{content['ename']}: {content['evalue']}")
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(pieces)
        pytest.fail(f"{user}'s kernel did not finish in {limit} s: {''.join(pieces)}")
    finally:
        socket_.close()
        hub.call(f"/user/{user}/api/kernels/{kernel['id']}", method="DELETE")


def kernel_says(hub, user, code):
    return asyncio.run(run_in_kernel(hub, user, code))


def test_every_user_gets_a_private_workspace_with_00_first_and_read_only_solutions(hub):
    for user in hub.users:
        workspace = hub.workspace(user)
        account = pwd.getpwnam(user)
        assert workspace.is_dir(), hub.log_tail()
        assert workspace.stat().st_uid == account.pw_uid
        assert workspace.stat().st_mode & 0o077 == 0, f"{workspace} is open to others: {oct(workspace.stat().st_mode)}"
        assert sorted(p.name for p in workspace.glob("*.ipynb")) == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
        model = hub.call(f"/hub/api/users/{user}")[1]
        assert model["servers"][""]["url"] == f"/user/{user}/"
        listing = hub.call(f"/user/{user}/api/contents/")[1]  # the server's root is the workspace
        assert "00_start_here.ipynb" in {item["name"] for item in listing["content"]}
        solution = hub.call(f"/user/{user}/api/contents/solutions/04_naive_bpe.ipynb?content=0")[1]
        assert solution["writable"] is False
    # the hub's first page for a learner is 00 (what a browser that logs in is sent to)
    user = hub.users[0]
    hub.call(f"/user/{user}/lab/tree/00_start_here.ipynb", expect=(200,))
    before = (hub.workspace(user) / "solutions" / "04_naive_bpe.ipynb").read_bytes()
    hub.call(f"/user/{user}/api/contents/solutions/04_naive_bpe.ipynb", method="PUT", expect=(403,),
             body={"type": "notebook", "format": "json", "content": nbformat.v4.new_notebook()})
    assert (hub.workspace(user) / "solutions" / "04_naive_bpe.ipynb").read_bytes() == before


def test_each_user_runs_a_cell_in_their_own_kernel_and_saves(hub):
    for user in hub.users:
        said = kernel_says(hub, user, "%load_ext bpe_ref.workbook\nimport getpass, os, bpe_ref\n"
                                      "print(getpass.getuser(), os.getcwd(), bpe_ref.encode('aaab', {(97, 97): 256}))")
        assert said.split() == [user, str(hub.workspace(user)), "[256,", "97,", "98]"], said
        path = f"/user/{user}/api/contents/00_start_here.ipynb"
        notebook = hub.call(path)[1]["content"]
        notebook["cells"].append(nbformat.v4.new_code_cell(f"my_work = '{user} was here'"))
        notebook["cells"][-1]["outputs"] = [nbformat.v4.new_output("stream", text=said)]
        hub.call(path, method="PUT", body={"type": "notebook", "format": "json", "content": notebook})
        saved = hub.workspace(user) / "00_start_here.ipynb"
        assert f"{user} was here" in saved.read_text(encoding="utf-8")
        assert saved.stat().st_uid == pwd.getpwnam(user).pw_uid


def test_a_user_grades_their_workbook_in_the_graders_sandbox(hub):
    """bpe-grade from a learner's kernel, as the learner: the sandbox works for them too."""
    said = kernel_says(hub, hub.users[1], "import subprocess\nfrom bpe_ref.grade.walls import isolation\n"
                       "print('isolated:', isolation.status()[0])\n"
                       "run = subprocess.run(['bpe-grade', '01_hex.ipynb'], capture_output=True, text=True, timeout=120)\n"
                       "print(run.stdout, run.stderr)")
    assert "to_hex" in said and "from_hex" in said, said
    if shutil.which("bwrap"):
        assert "isolated: True" in said and "not isolated" not in said, said


def test_no_user_can_read_another_users_workspace(hub):
    ann, bob, cat = hub.users
    for reader, owner in ((ann, bob), (bob, cat), (cat, ann)):
        target = hub.workspace(owner)
        said = kernel_says(hub, reader, f"import os\np = {str(target)!r}\n"
                           "for attempt in (lambda: os.listdir(p), lambda: open(p + '/00_start_here.ipynb').read()):\n"
                           "    try:\n        attempt(); print('READ')\n"
                           "    except PermissionError:\n        print('denied')\n")
        assert said.split() == ["denied", "denied"], f"{reader} reading {owner}'s workspace: {said}"
        run = subprocess.run(["runuser", "-u", reader, "--", "cat", str(target / "00_start_here.ipynb")],
                             capture_output=True, text=True, timeout=30)
        assert run.returncode != 0 and "Permission denied" in run.stderr


def test_a_user_logs_in_through_the_browser_and_00_opens_first(hub):
    from test_browser import browser_or_skip, read_saved

    sync_playwright, chromium = browser_or_skip()
    user = hub.users[2]
    workspace = hub.workspace(user)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        problems = []
        page.on("pageerror", lambda error: problems.append(str(error)))
        try:
            page.goto(f"{hub.url}/hub/login")
            page.fill("input[name=username]", user)
            page.fill("input[name=password]", hub.password)
            page.click("input[type=submit], button[type=submit]")
            notebook = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"
            page.wait_for_selector(f"{notebook} .jp-Cell", timeout=120_000)
            assert page.url.endswith(f"/user/{user}/lab/tree/00_start_here.ipynb"), page.url
            tab = page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel").first.text_content()
            assert tab == "00_start_here.ipynb"
            page.wait_for_function("document.body.innerText.includes('Idle')", timeout=120_000)
            first = page.locator(f"{notebook} .jp-CodeCell").first
            first.click()
            page.keyboard.press("Shift+Enter")
            page.wait_for_function(
                f"document.querySelector('{notebook} .jp-CodeCell .jp-InputPrompt').innerText.includes('[1]')",
                timeout=120_000)
            before = (workspace / "00_start_here.ipynb").stat().st_mtime_ns
            page.keyboard.press("Control+s")
            saved = read_saved(workspace / "00_start_here.ipynb", before)
            assert saved.cells[1].execution_count == 1, "the browser's run was not saved"
            # a terminal: starts in the workspace, with the course's commands on PATH
            page.locator("#jp-MainMenu .lm-MenuBar-item", has_text="File").first.click()
            page.locator(".lm-Menu-item:visible", has_text="New").first.click()
            page.locator(".lm-Menu-item:visible", has_text="Terminal").first.click()
            page.locator(".jp-Terminal").first.wait_for(timeout=60_000)
            time.sleep(2)
            page.locator(".jp-Terminal").first.click()
            page.keyboard.type("(pwd; id -un; bpe-grade --help | head -1; bpe-practice new --level naive) "
                               "> terminal.txt 2>&1; echo done >> terminal.txt\n")
            result = workspace / "terminal.txt"
            deadline = time.monotonic() + 60
            while not (result.exists() and "done" in result.read_text(encoding="utf-8").split()) \
                    and time.monotonic() < deadline:
                time.sleep(0.3)
            lines = result.read_text(encoding="utf-8").splitlines()
            assert lines[:2] == [str(workspace), user] and lines[2].startswith("usage: bpe-grade"), lines
            assert list((workspace / "practice").glob("*-naive.ipynb")), lines
            # another learner's server is not this learner's to open
            other = page.request.get(f"{hub.url}/user/{hub.users[0]}/api/contents/00_start_here.ipynb",
                                     max_redirects=5)
            assert other.status == 403, other.status
            assert not problems, problems
        except Exception:
            page.screenshot(path=str(Path(tempfile.gettempdir()) / "bpe-course-hub-failure.png"), full_page=True)
            raise
        finally:
            browser.close()


def recovered_port_races(lines):
    """Indexes of the tracebacks of a kernel that lost a race for a TCP port to another process
    (zmq: Address already in use) and that Jupyter's restarter then started on new ports: an
    upstream race a busy machine can lose, recovered from, not the course's error."""
    races = set()
    for i, line in enumerate(lines):
        if "Traceback" not in line:
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("[")), len(lines))
        if "Address already in use" in lines[end - 1] and end < len(lines) \
                and "restarting kernel" in lines[end] and "new random ports" in lines[end]:
            races.add(i)
    return races


def test_the_hub_log_has_no_errors(hub):
    """The hub's log holds the learners' servers' too: a workspace that failed, a traceback."""
    log = hub.log.read_text(encoding="utf-8")
    lines = log.splitlines()
    races = recovered_port_races(lines)
    problems = [line for i, line in enumerate(lines)
                if (line.startswith("[E ") or "Traceback" in line) and i not in races]
    assert not problems, hub.log_tail(200)
    assert log.count("bpe-course: the learner's work is saved in") >= len(hub.users)


def test_an_instructors_update_reaches_every_user_and_keeps_their_work(hub):
    course = hub.root / "course" / "notebooks"
    ann = hub.users[0]
    mine = (hub.workspace(ann) / "00_start_here.ipynb").read_bytes()
    assert b"was here" in mine  # saved by test_each_user_runs_a_cell_in_their_own_kernel_and_saves
    first = nbformat.read(course / "00_start_here.ipynb", as_version=4)
    first.cells.append(nbformat.v4.new_markdown_cell("A paragraph the instructor added."))
    nbformat.write(first, course / "00_start_here.ipynb")
    shutil.copy2(course / "01_hex.ipynb", course / "11_new_workbook.ipynb")
    untouched = nbformat.read(course / "02_unicode.ipynb", as_version=4)  # no one has opened it
    untouched.cells.append(nbformat.v4.new_markdown_cell("Another paragraph."))
    nbformat.write(untouched, course / "02_unicode.ipynb")
    push = subprocess.run([str(hub.env / "bin" / "bpe-course-hub"), "restart", "--idle", "0",
                           "--hub-api", f"{hub.url}/hub/api"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "JUPYTERHUB_API_TOKEN": hub.token})
    assert push.returncode == 0, push.stderr
    assert f"{len(hub.users)} server(s) stopped" in push.stdout, push.stdout
    hub.wait_stopped(hub.users)
    hub.start_servers([ann])
    workspace = hub.workspace(ann)
    assert (workspace / "00_start_here.ipynb").read_bytes() == mine
    assert "A paragraph the instructor added." in (workspace / "updates" / "00_start_here.ipynb").read_text(encoding="utf-8")
    assert (workspace / "11_new_workbook.ipynb").exists()
    assert (workspace / "02_unicode.ipynb").read_bytes() == (course / "02_unicode.ipynb").read_bytes()


# The commands alone, without a hub: what `restart` chooses, and `singleuser`'s own failures.

class FakeHub(BaseHTTPRequestHandler):
    """The two calls `bpe-course-hub restart` makes, over two pages of users."""

    stopped = []

    @staticmethod
    def page(offset):
        now = datetime.now(timezone.utc)
        if offset == "0":
            return {"items": [{"name": "ann", "servers": {"": {"last_activity": (now - timedelta(minutes=30)).isoformat()}}}],
                    "_pagination": {"next": {"offset": 1}}}
        return {"items": [{"name": "bob", "servers": {"": {"last_activity": now.isoformat()},
                                                      "extra": {"last_activity": None}}},
                          {"name": "gone", "servers": {"": {"last_activity": None}}}],
                "_pagination": {"next": None}}

    def do_GET(self):
        if self.headers["Authorization"] != "token secret":
            self.send_error(403)
            return
        offset = parse_qs(urlparse(self.path).query)["offset"][0]
        body = json.dumps(self.page(offset)).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_DELETE(self):
        if "gone" in self.path:  # a user removed while the command ran
            self.send_error(404)
            return
        self.stopped.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def fake_hub(monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeHub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    FakeHub.stopped.clear()
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "secret")
    yield f"http://127.0.0.1:{server.server_address[1]}/hub/api"
    server.shutdown()


def test_restart_stops_only_the_idle_servers_unless_told_otherwise(fake_hub, capsys):
    assert hub_commands.main(["restart", "--hub-api", fake_hub, "--dry-run"]) == 0
    assert FakeHub.stopped == [] and "would stop ann's server" in capsys.readouterr().out
    assert hub_commands.main(["restart", "--hub-api", fake_hub]) == 0
    said = capsys.readouterr().out
    assert FakeHub.stopped == ["/hub/api/users/ann/server"]
    assert "left bob's server running: active 0 min ago" in said and "no activity known" in said
    assert "1 server(s) stopped, 3 left running" in said
    FakeHub.stopped.clear()
    assert hub_commands.main(["restart", "--hub-api", fake_hub, "--idle", "0"]) == 1  # one could not be stopped
    assert sorted(FakeHub.stopped) == ["/hub/api/users/ann/server", "/hub/api/users/bob/server",
                                       "/hub/api/users/bob/servers/extra"]
    said = capsys.readouterr().out
    assert "could not stop gone's server: the hub answered 404" in said and "3 server(s) stopped" in said


def test_restart_says_what_is_wrong_in_one_line(fake_hub, monkeypatch, capsys):
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "wrong")
    assert hub_commands.main(["restart", "--hub-api", fake_hub]) == 1
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "403" in error and "admin:servers" in error
    assert hub_commands.main(["restart", "--hub-api", "http://127.0.0.1:9/hub/api"]) == 1
    assert "could not reach the hub" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        hub_commands.main(["restart", "--hub-api", fake_hub, "--idle", "-5"])
    assert "0 or more" in capsys.readouterr().err
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN")
    with pytest.raises(SystemExit):
        hub_commands.main(["restart", "--hub-api", fake_hub])
    assert "JUPYTERHUB_API_TOKEN" in capsys.readouterr().err


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX's")
def test_singleuser_closes_an_open_workspace_and_says_why_it_cannot_make_one(tmp_path, monkeypatch, capsys):
    shared = tmp_path / "ws"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    hub_commands.make_private(shared)
    assert shared.stat().st_mode & 0o777 == 0o700
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    monkeypatch.setenv("BPE_COURSE_WORKSPACE", str(tmp_path / "a-file" / "ws"))
    assert hub_commands.main(["singleuser"]) == 1
    error = capsys.readouterr().err.strip()
    assert error.startswith("bpe-course: could not make the workspace") and error.count("\n") == 0

"""What the page's tests and its benchmark share: a daemon replaying what it
is given (`gestures run --replay -`), `gestures ui` watching it, and headless
Chromium set up as Tests/Page needs it (Debian's chromium and chromedriver)."""
import os
import shutil
import subprocess
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.abspath(os.environ.get("GESTURES_BINARY", os.path.join(ROOT, ".build/debug/gestures")))
WAIT = 30  # seconds any one thing may take on a loaded 2-core machine


class Session:
    """A daemon replaying what it is given, and `gestures ui` watching it."""

    def __init__(self, configuration, daemon_arguments=(), ui_environment=None):
        self.folder = tempfile.mkdtemp(prefix="gestures-page-")
        runtime = os.path.join(self.folder, "runtime")
        os.mkdir(runtime, 0o700)
        self.socket = os.path.join(runtime, "gestures", "daemon.socket")
        self.configuration = os.path.join(self.folder, "config.yaml")
        with open(self.configuration, "w") as file:
            file.write(configuration)
        self.daemon_log = open(os.path.join(self.folder, "daemon.log"), "w+")
        self.data = os.path.join(self.folder, "data")
        environment = dict(os.environ, XDG_RUNTIME_DIR=runtime, XDG_DATA_HOME=self.data)
        self.daemon = subprocess.Popen(
            [BINARY, "run", "--config", self.configuration, "--socket", self.socket, *daemon_arguments, "--replay", "-"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=self.daemon_log, env=environment, cwd=self.folder)
        wait_for(lambda: os.path.exists(self.socket), "the daemon's socket")
        self.ui = subprocess.Popen(
            [BINARY, "ui", "--no-browser", "--socket", self.socket, "--config", self.configuration], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(environment, **(ui_environment or {})), cwd=self.folder, text=True)
        self.address = self.ui.stdout.readline().strip()
        if not self.address.startswith("http://127.0.0.1:"):
            raise RuntimeError(f"gestures ui printed {self.address!r}; its errors: {self.ui.stderr.read()}")
        self.origin = self.address.split("/?")[0]
        self.port = int(self.origin.rsplit(":", 1)[1])
        self.token = self.address.split("token=")[1]

    def replay(self, path):
        self.daemon.stdin.write((path + "\n").encode())
        self.daemon.stdin.flush()

    def log(self):
        self.daemon_log.flush()
        with open(self.daemon_log.name) as file:
            return file.read()

    def close(self):
        self.ui.terminate()
        self.daemon.stdin.close()
        for process in (self.ui, self.daemon):
            try:
                process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def wait_for(condition, what, timeout=WAIT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"waited {timeout} s for {what}")


def browser(extra_arguments=()):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                     "--disable-dev-shm-usage", "--no-first-run", *extra_arguments]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Desktop:
    """An X server (Xvfb) with a window manager (openbox) and one xterm, whose
    focus `gestures ui` follows: what a person's session would report."""

    def __init__(self):
        # A display no other X server holds.
        number = 73
        while os.path.exists(f"/tmp/.X11-unix/X{number}") or os.path.exists(f"/tmp/.X{number}-lock"):
            number += 1
        display = self.display = f":{number}"
        self.processes = []
        for command in (["Xvfb", display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"],):
            self.processes.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        socket = "/tmp/.X11-unix/X" + display.lstrip(":")
        wait_for(lambda: os.path.exists(socket), "the X server")
        environment = dict(os.environ, DISPLAY=display)
        environment.pop("WAYLAND_DISPLAY", None)
        self.processes.append(subprocess.Popen(["openbox"], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(0.5)  # openbox takes the screen before the window maps (it sets the focus of new windows)
        self.processes.append(subprocess.Popen(["xterm", "-class", "GesturesPageTerm"], env=environment,
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def close(self):
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                process.kill()

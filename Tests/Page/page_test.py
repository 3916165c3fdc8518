#!/usr/bin/python3
"""The page of `gestures ui`, driven in headless Chromium as a person uses it,
against a real `gestures ui` and a real daemon (`gestures run --replay -`) fed
recordings one at a time. Run by Tools/test-page (Tools/test-all runs it).

Each check prints `PAGE PASS name` or `PAGE FAIL name: why`; the exit status is
the number of failures. Screenshots go to $GESTURES_PAGE_SCREENSHOTS.
"""
import http.client
import http.server
import json
import os
import subprocess
import sys
import threading
import traceback

from pagekit import BINARY, ROOT, WAIT, Desktop, Session, browser, wait_for
import math

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

SHOTS = os.environ.get("GESTURES_PAGE_SCREENSHOTS", os.path.join(ROOT, ".build/page-screenshots"))
SWIPE = os.path.join(ROOT, "Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl")
SWIPE_UP = os.path.join(ROOT, "Recordings/synthetic/x1carbon.4-finger-swipe-up.jsonl")
PINCH = os.path.join(ROOT, "Recordings/synthetic/rmi4.2-finger-pinch-out.jsonl")
CIRCLE = os.path.join(ROOT, "Recordings/synthetic/atmel.1-finger-stroke-circle.jsonl")

CONFIGURATION = """# The page's tests: a comment the page keeps.
version: 1
bindings:
  - name: next workspace
    gesture: swipe
    fingers: 3
    direction: left
    action: {command: [sh, -c, 'echo "3-finger swipe $GESTURE_DIRECTION"']}
  - name: previous workspace
    gesture: swipe
    fingers: 3
    direction: right
    action: {command: [sh, -c, 'echo "3-finger swipe $GESTURE_DIRECTION"']}
  - name: zoom
    gesture: pinch
    action: {command: [sh, -c, 'echo "pinch $GESTURE_DIRECTION"']}
"""

failures = []


def check(name):
    def run(function):
        try:
            function()
            print(f"PAGE PASS {name}", flush=True)
        except Exception as error:  # a failed check is reported and the others still run
            failures.append(name)
            detail = "".join(traceback.format_exception_only(type(error), error)).strip()
            print(f"PAGE FAIL {name}: {detail}", flush=True)
            traceback.print_exc()
        return function
    return run


def raw_request(port, method, path, headers, body=b""):
    """A request with exactly these headers (a browser cannot send another Host)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    if body:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    return response.status, dict((k.lower(), v) for k, v in response.getheaders()), response.read().decode()


def main():
    os.makedirs(SHOTS, exist_ok=True)
    desktop = Desktop()
    session = Session(CONFIGURATION, ui_environment={"DISPLAY": desktop.display, "XDG_SESSION_TYPE": "x11"})
    driver = browser()
    try:
        run_checks(session, driver)
    finally:
        driver.quit()
        session.close()
        desktop.close()
    print(f"PAGE {'FAILED' if failures else 'PASSED'}: {len(failures)} failed" + (f" ({', '.join(failures)})" if failures else ""))
    return len(failures)


def run_checks(session, driver):
    wait = WebDriverWait(driver, WAIT)

    @check("the printed address opens the page and its token leaves the address bar")
    def _():
        driver.get(session.address)
        wait.until(lambda d: d.current_url.rstrip("/") == session.origin)
        assert "token" not in driver.current_url
        wait.until(lambda d: "watching the daemon" in d.find_element(By.ID, "daemon-status").text)

    @check("the live view draws a replayed swipe's touches, the gesture and each binding's verdict")
    def _():
        session.replay(SWIPE)
        wait.until(lambda d: "SynPS/2 Synaptics TouchPad" in d.find_element(By.ID, "device-picker").text)
        wait.until(lambda d: "swipe end" in d.find_element(By.ID, "gesture-kind").text)
        verdicts = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#verdicts li"))
        texts = [item.text for item in verdicts]
        assert any(text.startswith("next workspace") and "\nfired" in text for text in texts), texts
        assert any(text.startswith("previous workspace") and "did not fire" in text for text in texts), texts
        gesture = driver.find_element(By.ID, "gesture").text
        assert "Fingers\n3" in gesture and "Direction\nleft" in gesture, gesture
        # The pad has two slots: it reports the places of two of the three fingers, and the third in its count.
        trails = driver.execute_script("return window.gesturesPage.view.trails.size")
        assert trails == 2, f"{trails} trails drawn for a 3-finger swipe on a 2-slot pad"
        drawn = driver.execute_script("return window.gesturesPage.view.framesDrawn")
        assert drawn == 52, f"{drawn} of the recording's 52 frames reached the drawing"
        driver.save_screenshot(os.path.join(SHOTS, "page-live.png"))

    def field(key):
        return driver.find_element(By.ID, "field-" + key.replace(".", "-"))

    def set_text(key, text):
        element = field(key)
        element.clear()
        element.send_keys(text)
        element.send_keys(Keys.TAB)  # a change event, as a person leaving the field

    @check("an invalid edit shows the reader's message at its field and saves nothing")
    def _():
        driver.find_element(By.ID, "tab-bindings").click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#binding-list li")) == 3)
        before = open(session.configuration).read()
        set_text("fingers", "99")
        problem = wait.until(lambda d: d.find_element(By.ID, "field-fingers-problem").text or None)
        assert problem.startswith("bindings[0].fingers: "), problem
        assert field("fingers").get_attribute("aria-invalid") == "true"
        driver.find_element(By.ID, "save-bindings").click()
        wait.until(lambda d: "nothing was saved" in d.find_element(By.ID, "save-status").text)
        assert open(session.configuration).read() == before
        driver.save_screenshot(os.path.join(SHOTS, "page-bindings-error.png"))
        set_text("fingers", "3")
        wait.until(lambda d: d.find_element(By.ID, "field-fingers-problem").text == "")

    @check("a binding added in the form is saved, keeps the file's comment, and fires when the trace is replayed")
    def _():
        driver.find_element(By.ID, "add-binding").click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#binding-list li")) == 4)
        set_text("name", "show desktop")
        Select(field("gesture")).select_by_visible_text("swipe")
        set_text("fingers", "4")
        Select(field("direction")).select_by_visible_text("up")
        set_text("action.command", "echo desktop")
        # Read in one step: the list is redrawn when the reader's verdict comes.
        wait.until(lambda d: "show desktop: swipe 4 fingers up → echo desktop" in d.execute_script(
            "return document.getElementById('binding-list').textContent"))
        driver.find_element(By.ID, "save-bindings").click()
        wait.until(lambda d: d.find_element(By.ID, "save-status").text.startswith("Saved "))
        text = open(session.configuration).read()
        assert text.startswith("# The page's tests: a comment the page keeps.\n"), text
        assert "  - name: show desktop\n    gesture: swipe\n    fingers: 4\n    direction: up\n" in text, text
        assert os.path.exists(session.configuration + ".bak")
        driver.save_screenshot(os.path.join(SHOTS, "page-bindings.png"))
        wait_for(lambda: "reloaded " + session.configuration in session.log(), "the daemon's reload")
        driver.find_element(By.ID, "tab-live").click()
        session.replay(SWIPE_UP)
        wait.until(lambda d: "show desktop bindings[3]fired" in d.execute_script(
            "return [...document.querySelectorAll('#verdicts li')].map(e => e.textContent).join('|')"))
        wait_for(lambda: "fired show desktop" in session.log(), "the daemon firing the new binding")

    @check("the application for apps: is picked from the windows the focus source saw, the device from the devices seen")
    def _():
        driver.find_element(By.ID, "tab-bindings").click()
        driver.find_element(By.CSS_SELECTOR, "#binding-list li button[aria-label='Edit next workspace']").click()
        wait.until(lambda d: "GesturesPageTerm" in d.find_element(By.ID, "field-apps-pick").text)
        Select(driver.find_element(By.ID, "field-apps-pick")).select_by_visible_text("GesturesPageTerm")
        driver.find_element(By.ID, "field-apps-add").click()
        assert field("apps").get_attribute("value") == "^GesturesPageTerm$", field("apps").get_attribute("value")
        Select(driver.find_element(By.ID, "field-device-name-pick")).select_by_visible_text("SynPS/2 Synaptics TouchPad")
        driver.find_element(By.ID, "field-device-name-add").click()
        assert field("device.name").get_attribute("value") == "^SynPS/2 Synaptics TouchPad$"
        binding = json.loads(driver.execute_script("return JSON.stringify(window.gesturesPage.bindings.bindings[0].binding)"))
        assert binding["apps"] == ["^GesturesPageTerm$"] and binding["device"] == {"name": "^SynPS/2 Synaptics TouchPad$"}, binding
        # The reader's verdict: neither pattern is an error.
        wait.until(lambda d: d.find_element(By.ID, "field-apps-problem").text == "" and d.find_element(By.ID, "field-device-name-problem").text == "")
        driver.save_screenshot(os.path.join(SHOTS, "page-bindings-apps.png"))
        # Left unsaved: the page reads the file again.
        driver.refresh()
        wait.until(lambda d: "watching the daemon" in d.find_element(By.ID, "daemon-status").text)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#binding-list li")) == 4)
        driver.find_element(By.ID, "tab-live").click()

    @check("trying a gesture shows what would fire and runs nothing, and a page that goes stops trying")
    def _():
        fired = session.log().count("fired next workspace")
        driver.find_element(By.ID, "try-it").click()
        wait_for(lambda: "trying: a page tries gestures" in session.log(), "the daemon trying")
        session.replay(SWIPE)
        wait.until(lambda d: "next workspace bindings[0]would fire (trying: not run)" in d.execute_script(
            "return [...document.querySelectorAll('#verdicts li')].map(e => e.textContent).join('|')"))
        wait_for(lambda: "trying: 1 action not run" in session.log(), "the action not run")
        assert session.log().count("fired next workspace") == fired, "an action ran while trying"
        driver.find_element(By.ID, "try-it").click()
        wait_for(lambda: "trying: stopped" in session.log(), "the daemon to stop trying")
        # A second page tries, then goes: the daemon stops trying though the first page stays.
        other = browser()
        try:
            other.get(session.address)
            WebDriverWait(other, WAIT).until(lambda d: "watching the daemon" in d.find_element(By.ID, "daemon-status").text)
            WebDriverWait(other, WAIT).until(lambda d: d.execute_script("return window.gesturesPage.view.stream !== undefined"))
            other.find_element(By.ID, "try-it").click()
            wait_for(lambda: session.log().count("trying: a page tries gestures") == 2, "the second page trying")
        finally:
            other.quit()
        wait_for(lambda: session.log().count("trying: stopped") == 2, "trying to end with the page that asked", timeout=WAIT * 2)

    def draw(points):
        """Draws through the canvas with the pointer as a person would: press, move, release."""
        canvas = driver.find_element(By.ID, "shape-canvas")
        actions = ActionChains(driver, duration=5)
        actions.move_to_element_with_offset(canvas, int(points[0][0]), int(points[0][1])).click_and_hold()
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            actions.move_by_offset(int(x1) - int(x0), int(y1) - int(y0))
        actions.release().perform()

    def circle(radius=80, steps=48):
        return [(radius * math.cos(2 * math.pi * i / steps - math.pi / 2), radius * math.sin(2 * math.pi * i / steps - math.pi / 2))
                for i in range(steps + 1)]

    def snake(wobble=0):
        """An S from its top: the upper half-circle bulging left, then the lower one bulging right."""
        upper = [(-60 * math.sin(math.pi * i / 24), -60 + 60 * math.cos(math.pi * i / 24) * -1) for i in range(25)]
        lower = [(60 * math.sin(math.pi * i / 24), 60 - 60 * math.cos(math.pi * i / 24)) for i in range(1, 25)]
        return [(x + wobble * math.sin(i), y) for i, (x, y) in enumerate(upper + lower)]

    @check("a circle drawn with the pointer is judged by the daemon's stroke rule; a shape trained in the page is then recognised")
    def _():
        driver.find_element(By.ID, "tab-shapes").click()
        wait.until(lambda d: "circle" in d.find_element(By.ID, "shape-names").text)
        draw(circle())
        wait.until(lambda d: d.find_element(By.ID, "shape-verdict").get_attribute("data-match") is not None
                   and "would fire" in d.find_element(By.ID, "shape-verdict").text)
        verdict = driver.find_element(By.ID, "shape-verdict").text
        assert "would fire circle" in verdict, verdict
        driver.save_screenshot(os.path.join(SHOTS, "page-shapes.png"))
        name = driver.find_element(By.ID, "shape-name")
        name.send_keys("snake")
        for wobble in (0, 3, 6):
            draw(snake(wobble))
            wait.until(lambda d: "would fire" in d.find_element(By.ID, "shape-verdict").text)
            driver.find_element(By.ID, "shape-add-sample").click()
        driver.find_element(By.ID, "shape-save").click()
        wait.until(lambda d: "Added 3 samples of snake" in d.find_element(By.ID, "shape-train-status").text)
        library = os.path.join(os.path.dirname(session.configuration), "templates.json")
        assert os.path.exists(library), "no library written"
        wait.until(lambda d: "snake (3 samples)" in d.find_element(By.ID, "shape-names").text)
        draw(snake(2))
        wait.until(lambda d: "would fire snake" in d.find_element(By.ID, "shape-verdict").text)
        # The library shows each shape's samples and what it could be confused with.
        thumbnails = driver.find_elements(By.CSS_SELECTOR, "#shape-names li[data-name='snake'] svg.thumbnail")
        assert len(thumbnails) == 3, f"{len(thumbnails)} drawings of snake's 3 samples"
        notes = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#shape-names li .confusion")]
        assert notes and all(n.startswith("Could be confused with ") or n == "Not within the margin of any other shape." for n in notes), notes

    @check("a shape drawn on the touchpad live is judged by the daemon's stroke rule")
    def _():
        driver.find_element(By.ID, "shape-on-pad").click()
        assert driver.find_element(By.ID, "shape-on-pad").get_attribute("aria-pressed") == "true"
        session.replay(CIRCLE)
        wait.until(lambda d: "would fire circle" in d.find_element(By.ID, "shape-verdict").text)
        assert driver.find_element(By.ID, "shape-on-pad").get_attribute("aria-pressed") == "false"
        drawn = driver.execute_script("return window.gesturesPage.shapes.last.length")
        assert drawn > 20, f"{drawn} points taken from the touchpad"
        driver.save_screenshot(os.path.join(SHOTS, "page-shapes-pad.png"))

    @check("a recording made in the page holds every event the device sent, replays on a timeline to its verdicts, and an evemu file imports")
    def _():
        driver.find_element(By.ID, "tab-recordings").click()
        wait.until(lambda d: "None yet in" in d.find_element(By.ID, "recordings-folder").text)
        driver.find_element(By.ID, "recording-name").send_keys("swipe-left")
        driver.find_element(By.ID, "record-start").click()
        wait_for(lambda: "recording: a page records" in session.log(), "the daemon recording")
        replays = session.log().count("replayed " + SWIPE)
        session.replay(SWIPE)
        wait_for(lambda: session.log().count("replayed " + SWIPE) == replays + 1, "the replay")
        # The frame lines come after the events of the same frames, on the same connection.
        wait.until(lambda d: d.execute_script("return window.gesturesPage.recordings.recording?.frames") == 52)
        driver.find_element(By.ID, "record-stop").click()
        status = wait.until(lambda d: d.find_element(By.ID, "record-status").text if "Saved" in d.find_element(By.ID, "record-status").text else None)
        saved = os.path.join(session.data, "gestures", "recordings", "swipe-left.jsonl")
        assert status.startswith(f"Saved {saved}: "), status
        wait_for(lambda: "recording: stopped" in session.log(), "the daemon to stop recording")

        def frames(path):
            lines = [json.loads(line) for line in open(path) if line.strip()]
            return [(line["t"], line["e"]) for line in lines[1:] if "e" in line and line["e"]]
        original = frames(SWIPE)
        assert frames(saved) == original, f"{len(frames(saved))} frames recorded of {len(original)}"
        assert f"{len(original)} frames" in status and "missing" not in status, status
        # Replayed through the daemon's engine, with nothing run: the timeline ends at the verdicts.
        button = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#recording-list li[data-name='swipe-left'] button"))
        button.click()
        def text(element):  # read in one step: the view redraws its parts as lines come
            return driver.execute_script("return document.getElementById(arguments[0])?.textContent ?? ''", element)
        wait.until(lambda d: "swipe end" in text("replay-gesture-kind"))
        verdicts = driver.execute_script("return [...document.querySelectorAll('#replay-verdicts li')].map(e => e.textContent).join('|')")
        assert "next workspace bindings[0]would fire (a replay runs nothing)" in verdicts, verdicts
        end = int(driver.find_element(By.ID, "replay-timeline").get_attribute("max"))
        assert end > 100, end
        driver.execute_script("const t = document.getElementById('replay-timeline'); t.value = arguments[0]; t.dispatchEvent(new Event('input'))", end // 2)
        wait.until(lambda d: "fingers down" in text("replay-surface-caption"))
        kind = text("replay-gesture-kind")
        assert kind in ("swipe begin", "swipe update"), kind
        assert driver.execute_script("return document.querySelectorAll('#replay-verdicts li').length") == 0
        driver.save_screenshot(os.path.join(SHOTS, "page-recordings.png"))
        driver.find_element(By.ID, "replay-play").click()
        wait.until(lambda d: "swipe end" in text("replay-gesture-kind"))
        # An evemu file, as `evemu-record` writes one, becomes a recording of the folder.
        evemu = os.path.join(session.folder, "pinch-out.evemu")
        subprocess.run([BINARY, "convert", PINCH, "-o", evemu, "--to", "evemu"], check=True, capture_output=True)
        driver.find_element(By.ID, "import-file").send_keys(evemu)
        wait.until(lambda d: "Imported pinch-out.evemu as pinch-out" in d.find_element(By.ID, "import-status").text)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#recording-list li[data-name='pinch-out'] button"))[0].click()
        wait.until(lambda d: "pinch end" in text("replay-gesture-kind"))
        driver.find_element(By.ID, "tab-live").click()

    @check("the doctor view lists every check of gestures doctor with what to do")
    def _():
        driver.find_element(By.ID, "tab-doctor").click()
        checks = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#doctor-checks .check"))
        areas = [item.text.split(": ", 1)[0].split(" · ")[1] for item in checks]
        assert areas == ["devices", "uinput", "configuration", "service", "other-tools", "desktop", "focus", "page"], areas
        driver.save_screenshot(os.path.join(SHOTS, "page-doctor.png"))
        driver.find_element(By.ID, "tab-live").click()

    @check("the page fetched nothing from another origin and logged no error")
    def _():
        urls = [json.loads(entry["message"])["message"]["params"]["request"]["url"]
                for entry in driver.get_log("performance")
                if json.loads(entry["message"])["message"]["method"] == "Network.requestWillBeSent"]
        assert urls, "no request seen"
        outside = [url for url in urls if not url.startswith(session.origin)]
        assert not outside, outside
        # The refused save of the invalid edit is the one error the checks above asked for.
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                  and not (entry["source"] == "network" and "/api/configuration/save" in entry["message"] and "422" in entry["message"])]
        assert not errors, errors

    @check("every control of every view has a label and is reached with the keyboard")
    def _():
        for view in ("live", "bindings", "shapes", "recordings", "doctor"):
            driver.find_element(By.ID, "tab-" + view).click()
            wait.until(lambda d: d.find_element(By.ID, view).is_displayed())
            tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
            unnamed = [node for node in tree["nodes"]
                       if node.get("role", {}).get("value") in ("button", "combobox", "link", "textbox", "checkbox", "slider", "spinbutton")
                       and not node.get("ignored") and not node.get("name", {}).get("value")]
            assert not unnamed, f"{view}: {unnamed}"
            controls = driver.execute_script(
                "return [...document.querySelectorAll('a[href], button, select, input, textarea')]"
                ".filter(e => e.offsetParent !== null && !e.disabled).map(e => e.id || e.getAttribute('aria-label') || e.textContent)")
            driver.find_element(By.TAG_NAME, "body").click()
            reached = set()
            for _ in range(len(controls) + 2):
                ActionChains(driver).send_keys(Keys.TAB).perform()  # to the page, not the element (a file input takes keys as a path)
                reached.add(driver.execute_script(
                    "const e = document.activeElement; return e.id || e.getAttribute('aria-label') || e.textContent"))
            missing = [control for control in controls if control not in reached]
            assert not missing, f"{view}: not reached with Tab: {missing}"
        driver.find_element(By.ID, "tab-live").click()

    @check("a page of another site cannot make a change, and the page itself can")
    def _():
        # The other site: a page on another port of the loopback, which tries to ask for a reload.
        class Evil(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                script = (f"<script>fetch('{session.origin}/api/reload', {{method: 'POST', mode: 'no-cors', "
                          "credentials: 'include', body: '{}'}).then(() => document.title = 'sent', "
                          "() => document.title = 'refused');</script>")
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(script.encode())

            def log_message(self, *arguments):
                pass
        evil = http.server.HTTPServer(("127.0.0.1", 0), Evil)
        threading.Thread(target=evil.serve_forever, daemon=True).start()
        try:
            other = browser()
            try:
                other.get(session.address)  # even a browser that holds the cookie
                wait_for(lambda: other.current_url.rstrip("/") == session.origin, "the page in the second browser")
                other.get(f"http://127.0.0.1:{evil.server_port}/")
                WebDriverWait(other, WAIT).until(lambda d: d.title in ("sent", "refused"))
            finally:
                other.quit()
        finally:
            evil.shutdown()
        assert "asked on the socket" not in session.log(), "another site's page made the daemon reload"
        # The page itself, with its CSRF token: the daemon reloads.
        result = driver.execute_script(
            "return (async () => { const api = await import('/api.js'); return JSON.stringify(await api.post('/api/reload')); })()")
        assert json.loads(result) == {"asked": "reload"}, result
        wait_for(lambda: "asked on the socket" in session.log(), "the daemon's reload")

    @check("a name that rebinds to the loopback is refused (DNS rebinding)")
    def _():
        other = browser(["--host-resolver-rules=MAP rebound.example 127.0.0.1"])
        try:
            other.get(f"http://rebound.example:{session.port}/?token={session.token}")
            body = other.find_element(By.TAG_NAME, "body").text
            assert "is not this server's" in body, body
            assert "Gestures" not in other.title
        finally:
            other.quit()

    @check("a browser without the address's token gets no page, nor does a wrong token")
    def _():
        other = browser()
        try:
            other.get(session.origin + "/")
            assert "has not opened the address `gestures ui` printed" in other.find_element(By.TAG_NAME, "body").text
            other.get(session.origin + "/?token=" + "0" * 64)
            assert "is not the one `gestures ui` printed" in other.find_element(By.TAG_NAME, "body").text
            other.get(session.origin + "/api/session")
            assert "csrf" not in other.find_element(By.TAG_NAME, "body").text
        finally:
            other.quit()

    @check("a plain client is refused a change without the CSRF token, without an Origin, or from another Origin")
    def _():
        cookie = f"gestures_token={session.token}"
        host = f"127.0.0.1:{session.port}"
        csrf = json.loads(raw_request(session.port, "GET", "/api/session", {"Host": host, "Cookie": cookie})[2])["csrf"]
        cases = [
            ({"Host": host, "Cookie": cookie, "Origin": session.origin}, 403),
            ({"Host": host, "Cookie": cookie, "X-Gestures-CSRF": csrf}, 403),
            ({"Host": host, "Cookie": cookie, "X-Gestures-CSRF": csrf, "Origin": "http://evil.example"}, 403),
            ({"Host": "evil.example", "Cookie": cookie, "X-Gestures-CSRF": csrf, "Origin": session.origin}, 421),
            ({"Host": host, "X-Gestures-CSRF": csrf, "Origin": session.origin}, 403),
        ]
        before = session.log().count("asked on the socket")
        for headers, status in cases:
            got, response_headers, body = raw_request(session.port, "POST", "/api/reload", headers, b"{}")
            assert got == status, f"{headers}: {got} {body}"
            assert "access-control-allow-origin" not in response_headers
        got, _, body = raw_request(session.port, "POST", "/api/reload",
                                   {"Host": host, "Cookie": cookie, "X-Gestures-CSRF": csrf, "Origin": session.origin},
                                   b"x" * (1024 * 1024 + 1))
        assert got == 413, f"{got} {body}"
        assert session.log().count("asked on the socket") == before

    @check("the live view follows the device that is touched until one is picked, then stays on it")
    def _():
        driver.find_element(By.ID, "tab-live").click()
        devices = len(driver.find_elements(By.CSS_SELECTOR, "#device-picker option"))
        session.replay(PINCH)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#device-picker option")) == devices + 1)
        wait.until(lambda d: "pinch end" in d.find_element(By.ID, "gesture-kind").text)
        verdicts = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#verdicts li")]
        assert any(text.startswith("zoom") and "\nfired" in text for text in verdicts), verdicts
        driver.save_screenshot(os.path.join(SHOTS, "page-live-pinch.png"))
        # Picked: the swipe's pad stays drawn while the other device is touched.
        picker = driver.find_element(By.ID, "device-picker")
        [o for o in picker.find_elements(By.TAG_NAME, "option") if "Synaptics TouchPad" in o.text][0].click()
        drawn = driver.execute_script("return window.gesturesPage.view.framesDrawn")
        session.replay(PINCH)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#device-picker option")) == devices + 2)
        wait_for(lambda: "replayed " + PINCH in session.log() and session.log().count("replayed " + PINCH) == 2, "the second pinch")
        assert "Synaptics TouchPad" in driver.find_element(By.ID, "surface-caption").text
        assert driver.execute_script("return window.gesturesPage.view.framesDrawn") == drawn
        # A device that goes away (the daemon's `removed` line) leaves the picker, and the view follows the next one touched.
        chosen = driver.execute_script("return window.gesturesPage.view.chosen")
        driver.execute_script("window.gesturesPage.view.take({removed: {device: arguments[0]}})", chosen)
        assert not driver.find_elements(By.CSS_SELECTOR, f"#device-picker option[value='{chosen}']")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#device-picker option")) == devices + 1
        assert "went away" in driver.find_element(By.ID, "surface-caption").text
        session.replay(PINCH)
        wait.until(lambda d: d.execute_script("return window.gesturesPage.view.chosen") not in (None, chosen))


if __name__ == "__main__":
    sys.exit(main())

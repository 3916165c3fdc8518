#!/usr/bin/python3
"""What the page costs and how far behind the touches it draws, measured in
headless Chromium against a real `gestures ui` and a real daemon replaying
recordings at their recorded pace (`run --replay - --real-time`):

- the delay from the daemon publishing a frame to the page drawing it
  (median and p99, over every frame drawn; both clocks are this machine's);
- the daemon's CPU time per frame with a page open and with none (its
  /proc/PID/stat utime + stime over the same replays);
- the page's JavaScript heap after the run (Chromium's Performance metrics).

Usage: Tools/bench-page [--seconds N]   (default 60; the note's figure: 600)
"""
import os
import statistics
import sys
import time

from pagekit import ROOT, WAIT, Session, browser, wait_for

RECORDINGS = [os.path.join(ROOT, "Recordings/synthetic", name + ".jsonl") for name in (
    "x1carbon.3-finger-swipe-left", "rmi4.2-finger-pinch-out", "rmi4.3-finger-rotate-clockwise", "x1carbon.4-finger-swipe-up")]
CONFIGURATION = """version: 1
bindings:
  - gesture: swipe
    fingers: 3
    action: {command: ['true']}
  - gesture: pinch
    action: {command: ['true']}
"""


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def frames_and_seconds(path):
    """The recording's frames and how long it lasts (its last frame's time)."""
    frames, last = 0, 0
    with open(path) as file:
        for line in file:
            if line.startswith('{"d":'):
                frames += 1
                last = int(line.split('"t":', 1)[1].split(",", 1)[0])
    return frames, last / 1e6


def replay_for(session, seconds):
    """Queues the recordings in turn, each replayed at its pace, until they last `seconds`, and waits for them."""
    done = session.log().count("gestures: replayed ")
    frames, queued, count = 0, 0.0, 0
    while queued < seconds:
        for path in RECORDINGS:
            recording_frames, length = frames_and_seconds(path)
            session.replay(path)
            frames += recording_frames
            queued += length
            count += 1
    wait_for(lambda: session.log().count("gestures: replayed ") >= done + count, "the replays", timeout=seconds * 4 + WAIT)
    return frames


def main():
    seconds = 60
    if len(sys.argv) == 3 and sys.argv[1] == "--seconds":
        seconds = int(sys.argv[2])
    session = Session(CONFIGURATION, daemon_arguments=["--real-time"])
    try:
        # No page: the daemon's CPU per frame.
        before = cpu_seconds(session.daemon.pid)
        idle_frames = replay_for(session, min(seconds, 30))
        idle_cpu = cpu_seconds(session.daemon.pid) - before
        driver = browser()
        try:
            driver.get(session.address)
            wait_for(lambda: "watching the daemon" in driver.find_element("id", "daemon-status").text, "the page")
            before = cpu_seconds(session.daemon.pid)
            watched_frames = replay_for(session, seconds)
            watched_cpu = cpu_seconds(session.daemon.pid) - before
            latencies = driver.execute_script("return window.gesturesPage.view.latencies")
            drawn = driver.execute_script("return window.gesturesPage.view.framesDrawn")
            driver.execute_cdp_cmd("Performance.enable", {})
            metrics = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
            # What the page keeps, as against what waits for the collector: the same figures after a collection.
            driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
            kept = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
        finally:
            driver.quit()
    finally:
        session.close()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"bench-page: {seconds} s of live view, {watched_frames} frames replayed at their pace, {drawn} drawn")
    print(f"bench-page: frame published by the daemon -> drawn in the page: median {statistics.median(latencies):.1f} ms, "
          f"p99 {p99:.1f} ms, max {latencies[-1]:.1f} ms over the last {len(latencies)} frames (one 60 Hz frame: 16.7 ms)")
    print(f"bench-page: daemon CPU per frame: {idle_cpu / idle_frames * 1e6:.1f} us with no page "
          f"({idle_frames} frames), {watched_cpu / watched_frames * 1e6:.1f} us with a page open ({watched_frames} frames)")
    print(f"bench-page: the page's JavaScript heap after the run: {metrics.get('JSHeapUsedSize', 0) / 1e6:.1f} MB used "
          f"of {metrics.get('JSHeapTotalSize', 0) / 1e6:.1f} MB; {int(metrics.get('Nodes', 0))} DOM nodes "
          f"(after a collection: {kept.get('JSHeapUsedSize', 0) / 1e6:.1f} MB, {int(kept.get('Nodes', 0))} nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes the synthetic traces in Recordings/synthetic: protocol-B frames of
gestures on virtual devices built from real device descriptions (the numbers
are the devices' published ranges and resolutions). Deterministic: run it
again and the files are the same. Usage: Tools/make-synthetic-traces.py"""
import json, math, os, random

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT = 0
ABS_X, ABS_Y, ABS_PRESSURE = 0, 1, 24
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 47, 53, 54, 57
BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH = 272, 325, 330
BTN_TOOL = {1: 325, 2: 333, 3: 334, 4: 335, 5: 328}  # FINGER, DOUBLETAP, TRIPLETAP, QUADTAP, QUINTTAP

# Lenovo X1 Carbon 3rd gen, Synaptics PS/2: 98 x 54 mm, 2 slots, BTN_TOOL up to QUINTTAP.
X1 = {"name": "SynPS/2 Synaptics TouchPad", "id": [17, 2, 7, 433], "properties": [0, 2],
      "codes": {"0": [0, 1, 2, 3], "1": [272, 325, 328, 330, 333, 334, 335],
                "3": [0, 1, 24, 47, 53, 54, 57]},
      "absinfo": {"0": [1266, 5676, 0, 0, 45], "1": [1096, 4758, 0, 0, 68], "24": [0, 255, 0, 0, 0],
                  "47": [0, 1, 0, 0, 0], "53": [1266, 5676, 0, 0, 45], "54": [1096, 4758, 0, 0, 68],
                  "57": [0, 65535, 0, 0, 0]}}
# Synaptics RMI4 TM3053: 97 x 53 mm, 5 slots.
RMI4 = {"name": "Synaptics TM3053-004", "id": [29, 6, 0, 0], "properties": [0, 2],
        "codes": {"0": [0, 1, 2, 3], "1": [272, 325, 328, 330, 333, 334, 335],
                  "3": [0, 1, 47, 53, 54, 57]},
        "absinfo": {"0": [0, 1940, 0, 0, 20], "1": [0, 1062, 0, 0, 20], "47": [0, 4, 0, 0, 0],
                    "53": [0, 1940, 0, 0, 20], "54": [0, 1062, 0, 0, 20], "57": [0, 65535, 0, 0, 0]}}

def units(device, x_mm, y_mm):
    ax, ay = device["absinfo"]["53"], device["absinfo"]["54"]
    return int(round(ax[0] + x_mm * ax[4])), int(round(ay[0] + y_mm * ay[4]))

def trace(device, fingers_paths, hz=100, seed=1, jitter=0.0, land_gap_ms=0):
    """fingers_paths: list of functions t in [0,1] -> (x_mm, y_mm); a finger is
    down from its landing until the end, then all lift."""
    rnd = random.Random(seed)
    slots = device["absinfo"]["47"][1] + 1
    frames, t_us = [], 0
    n = len(fingers_paths)
    steps = hz // 2  # half a second of motion
    down = [False] * n
    last_tool = 0
    for step in range(steps + 1):
        events = []
        t = step / steps
        count = 0
        for i, path in enumerate(fingers_paths):
            if t_us < i * land_gap_ms * 1000: continue
            count += 1
            x, y = path(t if step > 2 else 0)
            x += rnd.uniform(-jitter, jitter); y += rnd.uniform(-jitter, jitter)
            if i >= slots: continue
            ux, uy = units(device, x, y)
            events.append([EV_ABS, ABS_MT_SLOT, i])
            if not down[i]:
                events.append([EV_ABS, ABS_MT_TRACKING_ID, 100 + i]); down[i] = True
            events += [[EV_ABS, ABS_MT_POSITION_X, ux], [EV_ABS, ABS_MT_POSITION_Y, uy]]
            if i == 0: events += [[EV_ABS, ABS_X, ux], [EV_ABS, ABS_Y, uy]]
        if count and last_tool != count:
            if last_tool: events.append([EV_KEY, BTN_TOOL[last_tool], 0])
            else: events.append([EV_KEY, BTN_TOUCH, 1])
            events.append([EV_KEY, BTN_TOOL[count], 1]); last_tool = count
        events.append([EV_SYN, SYN_REPORT, 0])
        frames.append({"d": 0, "t": t_us, "e": events})
        t_us += 1_000_000 // hz
    lift = []
    for i in range(min(n, slots)):
        lift += [[EV_ABS, ABS_MT_SLOT, i], [EV_ABS, ABS_MT_TRACKING_ID, -1]]
    lift += [[EV_KEY, BTN_TOOL[last_tool], 0], [EV_KEY, BTN_TOUCH, 0], [EV_SYN, SYN_REPORT, 0]]
    frames.append({"d": 0, "t": t_us, "e": lift})
    return frames

def write(name, device, frames):
    path = os.path.join(os.path.dirname(__file__), "..", "Recordings", "synthetic", name + ".jsonl")
    with open(path, "w") as f:
        f.write(json.dumps({"format": "gestures-trace", "version": 1, "devices": [device]}, separators=(",", ":")) + "\n")
        for fr in frames: f.write(json.dumps(fr, separators=(",", ":")) + "\n")
        f.write(json.dumps({"end": {"frames": len(frames), "events": sum(len(fr["e"]) for fr in frames)}}, separators=(",", ":")) + "\n")

def line(x0, y0, dx, dy):
    return lambda t: (x0 + dx * t, y0 + dy * t)

def spread(cx, cy, r0, r1, a0):
    return lambda t: (cx + (r0 + (r1 - r0) * t) * math.cos(a0), cy + (r0 + (r1 - r0) * t) * math.sin(a0))

def turn(cx, cy, r, a0, da):
    return lambda t: (cx + r * math.cos(a0 + da * t), cy + r * math.sin(a0 + da * t))

write("x1carbon.3-finger-swipe-left", X1, trace(X1, [line(70, 20, -40, 0), line(78, 28, -40, 0), line(62, 30, -40, 0)], jitter=0.3, land_gap_ms=20))
write("x1carbon.4-finger-swipe-up", X1, trace(X1, [line(30 + 10 * i, 45, 0, -25) for i in range(4)], hz=80, jitter=0.3))
write("rmi4.2-finger-pinch-out", RMI4, trace(RMI4, [spread(48, 26, 8, 22, math.pi * k) for k in range(2)], hz=140))
write("rmi4.3-finger-rotate-clockwise", RMI4, trace(RMI4, [turn(48, 26, 15, 2 * math.pi * k / 3, math.radians(60)) for k in range(3)]))
write("rmi4.5-finger-swipe-down-right", RMI4, trace(RMI4, [line(20 + 8 * i, 10 + (3 if i % 2 else 0), 25, 25) for i in range(5)], hz=120, land_gap_ms=10))

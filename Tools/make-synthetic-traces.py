#!/usr/bin/env python3
"""Writes the synthetic traces in Recordings/synthetic: protocol-B frames of
gestures on the real devices described in Recordings/devices (the numbers
are the devices' published ranges and resolutions). Deterministic: run it
again and the files are the same. Usage: Tools/make-synthetic-traces.py

Each file is DEVICE.WHAT.jsonl, and WHAT says the gesture the engine must
give (RecordingsReplayTests checks the expected output against it):
N-finger-swipe-DIR[-from-EDGE-edge], N-finger-pinch-in|out,
N-finger-rotate-clockwise|anticlockwise, N-finger-hold, N-finger-tap,
1-finger-stroke-TEMPLATE, N-finger-sequence-NAME (with NAME.sequences.json
beside it), and nothing-* for input that must give no gesture; a mouse's
are stroke-TEMPLATE, click and press-held-then-dragged. A last part
after a dot (.noisy, .slow) names a variant. After running it, write the
expected outputs with Tools/update-expected-outputs and read them."""
import json, math, os, random

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT = 0
ABS_X, ABS_Y, ABS_PRESSURE, ABS_MT_PRESSURE = 0, 1, 24, 58
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 47, 53, 54, 57
BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH = 272, 325, 330
BTN_TOOL = {1: 325, 2: 333, 3: 334, 4: 335, 5: 328}  # FINGER, DOUBLETAP, TRIPLETAP, QUADTAP, QUINTTAP
ABS_MT_TOUCH_MAJOR, ABS_MT_TOUCH_MINOR = 48, 49

# The devices are data, one file per device in Recordings/devices (a trace
# with a header and no frames), shared with the Swift tests, the benchmarks
# and the real-kernel suite. Key order is kept, so the headers written below
# are the same bytes as the device files'.
DEVICES_DIR = os.path.join(os.path.dirname(__file__), "..", "Recordings", "devices")

def load_device(name):
    """The one device described in Recordings/devices/NAME.jsonl."""
    path = os.path.join(DEVICES_DIR, name + ".jsonl")
    with open(path) as f:
        header = json.loads(f.readline())
    if header.get("format") != "gestures-trace" or header.get("version") != 1 or len(header.get("devices", [])) != 1:
        raise SystemExit("%s: not a version 1 gestures trace with one device" % path)
    return header["devices"][0]

X1 = load_device("x1carbon")  # Lenovo X1 Carbon 3rd gen, Synaptics PS/2: 98 x 54 mm, 2 slots, BTN_TOOL up to QUINTTAP
RMI4 = load_device("rmi4")    # Synaptics RMI4 TM3053: 97 x 53 mm, 5 slots
MAGIC = load_device("magic")  # Apple Magic Trackpad v1: 132 x 112 mm, 16 slots, touch size, fuzz 4
ATMEL = load_device("atmel")  # Atmel maXTouch touchscreen: 0-799 x 0-479, 10 slots, BTN_TOUCH only, no resolution
ATMEL_MM_PER_UNIT = 250 / 799  # the decoder's fallback: 250 mm along the longer axis, square units

DEVICES = {"x1carbon": X1, "magic": MAGIC, "rmi4": RMI4, "atmel": ATMEL}

def size_mm(device):
    ax, ay = device["absinfo"]["53"], device["absinfo"]["54"]
    if ax[4] == 0: return (ax[1] - ax[0]) * ATMEL_MM_PER_UNIT, (ay[1] - ay[0]) * ATMEL_MM_PER_UNIT
    return (ax[1] - ax[0]) / ax[4], (ay[1] - ay[0]) / ay[4]

def units(device, x_mm, y_mm):
    ax, ay = device["absinfo"]["53"], device["absinfo"]["54"]
    if ax[4] == 0: return int(round(ax[0] + x_mm / ATMEL_MM_PER_UNIT)), int(round(ay[0] + y_mm / ATMEL_MM_PER_UNIT))
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

class Finger:
    """One finger: down from `down` to `up` (ms), at path(ms) in mm."""
    def __init__(self, down, up, path, pressure=60):
        self.down, self.up, self.path, self.pressure = down, up, path, pressure

def touches(device, fingers, hz=100, seed=1, jitter=0.0):
    """Frames at `hz` of fingers landing and lifting at their own times, each
    in the lowest free slot (fingers beyond the slots count in BTN_TOOL only),
    with uniform jitter of +-`jitter` mm; touchscreens send BTN_TOUCH only."""
    rnd = random.Random(seed)
    slots = device["absinfo"]["47"][1] + 1
    has_tool = BTN_TOOL_FINGER in device["codes"]["1"]
    has_size = "48" in device["absinfo"]
    has_pressure = str(ABS_MT_PRESSURE) in device["absinfo"]
    slot_of, next_id, last_count, frames = {}, 1, 0, []
    end = max(f.up for f in fingers)
    step = 0
    while True:
        t_ms = step * 1000 / hz
        t_us = int(round(t_ms * 1000))
        events = []
        down = [i for i, f in enumerate(fingers) if f.down <= t_ms < f.up]
        for i in list(slot_of):
            if i not in down:
                events += [[EV_ABS, ABS_MT_SLOT, slot_of[i]], [EV_ABS, ABS_MT_TRACKING_ID, -1]]
                del slot_of[i]
        for i in down:
            if i not in slot_of:
                free = [k for k in range(slots) if k not in slot_of.values()]
                if not free: continue
                slot_of[i] = free[0]
                events += [[EV_ABS, ABS_MT_SLOT, slot_of[i]], [EV_ABS, ABS_MT_TRACKING_ID, next_id]]
                next_id += 1
            else:
                events.append([EV_ABS, ABS_MT_SLOT, slot_of[i]])
            x, y = fingers[i].path(t_ms)
            ux, uy = units(device, x + rnd.uniform(-jitter, jitter), y + rnd.uniform(-jitter, jitter))
            events += [[EV_ABS, ABS_MT_POSITION_X, ux], [EV_ABS, ABS_MT_POSITION_Y, uy]]
            if has_size: events += [[EV_ABS, ABS_MT_TOUCH_MAJOR, 60], [EV_ABS, ABS_MT_TOUCH_MINOR, 50]]
            if has_pressure: events.append([EV_ABS, ABS_MT_PRESSURE, fingers[i].pressure])
        if slot_of:
            first = fingers[min(slot_of, key=lambda i: slot_of[i])].path(t_ms)
            events += [[EV_ABS, ABS_X, units(device, *first)[0]], [EV_ABS, ABS_Y, units(device, *first)[1]]]
        count = min(len(down), 5)
        if count != last_count:
            if last_count == 0: events.append([EV_KEY, BTN_TOUCH, 1])
            if has_tool and last_count: events.append([EV_KEY, BTN_TOOL[last_count], 0])
            if has_tool and count: events.append([EV_KEY, BTN_TOOL[count], 1])
            if count == 0: events.append([EV_KEY, BTN_TOUCH, 0])
            last_count = count
        if events or frames:
            events.append([EV_SYN, SYN_REPORT, 0])
            frames.append({"d": 0, "t": t_us, "e": events})
        if t_ms >= end: return frames
        step += 1

def still(x, y):
    return lambda t: (x, y)

def moving(x0, y0, dx, dy, start, duration):
    """At (x0, y0) until `start` ms, then moving by (dx, dy) mm over `duration` ms."""
    def path(t):
        u = min(max((t - start) / duration, 0), 1)
        u = u * u * (3 - 2 * u)  # eased, as a hand starts and stops
        return (x0 + dx * u, y0 + dy * u)
    return path

def hand(n, cx, cy, spacing=13):
    """Where n fingers rest around (cx, cy): a row, the outer ones a little lower."""
    return [(cx + spacing * (k - (n - 1) / 2), cy + 2 * abs(k - (n - 1) / 2)) for k in range(n)]

DIRECTIONS = {"right": (1, 0), "down_right": (1, 1), "down": (0, 1), "down_left": (-1, 1),
              "left": (-1, 0), "up_left": (-1, -1), "up": (0, -1), "up_right": (1, -1)}

def swipe(device, n, direction, travel=30, land_gap=0, duration=350, start=60, center=None, spacing=13):
    w, h = size_mm(device)
    ux, uy = DIRECTIONS[direction]
    norm = math.hypot(ux, uy)
    dx, dy = travel * ux / norm, travel * uy / norm
    cx, cy = center or (w / 2 - dx / 2, h / 2 - dy / 2)
    begin = start + land_gap * (n - 1)
    return [Finger(k * land_gap, begin + duration + 120 + k * 8, moving(x, y, dx, dy, begin, duration))
            for k, (x, y) in enumerate(hand(n, cx, cy, spacing))]

def pinch(device, n, ratio, turn_degrees=0, radius=14, land_gap=0, duration=400):
    """n fingers round the centre, their distance times `ratio` and turned by `turn_degrees` (clockwise on screen)."""
    w, h = size_mm(device)
    cx, cy = w / 2, h / 2
    begin = 60 + land_gap * (n - 1)
    def path(a0):
        def at(t):
            u = min(max((t - begin) / duration, 0), 1)
            r = radius * (1 + (ratio - 1) * u)
            a = a0 + math.radians(turn_degrees) * u
            return (cx + r * math.cos(a), cy + r * math.sin(a))
        return at
    return [Finger(k * land_gap, begin + duration + 100, path(2 * math.pi * k / n + 0.3)) for k in range(n)]

def rest(device, n, duration, land_gap=0):
    w, h = size_mm(device)
    return [Finger(k * land_gap, land_gap * (n - 1) + duration + k * 6, still(x, y))
            for k, (x, y) in enumerate(hand(n, w / 2, h / 2))]

def drawn(points, origin, size, duration=800, start=40):
    """One finger along the polyline `points` (unit square) scaled to `size` mm at `origin`."""
    lengths = [math.dist(a, b) for a, b in zip(points, points[1:])]
    total = sum(lengths)
    def at(t):
        u = min(max((t - start) / duration, 0), 1) * total
        for (a, b), l in zip(zip(points, points[1:]), lengths):
            if u <= l or l == lengths[-1] and b == points[-1]:
                f = u / l if l else 0
                return (origin[0] + size * (a[0] + (b[0] - a[0]) * min(f, 1)), origin[1] + size * (a[1] + (b[1] - a[1]) * min(f, 1)))
            u -= l
        return (origin[0] + size * points[-1][0], origin[1] + size * points[-1][1])
    return [Finger(0, start + duration + 60, at)]

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

# --- Every gesture kind on several devices --------------------------------

TOUCHPADS = ["x1carbon", "magic", "rmi4"]

# Swipes in the 8 directions with 2 to 5 fingers, spread over the four
# devices; every other one noisy (0.3 mm jitter, fingers landing 20-60 ms
# apart), at 80 to 140 frames a second.
for d, direction in enumerate(DIRECTIONS):
    for n in range(2, 6):
        key = list(DEVICES)[(d + n) % 4]
        noisy = (d + n) % 2 == 1
        hz = [80, 100, 125, 140][(d * 4 + n) % 4]
        name = "%s.%d-finger-swipe-%s" % (key, n, direction.replace("_", "-"))
        if (key, n, direction) in [("x1carbon", 3, "left"), ("x1carbon", 4, "up"), ("rmi4", 5, "down_right")]:
            name += ".matrix"  # the hand-made ones above keep their names
        write(name + (".noisy" if noisy else ""), DEVICES[key],
              touches(DEVICES[key], swipe(DEVICES[key], n, direction, land_gap=[20, 40, 60][n % 3] if noisy else 0),
                      hz=hz, seed=d * 10 + n, jitter=0.3 if noisy else 0))

# Slow swipes: 1.5 s of motion at 80 Hz, fingers landing 60 ms apart.
write("magic.3-finger-swipe-right.slow", MAGIC,
      touches(MAGIC, swipe(MAGIC, 3, "right", travel=40, land_gap=60, duration=1500), hz=80, seed=3, jitter=0.3))
write("atmel.2-finger-swipe-up.slow", ATMEL,
      touches(ATMEL, swipe(ATMEL, 2, "up", travel=40, land_gap=60, duration=1500), hz=80, seed=4, jitter=0.3))

# Edge swipes: the fingers' centre lands inside the 8 mm edge zone and moves away from it.
w, h = size_mm(RMI4)
write("rmi4.3-finger-swipe-right-from-left-edge", RMI4,
      touches(RMI4, [Finger(0, 600, moving(4, y, 35, 0, 60, 350)) for y in (14, 26, 38)], hz=125, seed=5, jitter=0.3))
w, h = size_mm(MAGIC)
write("magic.4-finger-swipe-left-from-right-edge", MAGIC,
      touches(MAGIC, [Finger(k * 20, 620, moving(w - 5, 25 + 15 * k, -40, 0, 120, 350)) for k in range(4)], hz=100, seed=6))
w, h = size_mm(ATMEL)
write("atmel.2-finger-swipe-down-from-top-edge", ATMEL,
      touches(ATMEL, [Finger(0, 560, moving(x, 4, 0, 45, 60, 350)) for x in (110, 135)], hz=100, seed=7))
w, h = size_mm(X1)
write("x1carbon.3-finger-swipe-up-from-bottom-edge", X1,
      touches(X1, [Finger(0, 560, moving(x, h - 4, 0, -30, 60, 350)) for x in (35, 48, 61)], hz=80, seed=8, jitter=0.3))

# Pinches in and out, rotations both ways.
write("magic.3-finger-pinch-in", MAGIC, touches(MAGIC, pinch(MAGIC, 3, 0.5, radius=22), hz=100))
write("magic.5-finger-pinch-out.noisy", MAGIC, touches(MAGIC, pinch(MAGIC, 5, 1.8, radius=16, land_gap=30), hz=125, seed=9, jitter=0.3))
write("atmel.2-finger-pinch-in", ATMEL, touches(ATMEL, pinch(ATMEL, 2, 0.4, radius=40), hz=100))
write("x1carbon.4-finger-pinch-out", X1, touches(X1, pinch(X1, 4, 1.7, radius=12), hz=80, seed=10, jitter=0.3))
write("magic.2-finger-rotate-anticlockwise", MAGIC, touches(MAGIC, pinch(MAGIC, 2, 1.0, turn_degrees=-70, radius=20), hz=100))
write("atmel.4-finger-rotate-anticlockwise.noisy", ATMEL,
      touches(ATMEL, pinch(ATMEL, 4, 1.0, turn_degrees=-60, radius=35, land_gap=40), hz=140, seed=11, jitter=0.3))
write("magic.5-finger-rotate-clockwise", MAGIC, touches(MAGIC, pinch(MAGIC, 5, 1.0, turn_degrees=50, radius=25), hz=80))

# Holds with 1 to 5 fingers (the 5-finger one landing 60 ms apart with jitter).
for n, key in zip(range(1, 6), ["x1carbon", "magic", "rmi4", "atmel", "magic"]):
    noisy = n == 5
    write("%s.%d-finger-hold%s" % (key, n, ".noisy" if noisy else ""), DEVICES[key],
          touches(DEVICES[key], rest(DEVICES[key], n, 600, land_gap=15 if noisy else 0), hz=100, seed=20 + n, jitter=0.3 if noisy else 0))

# Taps with 1 to 5 fingers on a touchpad and on the touchscreen; the noisy
# ones land and lift up to 60 ms apart.
for n in range(1, 6):
    pad = TOUCHPADS[n % 3]
    gap = 15 if n > 1 else 0
    write("%s.%d-finger-tap" % (pad, n), DEVICES[pad], touches(DEVICES[pad], rest(DEVICES[pad], n, 90, land_gap=gap), hz=100, seed=30 + n))
    write("atmel.%d-finger-tap%s" % (n, ".noisy" if n > 1 else ""), ATMEL,
          touches(ATMEL, rest(ATMEL, n, 110, land_gap=60 // max(n - 1, 1) if n > 1 else 0), hz=125, seed=40 + n, jitter=0.3))

# Strokes drawn with one finger on the touchscreen, against the default library.
CIRCLE = [(0.5 + 0.5 * math.cos(-math.pi / 2 - k / 64 * 2 * math.pi), 0.5 + 0.5 * math.sin(-math.pi / 2 - k / 64 * 2 * math.pi)) for k in range(73)]
write("atmel.1-finger-stroke-circle", ATMEL, touches(ATMEL, drawn(CIRCLE, (90, 40), 60), hz=100, seed=50, jitter=0.3))
write("atmel.1-finger-stroke-triangle", ATMEL, touches(ATMEL, drawn([(0.45, 0), (0, 1), (1, 1), (0.45, 0)], (80, 30), 70), hz=125, seed=51))
write("atmel.1-finger-stroke-check", ATMEL, touches(ATMEL, drawn([(0, 0.6), (0.35, 1), (1, 0)], (90, 40), 60, duration=500), hz=100, seed=52, jitter=0.3))

# A swipe sequence: three-finger swipes left then right, the second
# beginning 650 ms after the first (ends 650 ms apart, under the 800 ms gap),
# with the sequences the replay reads from the sibling .sequences.json.
def later(finger, ms):
    return Finger(finger.down + ms, finger.up + ms, lambda t: finger.path(t - ms))
first = swipe(RMI4, 3, "left", travel=30)
second = [later(f, 650) for f in swipe(RMI4, 3, "right", travel=30)]
write("rmi4.3-finger-sequence-back-and-forth", RMI4, touches(RMI4, first + second, hz=100, seed=60, jitter=0.3))
with open(os.path.join(os.path.dirname(__file__), "..", "Recordings", "synthetic", "rmi4.3-finger-sequence-back-and-forth.sequences.json"), "w") as f:
    f.write(json.dumps({"sequences": [{"name": "back-and-forth", "directions": ["left", "right"]},
                                      {"name": "up-up", "directions": ["up", "up"]}]}, indent=2) + "\n")

# No gesture: one finger moving the pointer, and a two-finger scroll of 4.5 mm
# (under the 6 mm swipe threshold) that moves too soon to be a hold.
write("x1carbon.nothing-1-finger-pointer-motion", X1, touches(X1, [Finger(0, 700, moving(30, 30, 40, 12, 40, 600))], hz=80, seed=70, jitter=0.3))
write("magic.nothing-2-finger-small-scroll", MAGIC,
      touches(MAGIC, [Finger(0, 420, moving(x, 50, 0, 4.5, 30, 300)) for x in (60, 78)], hz=100, seed=71, jitter=0.3))

# A resting thumb: the RMI4 reports pressure; a thumb pressing at 180 (over
# libinput's palm threshold of 130) rests at the bottom while three fingers
# swipe up. It must not add a finger or break the swipe.
RMI4_PRESSURE = load_device("rmi4-pressure")  # the RMI4 with ABS_MT_PRESSURE 0-255
thumb = Finger(0, 700, still(30, 48), pressure=180)
write("rmi4.3-finger-swipe-up-with-resting-thumb", RMI4_PRESSURE,
      touches(RMI4_PRESSURE, [thumb] + [Finger(100, 650, moving(x, 40, 0, -25, 160, 350)) for x in (45, 58, 71)], hz=100, seed=80, jitter=0.3))

# --- What real pads do that the fingers do not ------------------------------
# Regression traces for issue 11, each frame written out explicitly: landing
# jumps, lift slides, flickering second fingers with slot jumps, clicks with
# 1-3 fingers. The devices are real descriptions from ../shared/data
# (evemu-devices): the Lenovo P50 SynPS/2 Synaptics (2 slots, pressure
# 0-255, buttons beside the pad) and the Cypress CyPS/2 trackpad (semi-MT
# clickpad: the kernel's ABS_X/ABS_Y is the one position libinput and the
# decoder read, pressure 0-255).
P50 = load_device("p50")          # Lenovo P50 SynPS/2 Synaptics: 2 slots, pressure 0-255, buttons beside the pad
CYPRESS = load_device("cypress")  # Cypress CyPS/2: semi-MT clickpad, pressure 0-255

class Frame:
    """What the device reports at `t` ms: `slots` maps a slot to (tracking id,
    x mm, y mm, pressure); `tool` is the BTN_TOOL finger count (it may exceed
    the slots); `button` whether BTN_LEFT is down; `single` the (x, y,
    pressure) of ABS_X/ABS_Y/ABS_PRESSURE, by default slot 0's finger."""
    def __init__(self, t, slots, tool=None, button=False, single=None):
        self.t, self.slots, self.button, self.single = t, slots, button, single
        self.tool = len(slots) if tool is None else tool

def explicit(device, frames):
    """The kernel events of `frames`: only what changed, as the kernel sends it."""
    has_mt_pressure = "58" in device["absinfo"]
    has_st_pressure = "24" in device["absinfo"]
    out, last = [], Frame(0, {}, tool=0)
    last_single = None
    for f in frames:
        events = []
        for slot in sorted(set(f.slots) | set(last.slots)):
            now, before = f.slots.get(slot), last.slots.get(slot)
            if now is None:
                events += [[EV_ABS, ABS_MT_SLOT, slot], [EV_ABS, ABS_MT_TRACKING_ID, -1]]
                continue
            tid, x, y, p = now
            ux, uy = units(device, x, y)
            slot_events = []
            if before is None or before[0] != tid:
                slot_events.append([EV_ABS, ABS_MT_TRACKING_ID, tid])
                before = None
            if before is None or units(device, before[1], before[2])[0] != ux: slot_events.append([EV_ABS, ABS_MT_POSITION_X, ux])
            if before is None or units(device, before[1], before[2])[1] != uy: slot_events.append([EV_ABS, ABS_MT_POSITION_Y, uy])
            if has_mt_pressure and (before is None or before[3] != p): slot_events.append([EV_ABS, ABS_MT_PRESSURE, p])
            if slot_events: events += [[EV_ABS, ABS_MT_SLOT, slot]] + slot_events
        single = f.single
        if single is None and f.slots:
            _, x, y, p = f.slots[min(f.slots)]
            single = (x, y, p)
        if single is not None and f.tool:
            ux, uy = units(device, single[0], single[1])
            if last_single is None or last_single[0] != ux: events.append([EV_ABS, ABS_X, ux])
            if last_single is None or last_single[1] != uy: events.append([EV_ABS, ABS_Y, uy])
            if has_st_pressure and (last_single is None or last_single[2] != single[2]): events.append([EV_ABS, ABS_PRESSURE, single[2]])
            last_single = (ux, uy, single[2])
        elif not f.tool and last.tool and has_st_pressure:
            events.append([EV_ABS, ABS_PRESSURE, 0]); last_single = None
        if f.tool != last.tool:
            if last.tool == 0: events.append([EV_KEY, BTN_TOUCH, 1])
            if last.tool: events.append([EV_KEY, BTN_TOOL[min(last.tool, 5)], 0])
            if f.tool: events.append([EV_KEY, BTN_TOOL[min(f.tool, 5)], 1])
            if f.tool == 0: events.append([EV_KEY, BTN_TOUCH, 0])
        if f.button != last.button: events.append([EV_KEY, BTN_LEFT, 1 if f.button else 0])
        events.append([EV_SYN, SYN_REPORT, 0])
        out.append({"d": 0, "t": int(round(f.t * 1000)), "e": events})
        last = f
    return out

def landing_jump_tap(x, y, jump, hz=80, contact_ms=90, pressure=60):
    """A one-finger tap whose position jumps by `jump` (mm) on the frames
    after landing and comes back, as semi-MT ALPS and Cypress pads report it."""
    step = 1000 / hz
    frames, k = [], 0
    while k * step < contact_ms:
        dx, dy = (jump if k in (1, 2, 3) else (0, 0))
        wobble = 0.15 * ((k * 7) % 3 - 1)
        frames.append(Frame(k * step, {0: (300, x + dx + wobble, y + dy, pressure if k else pressure // 2)}))
        k += 1
    frames.append(Frame(k * step, {}))
    return frames

def lift_slide_tap(x, y, slide, hz=80, contact_ms=75, peak=70, t0=0, tid=400):
    """A one-finger tap that lands lightly and slides by `slide` (mm) in its
    last frame as the pressure drops (Synaptics pads)."""
    step = 1000 / hz
    n = int(contact_ms // step)
    frames = []
    for k in range(n):
        if k == 0: p, pos = peak // 3, (x, y)
        elif k == n - 1: p, pos = peak // 6, (x + slide[0], y + slide[1])
        else: p, pos = peak - (k % 2) * 3, (x + 0.2 * (k % 2), y + 0.1 * k)
        frames.append(Frame(t0 + k * step, {0: (tid, pos[0], pos[1], p)}))
    frames.append(Frame(t0 + n * step, {}))
    return frames

def two_fingers(path_a, path_b, ms=600, hz=80, flickers=(), pressure=60, rest_ms=40):
    """Two fingers following `path_a` and `path_b` (u in 0...1 -> mm) over
    `ms` after resting `rest_ms`. `flickers` lists (start ms, frames, how):
    from `start` the second finger vanishes for `frames` frames (its
    tracking id ends, BTN_TOOL_DOUBLETAP drops) and slot 0 reports where the
    second finger was. When it comes back with a new tracking id, slot 0
    keeps the second finger and slot 1 holds the first ("swap"), or slot 0
    jumps back ("back"); "collapse" is a swap whose slot 0 jumps one frame
    early, onto the second finger, while both slots are still down; "lag"
    jumps back one frame late, so that both slots start again from the
    second finger and then spring apart."""
    step = 1000 / hz
    frames, k = [], 0
    ids, swapped, next_id = [500, 501], False, 502
    total = rest_ms + ms + 40
    dips, collapses, lags = {}, set(), set()
    for start, count, how in flickers:
        first = int(round(start / step))
        for j in range(count): dips[first + j] = how
        if how == "collapse": collapses.add(first - 1)
        if how == "lag": lags.add(first + count)
    stale = None
    while k * step <= total:
        t = k * step
        u = min(max((t - rest_ms) / ms, 0), 1)
        u = u * u * (3 - 2 * u)
        pa, pb = path_a(u), path_b(u)
        first, second = (pb, pa) if swapped else (pa, pb)
        if k in dips:
            stale = second
            frames.append(Frame(t, {0: (ids[0], second[0], second[1], pressure)}, tool=1))
            if k + 1 not in dips:
                ids = [ids[0], next_id]; next_id += 1
                if dips[k] not in ("back", "lag"): swapped = not swapped
        elif k in lags:
            frames.append(Frame(t, {0: (ids[0], stale[0], stale[1], pressure), 1: (ids[1], second[0], second[1], pressure)}))
        elif k in collapses:
            frames.append(Frame(t, {0: (ids[0], second[0], second[1], pressure), 1: (ids[1], second[0], second[1], pressure)}))
        else:
            frames.append(Frame(t, {0: (ids[0], first[0], first[1], pressure), 1: (ids[1], second[0], second[1], pressure)}))
        k += 1
    frames.append(Frame(k * step, {}))
    return frames

def two_finger_scroll(a, b, travel, **options):
    """Two fingers at `a` and `b` (mm) moving together by `travel` (mm)."""
    return two_fingers(lambda u: (a[0] + travel[0] * u, a[1] + travel[1] * u),
                       lambda u: (b[0] + travel[0] * u, b[1] + travel[1] * u), **options)

def click(fingers, slots, at=(40, 30), rest_ms=150, press_ms=120, hz=80, pressure=60, tid=600):
    """`fingers` fingers resting `rest_ms`, the pad pressed down for
    `press_ms` (BTN_LEFT, as a clickpad sends whatever clickfinger makes of
    it), then lifted; fingers beyond `slots` count in BTN_TOOL only."""
    step = 1000 / hz
    frames, k = [], 0
    while k * step <= rest_ms + press_ms + 60:
        t = k * step
        pressing = rest_ms <= t < rest_ms + press_ms
        p = pressure + (40 if pressing else 0)  # pressing harder to click
        nudge = 0.4 if pressing else 0.0        # the pad gives a little under the finger
        slot_state = {s: (tid + s, at[0] + 14 * s, at[1] + 2 * s + nudge, p) for s in range(min(fingers, slots))}
        frames.append(Frame(t, slot_state, tool=fingers, button=pressing))
        k += 1
    frames.append(Frame(k * step, {}))
    return frames

# Taps whose fingers move while landing and lifting.
write("cypress.1-finger-tap.landing-jump", CYPRESS, explicit(CYPRESS, landing_jump_tap(50, 30, (3.5, -2.5))))
write("p50.1-finger-tap.lift-slide", P50, explicit(P50, lift_slide_tap(50, 25, (1.2, 2.6))))
write("x1carbon.1-finger-tap.lift-slide", X1, explicit(X1, lift_slide_tap(50, 25, (1.0, 2.2))))
write("p50.1-finger-double-tap.lift-slide", P50,
      explicit(P50, lift_slide_tap(50, 25, (0.8, 2.4)) + lift_slide_tap(50.5, 25.3, (1.3, 2.0), t0=200, tid=401)))
# Pointer motion that starts like a tap must stay pointer motion.
write("p50.nothing-1-finger-short-pointer-motion", P50,
      explicit(P50, [Frame(k * 12.5, {0: (402, 40 + 0.5 * k, 25 + 0.2 * k, 70 if 0 < k < 11 else 20)}) for k in range(12)] + [Frame(150, {})]))

# A second finger that flickers: two fingers scrolling, the second vanishing
# for one or two frames while slot 0 jumps to it.
write("p50.2-finger-swipe-down.flicker", P50,
      explicit(P50, two_finger_scroll((40, 15), (60, 17), (0, 25), flickers=[(100, 1, "lag"), (330, 2, "swap"), (480, 1, "collapse")])))
write("x1carbon.2-finger-swipe-left.flicker", X1,
      explicit(X1, two_finger_scroll((65, 20), (67, 38), (-30, 0), flickers=[(60, 1, "collapse"), (250, 2, "swap")])))
write("x1carbon.2-finger-swipe-up.flicker", X1,
      explicit(X1, two_finger_scroll((40, 40), (58, 39), (0, -25), flickers=[(120, 1, "lag"), (300, 1, "back"), (420, 2, "lag")])))
write("p50.2-finger-tap.flicker", P50,
      explicit(P50, two_finger_scroll((40, 25), (60, 26), (0, 0), ms=60, rest_ms=20, flickers=[(50, 1, "swap")])))
write("p50.2-finger-pinch-out.flicker", P50,
      explicit(P50, two_fingers(lambda u: (45 - 10 * u, 25), lambda u: (55 + 10 * u, 26), ms=400,
                                flickers=[(100, 1, "lag"), (260, 1, "swap"), (340, 1, "collapse")])))
# On a semi-MT pad BTN_TOOL_DOUBLETAP drops and the one position jumps to the
# other finger and back.
write("cypress.2-finger-swipe-up.flicker", CYPRESS,
      explicit(CYPRESS, two_finger_scroll((40, 40), (58, 42), (0, -22), flickers=[(200, 1, "back"), (400, 2, "back")])))

# Clicks: resting fingers pressing the pad down are no gesture, with 1-3
# fingers (clickfinger), also after resting long enough to hold, and a
# swipe in progress when the pad is clicked ends cancelled.
write("x1carbon.nothing-1-finger-click", X1, explicit(X1, click(1, 2)))
write("p50.nothing-2-finger-click", P50, explicit(P50, click(2, 2, rest_ms=100)))
write("x1carbon.nothing-3-finger-click", X1, explicit(X1, click(3, 2)))
write("cypress.nothing-3-finger-click", CYPRESS, explicit(CYPRESS, click(3, 2, rest_ms=120)))
write("magic.nothing-2-finger-click-after-rest", MAGIC, explicit(MAGIC, click(2, 16, at=(50, 50), rest_ms=400)))
swipe_then_click = two_finger_scroll((40, 20), (60, 22), (0, 20), ms=300)
for f in swipe_then_click:
    if 250 <= f.t < 380 and f.slots: f.button = True
write("p50.nothing-2-finger-swipe-then-click", P50, explicit(P50, swipe_then_click))

# --- Real pads, round 2 (issue 25) -----------------------------------------
# Palms, resting thumbs, hover and staggered lifts as the Chromebook pads
# (Atmel maXTouch, Cypress APA) and Synaptics pads report them.

# A palm landing at moderate pressure that the decoder flags (over 130) only
# on its sixth frame: counted as a finger until then, it must not tap when it
# leaves the finger count, nor hold.
palm_ramp = [Frame(k * 10, {0: (700, 30, 40, min(40 + 18 * k, 190))}) for k in range(40)] + [Frame(400, {})]
write("rmi4.nothing-palm-flagged-late", RMI4_PRESSURE, explicit(RMI4_PRESSURE, palm_ramp))

# A thumb resting under the palm threshold (pressure 60), landing 60 ms
# before two fingers that scroll down 30 mm beside it: a two-finger swipe, not a three-finger pinch.
write("rmi4.2-finger-swipe-down-with-light-resting-thumb", RMI4_PRESSURE,
      touches(RMI4_PRESSURE, [Finger(0, 700, still(25, 48), pressure=60)]
              + [Finger(60, 620, moving(50, 12, 0, 30, 160, 350))]
              + [Finger(60, 620, moving(64, 13, 0, 30, 160, 350))], hz=100, seed=81, jitter=0.2))

# Two fingers scroll 30 mm down; one lifts 250 ms before the other: the swipe
# is over, not cancelled.
write("p50.2-finger-swipe-down.staggered-lift", P50,
      touches(P50, [Finger(0, 560, moving(40, 12, 0, 30, 40, 350)), Finger(0, 810, moving(58, 13, 0, 30, 40, 350))],
              hz=80, seed=82, jitter=0.2))

# A tap on the X1 Carbon's Synaptics pad with a finger hovering before and
# after it: BTN_TOOL_FINGER without BTN_TOUCH for 150 ms each side (no slot).
# The first frame states BTN_TOUCH up, as a recording of the device's state does.
def hover_tap(x, y, hover_ms=150, contact_ms=80, hz=80):
    step, frames, t = 1000 / hz, [], 0.0
    ux, uy = units(X1, x, y)
    frames.append({"d": 0, "t": 0, "e": [[EV_KEY, BTN_TOUCH, 0], [EV_KEY, BTN_TOOL_FINGER, 1], [EV_SYN, SYN_REPORT, 0]]})
    t = step
    while t < hover_ms:
        frames.append({"d": 0, "t": int(round(t * 1000)), "e": [[EV_SYN, SYN_REPORT, 0]]}); t += step
    frames.append({"d": 0, "t": int(round(t * 1000)), "e": [
        [EV_ABS, ABS_MT_SLOT, 0], [EV_ABS, ABS_MT_TRACKING_ID, 800], [EV_ABS, ABS_MT_POSITION_X, ux],
        [EV_ABS, ABS_MT_POSITION_Y, uy], [EV_ABS, ABS_X, ux], [EV_ABS, ABS_Y, uy], [EV_KEY, BTN_TOUCH, 1], [EV_SYN, SYN_REPORT, 0]]})
    end = t + contact_ms; t += step
    while t < end:
        frames.append({"d": 0, "t": int(round(t * 1000)), "e": [[EV_ABS, ABS_MT_POSITION_X, ux + 1], [EV_ABS, ABS_X, ux + 1], [EV_SYN, SYN_REPORT, 0]]}); ux += 1; t += step
    frames.append({"d": 0, "t": int(round(t * 1000)), "e": [[EV_ABS, ABS_MT_TRACKING_ID, -1], [EV_KEY, BTN_TOUCH, 0], [EV_SYN, SYN_REPORT, 0]]})
    end = t + hover_ms; t += step
    while t < end:
        frames.append({"d": 0, "t": int(round(t * 1000)), "e": [[EV_SYN, SYN_REPORT, 0]]}); t += step
    frames.append({"d": 0, "t": int(round(t * 1000)), "e": [[EV_KEY, BTN_TOOL_FINGER, 0], [EV_SYN, SYN_REPORT, 0]]})
    return frames
write("x1carbon.1-finger-tap.hover", X1, hover_tap(50, 30))

# A palm touching down briefly at the side of the RMI4 (97 mm wide, so its
# palm zone is 7.8 mm): no tap. And a quick tap whose pressure rises and
# falls over four frames each way while it rolls 1.4 mm: a tap.
write("rmi4.nothing-1-finger-tap-at-the-side", RMI4_PRESSURE,
      explicit(RMI4_PRESSURE, [Frame(k * 10, {0: (710, 94, 30, 60)}) for k in range(8)] + [Frame(80, {})]))
roll = [(0, 20), (0.3, 40), (0.6, 55), (0.8, 62), (0.9, 64), (1.0, 64), (1.1, 63), (1.2, 62), (1.6, 55), (2.0, 40), (2.4, 22)]
write("rmi4.1-finger-tap.pressure-roll", RMI4_PRESSURE,
      explicit(RMI4_PRESSURE, [Frame(k * 10, {0: (720, 40 - dx, 30 + 0.3 * dx, p)}) for k, (dx, p) in enumerate(roll)]
               + [Frame(110, {})]))

# A thumb resting under the palm threshold while, 400 ms later, a finger
# lands beside it and moves the pointer 20 mm: pointer motion, no pinch.
write("rmi4.nothing-1-finger-pointer-beside-resting-thumb", RMI4_PRESSURE,
      touches(RMI4_PRESSURE, [Finger(0, 1000, still(30, 48), pressure=60),
                              Finger(400, 950, moving(60, 25, 20, -8, 450, 400))], hz=100, seed=83, jitter=0.2))

# A palm sliding over the pad under the palm threshold (pressure 60), which
# the firmware loses and finds again, as the Atmel maXTouch does on the
# Chromebook recordings: it lands and slides 5 mm over 150 ms, then comes
# back as contacts of 3-5 frames each 20-40 ms after the one before lifted,
# still while they last. No tap: each lands within the 60 ms relanding gap.
def palm_pieces(x, y, pieces, t0=0, tid=730, hz=100, pressure=60):
    """Frames of contacts at (x + dx, y) of `frames` frames each, the next
    one landing `gap` ms after the one before lifted: `pieces` is a list of
    (dx mm, frames, gap ms)."""
    step = 1000 / hz
    frames, t = [], t0
    for n, (dx, count, gap) in enumerate(pieces):
        for k in range(count):
            frames.append(Frame(t, {0: (tid + n, x + dx, y, pressure)}))
            t += step
        frames.append(Frame(t, {}))
        t += gap
    return frames
slide = [Frame(k * 10, {0: (729, 30 + 0.33 * k, 35, 60)}) for k in range(16)] + [Frame(160, {})]
write("rmi4.nothing-palm-relanding", RMI4_PRESSURE,
      explicit(RMI4_PRESSURE, slide + palm_pieces(36, 35, [(0, 4, 30), (1.5, 3, 20), (3, 5, 40), (4.5, 3, 25), (6, 4, 0)], t0=185)))
# The same palm brushing the pad in contacts seen in one or two frames
# (10-20 ms), 150 ms apart (past the relanding gap): no tap, since a tap
# lasts 30 ms at least.
write("rmi4.nothing-palm-brushing", RMI4_PRESSURE,
      explicit(RMI4_PRESSURE, palm_pieces(40, 30, [(0, 1, 150), (2, 2, 150), (4, 1, 150), (6, 2, 0)])))
# A palm resting in pieces: its first piece lasts 60 ms, still (alone, a
# tap), the next lands 15 ms after it lifted, and the last, 40 ms after the
# one before, rests 400 ms (alone, a hold). Nothing: a landing within the
# relanding gap is the contact before found again, so the first piece's tap
# is withdrawn and the last holds nothing (the Atmel maXTouch's
# palm_presence and palm_pointing recordings).
write("rmi4.nothing-palm-resting-in-pieces", RMI4_PRESSURE,
      explicit(RMI4_PRESSURE, palm_pieces(45, 30, [(0, 6, 15), (0.3, 2, 40), (0.5, 40, 0)], tid=780)))
# A quick double tap: the second landing 110 ms after the first lift, past
# the relanding gap: two taps.
write("rmi4.1-finger-double-tap.quick", RMI4_PRESSURE,
      explicit(RMI4_PRESSURE, palm_pieces(50, 30, [(0, 7, 110), (0.3, 7, 0)], tid=760)))
# A thumb resting 400 ms at the side of the pad (2 mm from the left edge,
# inside the 7.8 mm palm zone of the 97 mm RMI4): no hold, no tap.
write("rmi4.nothing-1-finger-hold-at-the-side", RMI4_PRESSURE,
      touches(RMI4_PRESSURE, [Finger(0, 400, still(2, 40), pressure=60)], hz=100, seed=84, jitter=0.1))

# A palm resting at the lower left (pressure 180: flagged) that the
# firmware loses for a frame and reports again under a new tracking id,
# unflagged (pressure 60), twice, while two fingers scroll down 30 mm beside
# it: a 2-finger swipe down. Without the rule each piece was a third finger
# that cancelled the swipe (the Atmel maXTouch's palm_scroll recordings).
def palm_coming_back(hz=100):
    step = 1000 / hz
    frames, t = [], 0.0
    pieces = [(0, 300, 740, 180), (310, 560, 741, 60), (570, 900, 742, 60)]
    while t <= 900:
        slots = {}
        for start, end, tid, p in pieces:
            if start <= t < end: slots[0] = (tid, 20 + 0.1 * ((t // 10) % 2), 45, p)
        if 100 <= t < 800:
            u = min(max((t - 200) / 450, 0), 1)
            slots[1] = (750, 50, 12 + 30 * u, 60)
            slots[2] = (751, 64, 12 + 30 * u, 60)
        frames.append(Frame(t, slots))
        t += step
    frames.append(Frame(t, {}))
    return frames
write("rmi4.2-finger-swipe-down-with-palm-coming-back", RMI4_PRESSURE, explicit(RMI4_PRESSURE, palm_coming_back()))

# A thumb resting under the palm threshold while a finger lands 400 ms
# later and moves the pointer 20 mm (a resting thumb, left out as a palm);
# at 700 ms the pad reports the thumb again under a new id, one frame before
# it ends the old one (the Atmel's thumb_pointing): still the thumb, so
# pointer motion, no pinch.
def thumb_coming_back(hz=100):
    step = 1000 / hz
    frames, t = [], 0.0
    while t <= 1000:
        slots = {}
        if t < 710: slots[0] = (770, 30, 48, 60)
        if t >= 700: slots[2] = (772, 30.2, 47.8, 60)
        if 400 <= t < 950:
            u = min(max((t - 450) / 400, 0), 1)
            slots[1] = (771, 60 + 20 * u, 25 - 8 * u, 60)
        frames.append(Frame(t, slots))
        t += step
    frames.append(Frame(t, {}))
    return frames
write("rmi4.nothing-1-finger-pointer-beside-thumb-coming-back", RMI4_PRESSURE, explicit(RMI4_PRESSURE, thumb_coming_back()))

# Mice: Recordings/devices/mouse.jsonl (REL_X, REL_Y, REL_WHEEL, three
# buttons) at 125 Hz, strokes drawn with the right button held, in mouse
# counts (y grows down). WHAT is stroke-TEMPLATE, click, press-held-then-
# dragged, or nothing-* (RecordingsReplayTests reads a mouse's names so).
MOUSE = load_device("mouse")
EV_REL, REL_X, REL_Y, BTN_RIGHT = 2, 0, 1, 273

def mouse_frames(steps, hz=125):
    """`steps`: (ms, dx, dy, right) per frame, right None for no change, 1
    pressed, 0 released; motion is summed in counts and rounded as a mouse's
    sensor does, carrying the remainder."""
    out, fx, fy = [], 0.0, 0.0
    for ms, dx, dy, right in steps:
        fx += dx; fy += dy
        ix, iy = int(round(fx)), int(round(fy))
        fx -= ix; fy -= iy
        events = []
        if ix: events.append([EV_REL, REL_X, ix])
        if iy: events.append([EV_REL, REL_Y, iy])
        if right is not None: events.append([EV_KEY, BTN_RIGHT, right])
        if not events: continue
        out.append({"d": 0, "t": int(round(ms * 1000)), "e": events + [[EV_SYN, SYN_REPORT, 0]]})
    return out

def mouse_stroke(points, size, duration=600, start=40, hz=125, after_ms=None):
    """The right button pressed at `start` ms, the polyline `points` (unit
    square, scaled to `size` counts) drawn over `duration` ms, released; with
    `after_ms`, a little pointer motion that long after the release."""
    lengths = [math.dist(a, b) for a, b in zip(points, points[1:])]
    total = sum(lengths)
    def at(u):
        u *= total
        for (a, b), l in zip(zip(points, points[1:]), lengths):
            if u <= l: return (a[0] + (b[0] - a[0]) * u / l, a[1] + (b[1] - a[1]) * u / l)
            u -= l
        return points[-1]
    step = 1000 / hz
    n = int(duration / step)
    steps = [(start, 0, 0, 1)]
    last = at(0)
    for k in range(1, n + 1):
        p = at(k / n)
        steps.append((start + k * step, (p[0] - last[0]) * size, (p[1] - last[1]) * size, None))
        last = p
    end = start + (n + 1) * step
    steps.append((end, 0, 0, 0))
    if after_ms is not None: steps += [(end + after_ms + k * step, 2, 1, None) for k in range(3)]
    return mouse_frames(steps, hz)

# The touchscreen's circle (from the top, anticlockwise, a little past the start), then the pointer moves on.
write("mouse.stroke-circle", MOUSE, mouse_stroke(CIRCLE, 240, after_ms=300))
# A click: pressed and released 90 ms later, wiggling 2 counts.
write("mouse.click", MOUSE, mouse_frames([(40, 0, 0, 1), (72, 1, 1, None), (104, -1, 0, None), (130, 0, 0, 0), (400, 3, 2, None)]))
# A press held still past the 300 ms press delay, then a drag: a press, no stroke.
write("mouse.press-held-then-dragged", MOUSE,
      mouse_frames([(40, 0, 0, 1)] + [(480 + k * 8, 6, 2, None) for k in range(40)] + [(480 + 40 * 8, 0, 0, 0)]))
# A scribble no template accepts: a stroke, rejected with its best template and score.
SCRIBBLE = [(0, 0.5), (0.15, 0.1), (0.3, 0.9), (0.42, 0.2), (0.55, 0.7), (0.6, 0.05), (0.8, 1), (0.85, 0.3), (1, 0.6)]
write("mouse.nothing-unmatched-stroke", MOUSE, mouse_stroke(SCRIBBLE, 200, duration=700))
# A thumb hovering over the bottom of the pad, touching it too lightly to
# mean anything (pressure 6 of 0-255, under the 5 % touch pressure), in
# pieces of 60-120 ms 300 ms apart, as the Cypress APA's hovering thumb
# (4-8 of 255) on the Chromebook recordings: no finger at all, so no tap
# (each piece was a 1-finger tap).
write("rmi4.nothing-hovering-thumb", RMI4_PRESSURE,
      explicit(RMI4_PRESSURE, palm_pieces(40, 48, [(0, 8, 300), (1, 12, 300), (2, 6, 0)], tid=790, pressure=6)))

# --- Resting thumbs on image sensors (issue 34) ------------------------------
# The Lenovo P50's Synaptics image sensor tracks two contacts in its two
# slots and counts more in BTN_TOOL_TRIPLETAP: with a thumb resting and two
# fingers scrolling, the slots hold the thumb (it landed first) and the
# first finger, and the second finger is only in the count.
def thumb_beside_scroll(thumb, a, b, travel, thumb_lands=0, fingers_land=400, ms=400, hz=80, thumb_pressure=100, pressure=60):
    """A thumb resting at `thumb` (mm) from `thumb_lands` ms, two fingers
    landing at `a` and `b` from `fingers_land` ms (the second 25 ms after the
    first) and moving together by `travel` (mm) over `ms`, on a 2-slot pad:
    slot 0 the thumb, slot 1 the first finger, the second in BTN_TOOL only."""
    step = 1000 / hz
    start, end = fingers_land + 50, fingers_land + 50 + ms
    lift = end + 60
    frames, k = [], 0
    while k * step <= lift + 150:
        t = k * step
        slots, tool = {}, 0
        if thumb_lands <= t < lift + 150:
            slots[0] = (800, thumb[0] + 0.1 * (k % 2), thumb[1], thumb_pressure); tool += 1
        u = min(max((t - start) / ms, 0), 1)
        u = u * u * (3 - 2 * u)
        if fingers_land <= t < lift:
            slots[1] = (801, a[0] + travel[0] * u, a[1] + travel[1] * u, pressure); tool += 1
        if fingers_land + 25 <= t < lift - 12: tool += 1
        frames.append(Frame(t, slots, tool=tool))
        k += 1
    frames.append(Frame(k * step, {}))
    return frames
# The thumb rests 5 mm above the lower edge (53.7 mm high), 400 ms before
# the fingers land, which scroll down 25 mm: a 2-finger swipe down, not a
# 3-finger pinch.
write("p50.2-finger-swipe-down-with-resting-thumb", P50,
      explicit(P50, thumb_beside_scroll((30, 48.7), (50, 10), (64, 11), (0, 25))))
# The same thumb landing with the fingers (30 ms before them), 4 mm above
# the lower edge, inside the 8 mm thumb zone (15 % of the height): a thumb
# still, so a 2-finger swipe down.
write("p50.2-finger-swipe-down-with-thumb-in-the-lower-edge", P50,
      explicit(P50, thumb_beside_scroll((35, 49.7), (50, 12), (63, 12.5), (0, 22), thumb_lands=370)))
# A finger held still in the middle of the pad while another, landing with
# it, moves away from it: a 2-finger pinch out, since nothing says the
# still one is a thumb (it landed with the other and is far from the lower edge).
write("p50.2-finger-pinch-out-about-a-still-finger", P50,
      explicit(P50, two_fingers(lambda u: (45, 25), lambda u: (55 + 20 * u, 27 + 4 * u), ms=400)))

# --- Hovering fingers on single-touch and semi-MT pads (issue 34) -----------
# A Synaptics PS/2 pad reports BTN_TOOL_FINGER and a position from a pressure
# above 0, and BTN_TOUCH from a pressure of 30 until it falls under 25: a
# finger approaching before a tap, leaving after it, or hovering between
# the two touches of a tap-and-a-half has a position, a light pressure and
# BTN_TOOL_FINGER, without BTN_TOUCH. On the semi-MT Cypress CyPS/2's real
# description (ABS_X/ABS_Y the one position, pressure 0-255), as the
# Synaptics semi-MT driver sends it.
def hovering(device, samples, hz=80):
    """`samples`: (x mm, y mm, pressure) per frame, pressure 0 for none;
    BTN_TOOL_FINGER while the pressure is above 0, BTN_TOUCH from 30 until
    under 25 (the Synaptics driver's hysteresis), slot 0 beside ABS_X/ABS_Y."""
    step, frames = 1000 / hz, []
    touching, tool, tid, last = False, False, 900, None
    for k, (x, y, p) in enumerate(samples):
        events = []
        if p > 0:
            ux, uy = units(device, x, y)
            if not tool: events += [[EV_ABS, ABS_MT_SLOT, 0], [EV_ABS, ABS_MT_TRACKING_ID, tid]]
            if last is None or last[0] != ux: events += [[EV_ABS, ABS_MT_POSITION_X, ux], [EV_ABS, ABS_X, ux]]
            if last is None or last[1] != uy: events += [[EV_ABS, ABS_MT_POSITION_Y, uy], [EV_ABS, ABS_Y, uy]]
            events += [[EV_ABS, ABS_MT_PRESSURE, p], [EV_ABS, ABS_PRESSURE, p]]
            last = (ux, uy)
        elif tool:
            events += [[EV_ABS, ABS_MT_TRACKING_ID, -1], [EV_ABS, ABS_PRESSURE, 0]]; tid += 1; last = None
        if not touching and p > 30: touching = True; events.append([EV_KEY, BTN_TOUCH, 1])
        elif touching and p < 25: touching = False; events.append([EV_KEY, BTN_TOUCH, 0])
        if (p > 0) != tool: tool = p > 0; events.append([EV_KEY, BTN_TOOL_FINGER, 1 if tool else 0])
        events.append([EV_SYN, SYN_REPORT, 0])
        frames.append({"d": 0, "t": int(round(k * step * 1000)), "e": events})
    return frames
def approach(x, y, dx, dy, pressures):
    """The finger drifting by (dx, dy) mm over the frames of `pressures`."""
    n = len(pressures)
    return [(x + dx * k / n, y + dy * k / n, p) for k, p in enumerate(pressures)]
# A quick tap (50 ms touching) from a finger that hovers 125 ms on its way
# down, drifting 2 mm, and 125 ms on its way up: a tap (while touching it
# lasts 50 ms; counted with the hover it lasted 300 ms, too long for one).
quick = (approach(48, 28, 2, 1, [4, 8, 12, 15, 18, 20, 21, 22, 23, 24])
         + [(50, 29, p) for p in (35, 48, 52, 40)]
         + approach(50, 29, 3, -1, [22, 20, 18, 15, 12, 10, 8, 6, 4, 3]) + [(0, 0, 0)] * 3)
write("cypress.1-finger-tap.hover", CYPRESS, hovering(CYPRESS, quick))
# A tap-and-a-half: a tap, the finger hovering 100 ms just over the pad,
# then landing again, resting 300 ms and dragging the pointer 20 mm: the
# tap, then no gesture (a hold that the drag cancels). Counted with the
# hover it was one long touch: a cancelled hold and no tap.
half = ([(40, 30, p) for p in (20, 36, 50, 55, 45)]
        + approach(40, 30, 1, 0.5, [22, 20, 18, 17, 16, 18, 20, 22])
        + [(41, 30.5, 50)] * 24 + approach(41, 30.5, 20, 5, [55] * 24) + [(61, 35.5, 20), (0, 0, 0), (0, 0, 0)])
write("cypress.1-finger-tap.hover-then-drag", CYPRESS, hovering(CYPRESS, half))

// The live view: the device's touches at their real place and size in
// millimetres, their trails since the fingers landed, the gesture being
// recognised and, when it ends, each binding's verdict. It draws what the
// daemon sends (its frames and its explanations) and decides nothing itself.
import { post } from "/api.js";

const TRAIL_POINTS = 2000;   // per touch: a long gesture at 120 Hz is well under this
const LATENCY_SAMPLES = 20000;

export class LiveView {
  /**
   * A view drawing into the elements of `root` whose ids start with `prefix`
   * (the live view's have none; the recordings' replay uses "replay-").
   * `replaying`: the lines come from a replay, which runs nothing and whose
   * drawing delay means nothing.
   */
  constructor(root, { prefix = "", replaying = false } = {}) {
    LiveView.makePanels(root, prefix);
    const part = (name) => root.querySelector(`#${prefix}${name}`);
    this.prefix = prefix;
    this.replaying = replaying;
    this.canvas = part("surface");
    this.caption = part("surface-caption");
    this.picker = part("device-picker");
    this.touchRows = part("touches").querySelector("tbody");
    this.gesture = part("gesture");
    this.verdicts = part("verdicts");
    this.verdictsEvent = part("verdicts-event");
    this.pending = [];            // published_ms of frames not yet drawn
    this.latencies = [];          // ms from the daemon publishing a frame to its drawing
    this.framesDrawn = 0;
    this.drawScheduled = false;
    this.reset();
    this.picker?.addEventListener("change", () => { this.pinned = true; this.choose(Number(this.picker.value)); });
    part("clear-trails")?.addEventListener("click", () => { this.trails.clear(); this.schedule(); });
    this.tryIt = part("try-it");
    this.tryIt?.addEventListener("change", () => post("/api/try", { on: this.tryIt.checked, stream: this.stream }).catch((error) => {
      this.tryIt.checked = false;
      this.verdictsEvent.textContent = `Cannot try: ${error.message}`;
    }));
    this.schedule();
  }

  /**
   * Fills `root`'s empty panels container from the page's one template: every id (and the
   * labels naming them) prefixed, the headings at the container's `data-level`, its hint.
   */
  static makePanels(root, prefix) {
    const container = root.querySelector("[data-panels]");
    if (!container || container.children.length) return;
    const copy = document.getElementById("view-panels").content.cloneNode(true);
    for (const element of copy.querySelectorAll("[id]")) element.id = prefix + element.id;
    for (const element of copy.querySelectorAll("[aria-labelledby]")) element.setAttribute("aria-labelledby", prefix + element.getAttribute("aria-labelledby"));
    const level = container.dataset.level;
    if (level) {
      for (const heading of copy.querySelectorAll("h3")) {
        const replacement = document.createElement(`h${level}`);
        replacement.id = heading.id;
        replacement.textContent = heading.textContent;
        heading.replaceWith(replacement);
      }
    }
    copy.querySelector(`#${prefix}verdicts-event`).textContent = container.dataset.hint ?? "";
    container.append(copy);
  }

  /** Forgets every device, touch and verdict (a replay starting again). */
  reset() {
    this.devices = new Map();     // id -> device line
    this.chosen = null;           // the device id drawn
    this.pinned = false;          // whether the person chose it (else the view follows the device that moves)
    this.frame = null;            // the latest frame of the chosen device
    this.trails = new Map();      // contact id -> [{x, y}]
    if (this.picker) this.picker.replaceChildren(new Option("No device yet", ""));
    this.gesture.replaceChildren(...this.rows([["Recognised", "nothing yet"]]));
    this.verdicts.replaceChildren();
    this.schedule();
  }

  /** Takes one line from the daemon. */
  take(message) {
    if (message.device) this.addDevice(message.device);
    else if (message.frame) this.takeFrame(message.frame, message.published_ms);
    else if (message.explanation) this.takeExplanation(message.explanation, message.device_id, message.trying === true);
    else if (message.removed) this.removeDevice(message.removed.device);
    else if (message.trying && this.tryIt) this.tryIt.checked = message.trying.on;
    else if (message.stream) this.stream = message.stream.id;
    else if (message.hello) this.caption.textContent = `The daemon runs with ${message.hello.configuration ?? "no file"} (${message.hello.bindings} bindings). Waiting for the first touch.`;
  }

  addDevice(device) {
    const known = this.devices.has(device.id);
    this.devices.set(device.id, device);
    if (!known && this.picker) {
      if (this.devices.size === 1) this.picker.textContent = "";
      const option = document.createElement("option");
      option.value = String(device.id);
      option.textContent = `${device.name} (${device.kind}${device.width_mm ? `, ${device.width_mm} × ${device.height_mm} mm` : ""})`;
      this.picker.append(option);
    }
    if (this.chosen === null) this.choose(device.id);
  }

  /** Forgets a device that went away: it leaves the picker; the view takes the next device touched. */
  removeDevice(id) {
    if (!this.devices.delete(id)) return;
    this.picker?.querySelector(`option[value="${id}"]`)?.remove();
    if (this.picker && this.devices.size === 0) this.picker.replaceChildren(new Option("No device yet", ""));
    if (this.chosen === id) {
      this.chosen = null;
      this.pinned = false;
      this.frame = null;
      this.caption.textContent = "The device went away; the view follows the next device touched.";
    }
  }

  choose(id) {
    this.chosen = id;
    if (this.picker) this.picker.value = String(id);
    this.frame = null;
    this.trails.clear();
    this.schedule();
  }

  takeFrame(frame, published) {
    // Until a device is chosen in the picker, the view follows whichever device is touched.
    if (!this.pinned && frame.device !== this.chosen && frame.contacts.length > 0 && this.devices.has(frame.device)) this.choose(frame.device);
    if (this.chosen === null || frame.device !== this.chosen) return;
    // A new touch after every finger lifted starts new trails.
    if (frame.contacts.length > 0 && this.frame && this.frame.contacts.length === 0) this.trails.clear();
    for (const contact of frame.contacts) {
      let trail = this.trails.get(contact.id);
      if (!trail) { trail = []; this.trails.set(contact.id, trail); }
      trail.push({ x: contact.x_mm, y: contact.y_mm });
      if (trail.length > TRAIL_POINTS) trail.splice(0, trail.length - TRAIL_POINTS);
    }
    this.frame = frame;
    if (typeof published === "number" && !this.replaying) this.pending.push(published);
    this.schedule();
  }

  takeExplanation(explanation, device, trying) {
    if (this.chosen !== null && device !== this.chosen) return;
    const event = explanation.event;
    this.showGesture(event, explanation);
    const ends = event.phase === undefined || event.phase === "end";
    if (ends) this.showVerdicts(event, explanation, trying);
  }

  showGesture(event, explanation) {
    const rows = [["Recognised", `${event.type}${event.phase ? ` ${event.phase}` : ""}${event.cancelled ? " (cancelled)" : ""}`]];
    if (event.fingers !== undefined) rows.push(["Fingers", String(event.fingers)]);
    if (event.source) rows.push(["Source", event.source]);
    if (event.direction) rows.push(["Direction", event.direction]);
    if (event.dx_mm !== undefined) rows.push(["Moved", `${event.dx_mm}, ${event.dy_mm} mm`]);
    if (event.edge) rows.push(["Edge", event.edge]);
    if (event.scale !== undefined) rows.push(["Scale", String(event.scale)]);
    if (event.angle_degrees !== undefined) rows.push(["Angle", `${event.angle_degrees}°`]);
    if (event.template) rows.push(["Shape", `${event.template}${event.score !== undefined ? ` (score ${event.score})` : ""}`]);
    if (event.name) rows.push(["Sequence", event.name]);
    if (explanation.stroke_rejected) rows.push(["Stroke rejected", explanation.stroke_rejected]);
    rows.push(["At", `${event.time_ms} ms`]);
    this.gesture.replaceChildren(...this.rows(rows));
  }

  /** Term and value pairs as the gesture list's children. */
  rows(pairs) {
    return pairs.flatMap(([term, value]) => {
      const dt = document.createElement("dt"); dt.textContent = term;
      const dd = document.createElement("dd"); dd.textContent = value;
      if (term === "Recognised") dd.id = `${this.prefix}gesture-kind`;
      return [dt, dd];
    });
  }

  showVerdicts(event, explanation, trying) {
    this.verdictsEvent.textContent = `${event.type}${event.phase ? ` ${event.phase}` : ""}${event.fingers !== undefined ? `, ${event.fingers} fingers` : ""}${event.direction ? `, ${event.direction}` : ""} at ${event.time_ms} ms on ${explanation.device}` +
      (explanation.not_considered ? `: no binding considers it: ${explanation.not_considered}` : explanation.bindings.length === 0 ? `: no binding is of this kind (${event.type})` : "");
    this.verdicts.replaceChildren(...explanation.bindings.map((verdict) => {
      const item = document.createElement("li");
      item.className = verdict.fired ? "fired" : "passed";
      const name = document.createElement("span"); name.className = "name"; name.textContent = verdict.binding;
      const path = document.createElement("span"); path.className = "path"; path.textContent = ` ${verdict.path}`;
      const reason = document.createElement("div"); reason.className = "reason";
      const fired = this.replaying ? "would fire (a replay runs nothing)" : trying ? "would fire (trying: not run)" : "fired";
      reason.textContent = (verdict.fired ? fired : `did not fire: ${verdict.reason}`) + (verdict.claimed ? ` · ${verdict.claim}` : "");
      item.append(name, path, reason);
      return item;
    }));
  }

  schedule() {
    if (this.drawScheduled) return;
    this.drawScheduled = true;
    requestAnimationFrame(() => { this.drawScheduled = false; this.draw(); });
  }

  draw() {
    const now = performance.timeOrigin + performance.now();
    for (const published of this.pending) this.latencies.push(now - published);
    if (this.latencies.length > LATENCY_SAMPLES) this.latencies.splice(0, this.latencies.length - LATENCY_SAMPLES);
    this.framesDrawn += this.pending.length;
    this.pending = [];
    const device = this.devices.get(this.chosen);
    const context = this.canvas.getContext("2d");
    const width = device?.width_mm || 100, height = device?.height_mm || 60;
    // The canvas keeps the device's proportions; a millimetre is `scale` pixels.
    const cssWidth = this.canvas.clientWidth || 640;
    const scale = (cssWidth * devicePixelRatio) / width;
    // Resized only when the size changes: setting a canvas's size makes its whole backing store again.
    const pixels = [Math.round(width * scale), Math.round(height * scale)];
    if (this.canvas.width !== pixels[0]) this.canvas.width = pixels[0];
    if (this.canvas.height !== pixels[1]) this.canvas.height = pixels[1];
    context.setTransform(scale, 0, 0, scale, 0, 0);
    context.clearRect(0, 0, width, height);
    this.drawGrid(context, width, height, scale);
    for (const [, trail] of this.trails) {
      context.beginPath();
      trail.forEach((point, index) => index === 0 ? context.moveTo(point.x, point.y) : context.lineTo(point.x, point.y));
      context.strokeStyle = "#1d4ed866";
      context.lineWidth = 1.2;
      context.stroke();
    }
    const contacts = this.frame?.contacts ?? [];
    for (const contact of contacts) this.drawContact(context, contact, device);
    this.showTouches(contacts, device);
    this.caption.textContent = !device ? "No device has sent a frame yet."
      : contacts.length === 0 ? `${device.name}: no finger down${this.trails.size ? " (the trails of the last touch)" : ""}.`
      : `${device.name}: ${this.frame.fingers} finger${this.frame.fingers === 1 ? "" : "s"} down at ${this.frame.time_ms} ms` +
        (this.frame.fingers > contacts.length ? ` (it reports the places of ${contacts.length}: it has ${device.slots} slots).` : ".");
  }

  drawGrid(context, width, height, scale) {
    context.lineWidth = 1 / scale;
    context.strokeStyle = "#8883";
    for (let x = 10; x < width; x += 10) { context.beginPath(); context.moveTo(x, 0); context.lineTo(x, height); context.stroke(); }
    for (let y = 10; y < height; y += 10) { context.beginPath(); context.moveTo(0, y); context.lineTo(width, y); context.stroke(); }
  }

  /** The contact's diameter in millimetres: its touch size where the device reports one, else 8 mm. */
  diameter(contact, device) {
    if (contact.touch_major !== undefined && device?.units_per_mm) return Math.max(3, contact.touch_major / device.units_per_mm);
    return 8;
  }

  drawContact(context, contact, device) {
    const radius = this.diameter(contact, device) / 2;
    context.beginPath();
    context.arc(contact.x_mm, contact.y_mm, radius, 0, 2 * Math.PI);
    context.fillStyle = contact.palm ? "#b4530999" : "#1d4ed8aa";
    context.fill();
    context.font = "3px system-ui, sans-serif";
    context.fillStyle = contact.palm ? "#b45309" : "#1d4ed8";
    context.fillText(`${contact.palm ? "palm " : ""}${contact.slot >= 0 ? `slot ${contact.slot}` : `#${contact.id}`}`, contact.x_mm + radius + 1, contact.y_mm);
  }

  showTouches(contacts, device) {
    this.touchRows.replaceChildren(...contacts.map((contact) => {
      const row = document.createElement("tr");
      const cells = [
        contact.slot >= 0 ? String(contact.slot) : "–",
        String(contact.id),
        `${contact.x_mm.toFixed(1)}, ${contact.y_mm.toFixed(1)}`,
        contact.pressure !== undefined ? String(contact.pressure) : "–",
        contact.touch_major !== undefined ? `${this.diameter(contact, device).toFixed(1)} mm` : "–",
        contact.palm ? "palm" : "",
      ];
      for (const [index, text] of cells.entries()) {
        const cell = document.createElement("td");
        cell.textContent = text;
        if (index === 5 && text) cell.className = "mark-palm";
        row.append(cell);
      }
      return row;
    }));
  }
}

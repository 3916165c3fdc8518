// The shapes view: draw a shape with the mouse or a finger on a drawing of a
// touchpad, see whether the daemon's stroke rule fires it and as what, and
// add drawn samples of a new shape to the template library (with the
// warning `gestures train` gives when a sample is too close to another
// shape). A shape can be drawn on the touchpad too: the next touch of the
// live view's device, its fingers' middle point from landing to lifting.
// The library lists each shape with its samples drawn small and the shapes
// it could be confused with. The verdicts are the server's: the page only draws.
import { post } from "/api.js";

const PAD = { width: 100, height: 65 };  // millimetres: what the drawing stands for
const SVG = "http://www.w3.org/2000/svg";
const THUMBNAILS = 8;  // samples drawn per shape

/** A small drawing of `points` ([[x, y], ...]) fitted into a square of `size` pixels. */
function thumbnail(points, size, label) {
  const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
  const left = Math.min(...xs), top = Math.min(...ys);
  const extent = Math.max(Math.max(...xs) - left, Math.max(...ys) - top) || 1;
  const scale = (size - 6) / extent;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.classList.add("thumbnail");
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", points.map(([x, y]) => `${(3 + (x - left) * scale).toFixed(1)},${(3 + (y - top) * scale).toFixed(1)}`).join(" "));
  const start = document.createElementNS(SVG, "circle");
  start.setAttribute("cx", (3 + (points[0][0] - left) * scale).toFixed(1));
  start.setAttribute("cy", (3 + (points[0][1] - top) * scale).toFixed(1));
  start.setAttribute("r", "2.5");
  svg.append(line, start);
  return svg;
}

export class ShapesView {
  /** `live`: the live view, whose device a shape can be drawn on. */
  constructor(root, live) {
    this.live = live;
    this.padButton = root.querySelector("#shape-on-pad");
    this.padButton.addEventListener("click", () => this.armPad(this.padButton.getAttribute("aria-pressed") !== "true"));
    this.padStroke = null;      // the touch being drawn on the pad: [[x, y] mm]
    this.canvas = root.querySelector("#shape-canvas");
    this.verdict = root.querySelector("#shape-verdict");
    this.libraryLine = root.querySelector("#shape-library");
    this.names = root.querySelector("#shape-names");
    this.nameInput = root.querySelector("#shape-name");
    this.sampleCount = root.querySelector("#shape-samples");
    this.trainStatus = root.querySelector("#shape-train-status");
    this.stroke = [];
    this.last = null;
    this.samples = [];
    root.querySelector("#shape-add-sample").addEventListener("click", () => this.addSample());
    root.querySelector("#shape-save").addEventListener("click", () => this.train());
    root.querySelector("#shape-clear").addEventListener("click", () => { this.stroke = []; this.last = null; this.draw(); });
    this.canvas.addEventListener("pointerdown", (event) => this.begin(event));
    this.canvas.addEventListener("pointermove", (event) => this.move(event));
    this.canvas.addEventListener("pointerup", (event) => this.end(event));
    this.canvas.addEventListener("pointercancel", () => { this.stroke = []; this.draw(); });
    this.draw();
  }

  async load() {
    const response = await fetch("/api/shapes", { credentials: "same-origin" });
    const answer = await response.json();
    if (answer.error) { this.libraryLine.textContent = answer.error; return; }
    this.libraryLine.textContent = answer.named ? `The configuration's library: ${answer.library}` : `The bundled shapes; a shape you train goes to ${answer.library}`;
    const counts = new Map();
    for (const template of answer.templates) counts.set(template.name, (counts.get(template.name) ?? 0) + 1);
    const confusions = new Map();
    for (const ambiguity of answer.ambiguities ?? []) {
      if (!confusions.has(ambiguity.name)) confusions.set(ambiguity.name, []);
      confusions.get(ambiguity.name).push(ambiguity);
    }
    this.names.replaceChildren(...[...counts].map(([name, count]) => {
      const item = document.createElement("li");
      item.dataset.name = name;
      const title = document.createElement("span");
      title.className = "shape-title";
      title.textContent = `${name} (${count} sample${count === 1 ? "" : "s"})`;
      const drawings = document.createElement("span");
      drawings.className = "thumbnails";
      const samples = answer.templates.filter((template) => template.name === name && template.points.length > 1);
      samples.slice(0, THUMBNAILS).forEach((template, index) => drawings.append(thumbnail(template.points, 40, `${name}, sample ${index + 1}`)));
      const note = document.createElement("span");
      note.className = "confusion";
      const mine = confusions.get(name) ?? [];
      const others = [...new Set(mine.map((a) => a.other))];
      note.textContent = mine.length
        ? `Could be confused with ${others.join(", ")}: ${mine[0].text}${mine.length > 1 ? ` (and ${mine.length - 1} more sample${mine.length > 2 ? "s" : ""})` : ""}.`
        : "Not within the margin of any other shape.";
      if (mine.length) note.classList.add("warning");
      item.append(title, drawings, note);
      return item;
    }));
  }

  /** Arms (or disarms) drawing on the touchpad: the next touch of the live view's device is the stroke. */
  armPad(on) {
    this.padButton.setAttribute("aria-pressed", String(on));
    this.padButton.textContent = on ? "Drawing on the touchpad: touch it now (press to stop)" : "Draw on the touchpad";
    this.padStroke = null;
    if (on) this.verdict.textContent = "Draw the shape on the touchpad; lift your fingers when it is done.";
  }

  /** Takes one line of the live stream: while armed, the chosen device's frames make the stroke. */
  take(message) {
    if (!message.frame || this.padButton.getAttribute("aria-pressed") !== "true") return;
    const frame = message.frame;
    if (this.live.chosen !== null && frame.device !== this.live.chosen) return;
    const contacts = frame.contacts.filter((contact) => !contact.palm);
    if (contacts.length > 0) {
      const x = contacts.reduce((sum, c) => sum + c.x_mm, 0) / contacts.length;
      const y = contacts.reduce((sum, c) => sum + c.y_mm, 0) / contacts.length;
      (this.padStroke ??= []).push([x, y]);
      this.stroke = this.padStroke;
      this.drawing = true;
      this.draw();
    } else if (this.padStroke) {
      const points = this.padStroke;
      this.padDrawn = points;
      this.padStroke = null;
      this.drawing = false;
      this.armPad(false);
      this.judge(points);
    }
  }

  /** The pointer's place in millimetres of the drawn pad. */
  at(event) {
    const box = this.canvas.getBoundingClientRect();
    return [((event.clientX - box.left) / box.width) * PAD.width, ((event.clientY - box.top) / box.height) * PAD.height];
  }

  begin(event) {
    this.canvas.setPointerCapture(event.pointerId);
    this.stroke = [this.at(event)];
    this.drawing = true;
    this.draw();
  }

  move(event) {
    if (!this.drawing) return;
    this.stroke.push(this.at(event));
    this.draw();
  }

  async end(event) {
    if (!this.drawing) return;
    this.drawing = false;
    this.stroke.push(this.at(event));
    await this.judge(this.stroke);
  }

  /** Shows `points` as the latest drawing and what the daemon's stroke rule says of them. */
  async judge(points) {
    this.last = points;
    this.draw();
    try {
      const answer = await post("/api/shapes/recognize", { points: this.last });
      this.verdict.textContent = answer.fires
        ? `The daemon would fire ${answer.match} (score ${answer.score}${answer.runner_up ? `; next ${answer.runner_up}, ${answer.runner_up_score}` : ""}).`
        : `The daemon would fire nothing: ${answer.verdict}`;
      this.verdict.dataset.match = answer.fires ? answer.match : "";
    } catch (error) {
      this.verdict.textContent = `Cannot judge the stroke: ${error.message}`;
    }
  }

  addSample() {
    if (!this.last || this.last.length < 2) { this.trainStatus.textContent = "Draw the shape first."; return; }
    this.samples.push(this.last);
    this.sampleCount.textContent = `${this.samples.length} sample${this.samples.length === 1 ? "" : "s"} drawn`;
    this.trainStatus.textContent = "";
  }

  async train() {
    const name = this.nameInput.value.trim();
    if (!this.samples.length) { this.trainStatus.textContent = "Add at least one drawn sample first."; return; }
    try {
      const answer = await post("/api/shapes/train", { name, samples: this.samples });
      this.samples = [];
      this.sampleCount.textContent = "0 samples drawn";
      const warnings = answer.ambiguities.length ? ` Warning: ${answer.ambiguities.join("; ")}.` : "";
      this.trainStatus.textContent = `Added ${answer.added} sample${answer.added === 1 ? "" : "s"} of ${name} to ${answer.library} (${answer.summary}); ${answer.note}.${warnings}`;
      this.load();
    } catch (error) {
      this.trainStatus.textContent = error.message;
    }
  }

  draw() {
    const context = this.canvas.getContext("2d");
    const scale = this.canvas.width / PAD.width;
    context.setTransform(scale, 0, 0, scale, 0, 0);
    context.clearRect(0, 0, PAD.width, PAD.height);
    context.strokeStyle = "#8884";
    context.lineWidth = 0.3;
    context.strokeRect(0.5, 0.5, PAD.width - 1, PAD.height - 1);
    let points = this.drawing ? this.stroke : this.last ?? [];
    if (points.length < 2) return;
    // A stroke from the touchpad is in its millimetres: drawn in the middle of the box, shrunk to fit when larger.
    if (points === this.padStroke || points === this.padDrawn) {
      const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
      const left = Math.min(...xs), top = Math.min(...ys), width = Math.max(...xs) - left, height = Math.max(...ys) - top;
      const fit = Math.min(1, (PAD.width - 4) / (width || 1), (PAD.height - 4) / (height || 1));
      const dx = (PAD.width - width * fit) / 2, dy = (PAD.height - height * fit) / 2;
      points = points.map(([x, y]) => [dx + (x - left) * fit, dy + (y - top) * fit]);
    }
    context.beginPath();
    points.forEach(([x, y], index) => index === 0 ? context.moveTo(x, y) : context.lineTo(x, y));
    context.strokeStyle = "#1d4ed8";
    context.lineWidth = 1.2;
    context.lineCap = "round";
    context.lineJoin = "round";
    context.stroke();
  }
}

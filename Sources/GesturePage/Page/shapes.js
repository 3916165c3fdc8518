// The shapes view: draw a shape with the mouse or a finger on a drawing of a
// touchpad, see whether the daemon's stroke rule fires it and as what, and
// add drawn samples of a new shape to the template library (with the
// warning `gestures train` gives when a sample is too close to another
// shape). The verdicts are the server's: the page only draws.
import { post } from "/api.js";

const PAD = { width: 100, height: 65 };  // millimetres: what the drawing stands for

export class ShapesView {
  constructor(root) {
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
    this.names.replaceChildren(...[...counts].map(([name, count]) => {
      const item = document.createElement("li");
      item.textContent = `${name} (${count} sample${count === 1 ? "" : "s"})`;
      return item;
    }));
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
    this.last = this.stroke;
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
    const points = this.drawing ? this.stroke : this.last ?? [];
    if (points.length < 2) return;
    context.beginPath();
    points.forEach(([x, y], index) => index === 0 ? context.moveTo(x, y) : context.lineTo(x, y));
    context.strokeStyle = "#1d4ed8";
    context.lineWidth = 1.2;
    context.lineCap = "round";
    context.lineJoin = "round";
    context.stroke();
  }
}

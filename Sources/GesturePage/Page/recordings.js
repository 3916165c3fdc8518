// The recordings view: record the device the live view shows (the daemon
// sends its events as read; the server writes the trace), import libinput
// record and evemu files, and replay a recording through the daemon's own
// engine on a timeline, drawn as the live view draws the daemon's lines.
import { post } from "/api.js";
import { LiveView } from "/live.js";

/** A line's moment on the replay's timeline, in milliseconds (a device line comes first). */
function momentOf(line) {
  if (line.frame) return line.frame.time_ms;
  if (line.explanation) return line.explanation.event.time_ms;
  return -Infinity;
}

export class RecordingsView {
  constructor(root, live) {
    this.live = live;
    this.nameInput = root.querySelector("#recording-name");
    this.startButton = root.querySelector("#record-start");
    this.stopButton = root.querySelector("#record-stop");
    this.status = root.querySelector("#record-status");
    this.importInput = root.querySelector("#import-file");
    this.importStatus = root.querySelector("#import-status");
    this.folder = root.querySelector("#recordings-folder");
    this.list = root.querySelector("#recording-list");
    this.playButton = root.querySelector("#replay-play");
    this.timeline = root.querySelector("#replay-timeline");
    this.timeLabel = root.querySelector("#replay-time");
    this.replay = new LiveView(root, { prefix: "replay-", replaying: true });
    this.lines = [];          // the replay's lines, each with its moment
    this.fed = 0;             // how many of them the replay view has taken
    this.shownTime = -Infinity;
    this.recording = null;    // {device, name, frames} while recording
    this.startButton.addEventListener("click", () => this.start());
    this.stopButton.addEventListener("click", () => this.stop());
    this.importInput.addEventListener("change", () => this.importFile());
    this.timeline.addEventListener("input", () => { this.pause(); this.seek(Number(this.timeline.value)); });
    this.playButton.addEventListener("click", () => (this.playing ? this.pause() : this.play()));
  }

  /** Takes one line of the live stream: counts the recorded device's frames. */
  take(message) {
    if (message.recording) {
      if (!message.recording.on && this.recording) this.status.textContent = "The daemon stopped recording; press Stop and save to keep what came.";
    } else if (message.frame && this.recording && message.frame.contacts.length > 0 && this.recording.device === null) {
      this.recording.device = message.frame.device;
      this.recording.name = this.live.devices.get(message.frame.device)?.name ?? `device ${message.frame.device}`;
    }
    if (message.frame && this.recording && message.frame.device === this.recording.device) {
      this.recording.frames += 1;
      if (this.recording.frames % 10 === 1) this.status.textContent = `Recording ${this.recording.name}: ${this.recording.frames} frames.`;
    }
  }

  async load() {
    const response = await fetch("/api/recordings", { credentials: "same-origin" });
    const answer = await response.json();
    if (answer.error) { this.folder.textContent = answer.error; return; }
    this.folder.textContent = answer.recordings.length ? `In ${answer.folder}, newest first.` : `None yet in ${answer.folder}.`;
    this.list.replaceChildren(...answer.recordings.map((recording) => {
      const item = document.createElement("li");
      item.dataset.name = recording.name;
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `Replay ${recording.name}`;
      button.addEventListener("click", () => this.open(recording.name, item));
      const meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = `${recording.device ?? "unknown device"} · ${(recording.bytes / 1024).toFixed(1)} KiB · ${recording.modified}`;
      item.append(button, meta);
      return item;
    }));
  }

  async start() {
    // The device picked in the live view, else the first device touched from now on.
    const device = this.live.pinned ? this.live.chosen : null;
    const name = device === null ? "the next device touched" : this.live.devices.get(device)?.name ?? `device ${device}`;
    try {
      await post("/api/recordings/start", { device });
    } catch (error) { this.status.textContent = `Cannot record: ${error.message}`; return; }
    this.recording = { device, name, frames: 0 };
    this.startButton.disabled = true;
    this.stopButton.disabled = false;
    this.status.textContent = `Recording ${name}: use the device now, then press Stop and save.`;
  }

  async stop() {
    this.startButton.disabled = false;
    this.stopButton.disabled = true;
    this.recording = null;
    try {
      const saved = await post("/api/recordings/stop", { name: this.nameInput.value.trim() });
      this.status.textContent = `Saved ${saved.saved}: ${saved.frames} frames, ${saved.events} events, ${saved.seconds} s` +
        (saved.lost ? `; ${saved.lost} frames did not reach the page's server in time and are missing.` : ".");
      this.nameInput.value = "";
      await this.load();
    } catch (error) { this.status.textContent = error.message; }
  }

  async importFile() {
    const file = this.importInput.files[0];
    if (!file) return;
    this.importStatus.textContent = `Importing ${file.name}…`;
    try {
      const saved = await post("/api/recordings/import", { name: file.name, text: await file.text() });
      this.importStatus.textContent = `Imported ${file.name} as ${saved.name}: ${saved.frames} frames, ${saved.seconds} s.`;
      await this.load();
    } catch (error) { this.importStatus.textContent = error.message; }
    this.importInput.value = "";
  }

  /** Replays recording `name` through the daemon's engine and shows it from its start. */
  async open(name, item) {
    this.pause();
    for (const other of this.list.children) other.classList.toggle("selected", other === item);
    this.replay.caption.textContent = `Replaying ${name} through the engine…`;
    let answer;
    try { answer = await post("/api/recordings/replay", { name }); } catch (error) { this.replay.caption.textContent = error.message; return; }
    this.lines = answer.lines.map((line) => ({ line, at: momentOf(line) }));
    const end = Math.max(0, ...this.lines.map((entry) => entry.at).filter(Number.isFinite));
    this.timeline.max = String(Math.ceil(end));
    this.timeline.disabled = false;
    this.playButton.disabled = false;
    this.name = name;
    this.seek(Math.ceil(end));
  }

  /** Shows the replay as it stood at `time` ms: every line up to it taken, in order. */
  seek(time) {
    if (time < this.shownTime) { this.replay.reset(); this.fed = 0; }
    while (this.fed < this.lines.length && this.lines[this.fed].at <= time) this.replay.take(this.lines[this.fed++].line);
    this.shownTime = time;
    this.timeline.value = String(Math.round(time));
    this.timeLabel.textContent = `${Math.round(time)} of ${this.timeline.max} ms`;
  }

  play() {
    if (Number(this.timeline.value) >= Number(this.timeline.max)) this.seek(-1);
    this.playing = true;
    this.playButton.textContent = "Pause";
    let last = performance.now();
    const step = (now) => {
      if (!this.playing) return;
      const time = Math.min(Number(this.timeline.max), this.shownTime + (now - last));
      last = now;
      this.seek(time);
      if (time >= Number(this.timeline.max)) { this.pause(); return; }
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  pause() {
    this.playing = false;
    this.playButton.textContent = "Play";
  }
}

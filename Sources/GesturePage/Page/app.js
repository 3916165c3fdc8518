// The page: starts the live view and shows whether a daemon is watched.
import { live } from "/api.js";
import { LiveView } from "/live.js";
import { BindingsView } from "/bindings.js";
import { ShapesView } from "/shapes.js";
import { RecordingsView } from "/recordings.js";

const status = document.getElementById("daemon-status");
const view = new LiveView(document.getElementById("live"));
const bindings = new BindingsView(document.getElementById("bindings"), view);
const shapes = new ShapesView(document.getElementById("shapes"), view);
const recordings = new RecordingsView(document.getElementById("recordings"), view);
window.gesturesPage = { view, bindings, shapes, recordings };

// One view at a time, chosen by the address's #: the links in the header are the tabs.
const views = ["live", "bindings", "shapes", "recordings", "doctor"];

// The doctor's checks, as `gestures doctor --format json` gives them.
async function runDoctor() {
  const list = document.getElementById("doctor-checks");
  list.replaceChildren();
  const report = await (await fetch("/api/doctor", { credentials: "same-origin" })).json();
  list.replaceChildren(...report.checks.map((check) => {
    const item = document.createElement("li");
    item.className = `check ${check.status}`;
    const head = document.createElement("p");
    const status = document.createElement("strong");
    status.textContent = `${check.status} · ${check.area}: `;
    head.append(status, document.createTextNode(check.summary));
    item.append(head);
    for (const detail of check.details) { const p = document.createElement("p"); p.className = "detail"; p.textContent = detail; item.append(p); }
    if (check.fix) { const p = document.createElement("p"); p.className = "fix"; p.textContent = `What to do: ${check.fix}`; item.append(p); }
    return item;
  }));
}
document.getElementById("doctor-run").addEventListener("click", runDoctor);
function show() {
  const chosen = views.includes(location.hash.slice(1)) ? location.hash.slice(1) : "live";
  for (const name of views) {
    document.getElementById(name).hidden = name !== chosen;
    const tab = document.getElementById(`tab-${name}`);
    if (name === chosen) tab.setAttribute("aria-current", "page"); else tab.removeAttribute("aria-current");
  }
  if (chosen === "bindings" && !bindings.loaded) { bindings.loaded = true; bindings.load(); }
  if (chosen === "shapes" && !shapes.loaded) { shapes.loaded = true; shapes.load(); }
  if (chosen === "recordings" && !recordings.loaded) { recordings.loaded = true; recordings.load(); }
  if (chosen === "doctor" && !document.getElementById("doctor-checks").children.length) runDoctor();
}
window.addEventListener("hashchange", show);
show();

live((message) => {
  if (message.daemon) {
    status.textContent = message.daemon.reason;
    status.className = message.daemon.connected ? "connected" : "disconnected";
    return;
  }
  if (message.windows) { bindings.takeWindows(message.windows); return; }
  view.take(message);
  recordings.take(message);
  shapes.take(message);
});

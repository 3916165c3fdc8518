// The page: starts the live view and shows whether a daemon is watched.
import { live } from "/api.js";
import { LiveView } from "/live.js";
import { BindingsView } from "/bindings.js";
import { ShapesView } from "/shapes.js";

const status = document.getElementById("daemon-status");
const view = new LiveView(document.getElementById("live"));
const bindings = new BindingsView(document.getElementById("bindings"));
const shapes = new ShapesView(document.getElementById("shapes"));
window.gesturesPage = { view, bindings, shapes };

// One view at a time, chosen by the address's #: the links in the header are the tabs.
const views = ["live", "bindings", "shapes"];
function show() {
  const chosen = views.includes(location.hash.slice(1)) ? location.hash.slice(1) : "live";
  for (const name of views) {
    document.getElementById(name).hidden = name !== chosen;
    const tab = document.getElementById(`tab-${name}`);
    if (name === chosen) tab.setAttribute("aria-current", "page"); else tab.removeAttribute("aria-current");
  }
  if (chosen === "bindings" && !bindings.loaded) { bindings.loaded = true; bindings.load(); }
  if (chosen === "shapes" && !shapes.loaded) { shapes.loaded = true; shapes.load(); }
}
window.addEventListener("hashchange", show);
show();

live((message) => {
  if (message.daemon) {
    status.textContent = message.daemon.reason;
    status.className = message.daemon.connected ? "connected" : "disconnected";
    return;
  }
  view.take(message);
});

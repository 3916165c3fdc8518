// The page: starts the live view and shows whether a daemon is watched.
import { live } from "/api.js";
import { LiveView } from "/live.js";

const status = document.getElementById("daemon-status");
const view = new LiveView(document.getElementById("live"));
window.gesturesPage = { view };

live((message) => {
  if (message.daemon) {
    status.textContent = message.daemon.reason;
    status.className = message.daemon.connected ? "connected" : "disconnected";
    return;
  }
  view.take(message);
});

// The page's one way to the server: the session (its CSRF token), changes
// carrying that token, and the live stream. Every view imports this module.

let session = null;

/** The session: `{csrf, socket, configuration}`, asked once. */
export async function getSession() {
  if (!session) {
    const response = await fetch("/api/session", { credentials: "same-origin" });
    if (!response.ok) throw new Error(await response.text());
    session = await response.json();
  }
  return session;
}

/** POSTs `body` (an object, sent as JSON) to `path` with the CSRF token; the parsed answer. */
export async function post(path, body = {}) {
  const { csrf } = await getSession();
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Gestures-CSRF": csrf },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let answer;
  try { answer = JSON.parse(text); } catch { answer = { error: text.trim() }; }
  if (!response.ok) throw Object.assign(new Error(answer.error || text), { answer, status: response.status });
  return answer;
}

/** Calls `onMessage(object)` for each line of the live stream; returns the EventSource. */
export function live(onMessage) {
  const source = new EventSource("/api/live");
  source.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    onMessage(message);
  };
  return source;
}

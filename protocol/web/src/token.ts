// The bearer token travels only in the URL fragment (never sent to the
// server in a request line, so never in a log), then in sessionStorage (this
// browser tab only) and the Authorization header. It is taken off the
// address bar at once. A page opened by `serve --http --open` carries a
// one-time code instead (the token is never in a command line), which it
// trades for the token at /launch once.

const key = "editord.token";

export function takeToken(): string | null {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem(key, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(key);
}

export function forgetToken(): void {
  sessionStorage.removeItem(key);
}

/** Trades a launch link's one-time code for the token, once. */
export async function claimLaunch(): Promise<void> {
  const m = /(?:^#|&)code=([^&]+)/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    const r = await fetch("/launch", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code: decodeURIComponent(m[1]) }) });
    if (r.ok) sessionStorage.setItem(key, String((await r.json()).token));
  } catch {
    // No token: the page says how to get one.
  }
}

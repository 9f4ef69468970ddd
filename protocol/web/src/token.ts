// The bearer token travels only in the URL fragment (never sent to the
// server in a request line, so never in a log), then in sessionStorage (this
// browser tab only) and the Authorization header. It is taken off the
// address bar at once.

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

/* The referee console's service worker (served by referee.console.views.service_worker
 * at {{ scope }}sw.js, so its scope is the console's): the console opens offline with its
 * queue (kept in localStorage by the page).
 *
 * - static assets: cache first (their list comes from the server, with the URLs the page
 *   uses);
 * - the console page and its web app manifest: network first, the last good copy when there
 *   is no network;
 * - /api/: never touched, never cached (its answers hold a referee's cards);
 * - signing out forgets the cached page, and so does an answer that is not the console (the
 *   session is over: the sign-in page); a cached copy is never served after the moment
 *   its session ends (its X-Session-Ends header), offline either: it is forgotten then. */
"use strict";

const CACHE = "referee-console-{{ version }}";
const PAGE = {{ page|safe }};
const LOGOUT = {{ logout|safe }};
const STATIC = {{ static_prefix|safe }};
const ASSETS = {{ assets|safe }};
const MANIFEST = {{ manifest|safe }};
const SESSION_ENDS = {{ session_ends_header|safe }};

/** A cached console page whose session has ended (its account's): not to be shown. */
function ended(response) {
  const ends = Number(response.headers.get(SESSION_ENDS));
  return ends > 0 && Date.now() >= ends;
}

self.addEventListener("install", (event) => {
  // The page that registered the worker is kept at once (unless it answers the sign-in
  // page: a redirect), so a reload offline right after it still opens the console.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS.concat([MANIFEST])).then(() => fetch(PAGE, { credentials: "same-origin" })
    .then((page) => (page.ok && !page.redirected ? cache.put(PAGE, page) : undefined), () => undefined)))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => name.startsWith("referee-console-") && name !== CACHE)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  if (request.method === "POST" && url.pathname === LOGOUT) {
    event.waitUntil(caches.open(CACHE).then((cache) => cache.delete(PAGE)));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname === PAGE || url.pathname === MANIFEST) {
    const path = url.pathname;
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok && !response.redirected && response.type === "basic") {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(path, copy));
          } else if (path === PAGE && (response.redirected || response.type === "opaqueredirect")) {
            caches.open(CACHE).then((cache) => cache.delete(PAGE));
          }
          return response;
        })
        .catch(() => caches.open(CACHE).then((cache) => cache.match(path).then((hit) => {
          if (hit && path === PAGE && ended(hit)) return cache.delete(PAGE).then(() => Response.error());
          return hit || Response.error();
        }))),
    );
    return;
  }
  if (url.pathname.startsWith(STATIC)) {
    event.respondWith(
      caches.open(CACHE).then((cache) => cache.match(request).then((hit) => hit || fetch(request).then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      }))),
    );
  }
});

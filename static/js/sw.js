// The service worker. Served by games/pwa.py, which puts VERSION, SHELL (the app shell's
// static files), OFFLINE_URL and STATIC_URL above this line.
//
// Static files with hashed names never change: they come from the cache first, so a page
// opens at once. Pages always come from the network (they hold the group's private scores,
// which are never cached); without a connection the offline page says so.

const STATIC_CACHE = `static-${VERSION}`;
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC_CACHE).then((cache) =>
      // One missing file must not keep the worker from installing.
      Promise.all([...SHELL, OFFLINE_URL].map((url) => cache.add(url).catch(() => undefined))),
    ).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name !== STATIC_CACHE).map((name) => caches.delete(name)),
      ))
      // Pages are asked for while the worker starts, so going through it costs no time.
      .then(() => self.registration.navigationPreload?.enable())
      .then(() => self.clients.claim()),
  );
});

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(STATIC_CACHE);
    cache.put(request, response.clone());
  }
  return response;
}

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const cache = await caches.open(STATIC_CACHE);
      cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request);
    if (cached) return cached;
    throw error;
  }
}

async function page(event) {
  try {
    return (await event.preloadResponse) || (await fetch(event.request));
  } catch (error) {
    const offline = await caches.match(OFFLINE_URL);
    if (offline) return offline;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_URL)) {
    event.respondWith(HASHED.test(url.pathname) ? cacheFirst(request) : networkFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(event));
  }
});

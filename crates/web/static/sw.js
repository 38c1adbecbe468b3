// pencilbox's service worker (static build only): precaches every file of the build, so the
// playground opens and works offline after its first load and installs as an app.
// scripts/build-web.sh fills in VERSION (a hash of the build's files) and FILES: a new build
// is a new sw.js, which the browser installs as an update; the old cache is then deleted.
'use strict';

const VERSION = '__VERSION__';
const FILES = [__FILES__];
const CACHE = `pencilbox-${VERSION}`;

self.addEventListener('install', (ev) => {
  ev.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Straight from the network, not from the HTTP cache: the files of this very build.
    await cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('pencilbox-') && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// Cache first (the cache holds exactly this build); a page address with a query (`?url=`) or
// any navigation inside the scope opens the cached page.
self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  ev.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(req, { ignoreSearch: req.mode === 'navigate' });
    if (hit) return hit;
    if (req.mode === 'navigate') {
      const page = await cache.match('./');
      if (page) return page;
    }
    return fetch(req);
  })());
});

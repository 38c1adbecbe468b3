// Served by `pencilbox serve` as /sw.js: the page it serves registers no service worker, but a
// browser that once opened the static build (scripts/build-web.sh) at this same address still
// has that build's service worker, which would keep answering with its cached copy. When the
// browser checks that worker for an update it gets this one, which removes itself and the
// cached copy, and reloads the open pages from the server.
'use strict';

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (ev) => {
  ev.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('pencilbox-')) await caches.delete(key);
    }
    await self.registration.unregister();
    for (const client of await self.clients.matchAll({ type: 'window' })) client.navigate(client.url);
  })());
});

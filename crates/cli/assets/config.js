// Where the page's API runs: `pencilbox serve` serves this file as it is (the server's JSON
// API); scripts/build-web.sh writes its own for the static build (a Web Worker running the
// WebAssembly API, and a service worker for offline use).
window.PENCILBOX = { api: 'server' };

// Service worker: makes the app installable and lets it open offline. The shell is fetched
// network-first (so a release shows up at once) and falls back to the copy cached at install;
// API reads are network-first and fall back to their last copy, marked as such; the live
// stream, requests that carry a token and everything not ours pass straight through.

const VERSION = '2026-11-25.1';
const SHELL_CACHE = `waymark-shell-${VERSION}`;
const API_CACHE = 'waymark-api-v1';

// Keep in step with the modules preloaded by index.html (a browser test checks both lists).
const SHELL = [
  '/',
  '/app.css',
  '/app.js',
  '/manifest.webmanifest',
  '/icons/icon.svg',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/apple-touch-icon.png',
  // modules:begin
  '/accounts/analytics.js',
  '/accounts/delete-account.js',
  '/accounts/forgot-password.js',
  '/accounts/forms.js',
  '/accounts/home.js',
  '/accounts/index.js',
  '/accounts/outbox-view.js',
  '/accounts/outbox.js',
  '/accounts/panel.js',
  '/accounts/password-policy.js',
  '/accounts/permits.js',
  '/accounts/register.js',
  '/accounts/schedule-format.js',
  '/accounts/schedule-grid.js',
  '/accounts/schedule.js',
  '/accounts/session.js',
  '/accounts/units.js',
  '/accounts/update-account.js',
  '/accounts/wallet-api.js',
  '/accounts/wallet.js',
  '/car/car-store.js',
  '/car/car.js',
  '/map/background.js',
  '/map/camera.js',
  '/map/gestures.js',
  '/map/index.js',
  '/map/pins.js',
  '/map/projection.js',
  '/map/rects.js',
  '/map/shapes.js',
  '/map/tiles.js',
  '/notifications/api.js',
  '/notifications/inbox.js',
  '/notifications/live.js',
  '/notifications/watches.js',
  '/parking/booking-form.js',
  '/parking/bookings-api.js',
  '/parking/bookings-view.js',
  '/parking/colours.js',
  '/parking/format.js',
  '/parking/histogram.js',
  '/parking/hold-bar.js',
  '/parking/hold-format.js',
  '/parking/hold-layer.js',
  '/parking/holds.js',
  '/parking/index.js',
  '/parking/layers.js',
  '/parking/level-picker.js',
  '/parking/live.js',
  '/parking/lot-card.js',
  '/parking/lot-finder.js',
  '/parking/lot-list.js',
  '/parking/reviews-api.js',
  '/parking/reviews.js',
  '/parking/snapshot-cache.js',
  '/parking/star-picker.js',
  '/parking/status.js',
  '/parking/store.js',
  '/shell/api.js',
  '/shell/dialog.js',
  '/shell/dom.js',
  '/shell/modules.js',
  '/shell/money.js',
  '/shell/theme.js',
  '/shell/toast.js',
  '/shell/zoned-time.js',
  // modules:end
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('waymark-shell-') && key !== SHELL_CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path.endsWith('/live') || path === '/health' || path === '/ready' || path === '/metrics') return;
  // A price and the spaces left are only true now; an old copy would mislead (PRK-12).
  if (path.endsWith('/booking-quote')) return;
  // One person's data (a token goes with it) is never kept: sign-out must leave nothing behind (ACC-3).
  if (request.headers.has('Authorization')) return;
  if (path.startsWith('/v1/')) {
    event.respondWith(apiNetworkFirst(request));
  } else if (request.mode === 'navigate' || SHELL.includes(path)) {
    event.respondWith(shellNetworkFirst(request));
  }
});

async function shellNetworkFirst(request) {
  const cache = await caches.open(SHELL_CACHE);
  const key = request.mode === 'navigate' ? '/' : request;
  try {
    const response = await withTimeout(fetch(request), 4000);
    if (response.ok && response.type === 'basic') cache.put(key, response.clone());
    return response;
  } catch {
    const copy = await cache.match(key, { ignoreSearch: true });
    return copy ?? Response.error();
  }
}

async function apiNetworkFirst(request) {
  const cache = await caches.open(API_CACHE);
  try {
    const response = await withTimeout(fetch(request), 8000);
    if (response.ok) {
      const headers = new Headers(response.headers);
      headers.set('x-waymark-saved-at', new Date().toISOString());
      const body = await response.clone().blob();
      cache.put(request, new Response(body, { status: response.status, headers }));
    }
    return response;
  } catch {
    const copy = await cache.match(request);
    if (!copy) {
      return new Response(JSON.stringify({ type: 'about:blank', title: 'Offline', status: 503, detail: 'The server cannot be reached and no saved copy exists.' }),
        { status: 503, headers: { 'Content-Type': 'application/problem+json' } });
    }
    const headers = new Headers(copy.headers);
    headers.set('x-waymark-from-cache', '1');
    return new Response(await copy.blob(), { status: copy.status, headers });
  }
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
  });
}

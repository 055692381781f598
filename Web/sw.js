// Service worker: makes the app installable and lets it open offline. The shell is fetched
// network-first (so a release shows up at once) and falls back to the copy cached at install;
// a navigation to any screen's path is answered with the shell's page; API reads are
// network-first and fall back to their last copy, marked as such; the live streams, requests
// that carry a token and everything not ours pass straight through. It also shows what the
// server pushes (PRK-22) and opens the screen a notification is about when it is clicked.

const VERSION = '2026-11-29.9';
const SHELL_CACHE = `waymark-shell-${VERSION}`;
const API_CACHE = 'waymark-api-v1';

// Keep in step with the modules preloaded and the stylesheets linked by index.html: both lists
// are written by scripts/web-modules, and a browser test checks them.
const SHELL = [
  '/',
  '/app.js',
  '/manifest.webmanifest',
  '/icons/icon.svg',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/apple-touch-icon.png',
  // modules:begin
  '/accounts/analytics.js',
  '/accounts/api.js',
  '/accounts/area.js',
  '/accounts/card-payment.js',
  '/accounts/delete-account.js',
  '/accounts/forgot-password.js',
  '/accounts/forms.js',
  '/accounts/home.js',
  '/accounts/index.js',
  '/accounts/operate-changes.js',
  '/accounts/operate-closures.js',
  '/accounts/operate-gateways.js',
  '/accounts/operate-lot-form.js',
  '/accounts/operate-parts.js',
  '/accounts/operate-permits.js',
  '/accounts/operate-rows.js',
  '/accounts/operate-sensors.js',
  '/accounts/operate-spots.js',
  '/accounts/operate-team.js',
  '/accounts/operate.js',
  '/accounts/outbox-view.js',
  '/accounts/outbox.js',
  '/accounts/panel.js',
  '/accounts/password-policy.js',
  '/accounts/permits.js',
  '/accounts/register.js',
  '/accounts/saved-reads.js',
  '/accounts/session.js',
  '/accounts/units.js',
  '/accounts/update-account.js',
  '/accounts/wallet.js',
  '/areas.js',
  '/car/car-store.js',
  '/car/car.js',
  '/map/background.js',
  '/map/camera.js',
  '/map/gestures.js',
  '/map/index.js',
  '/map/labels.js',
  '/map/pins.js',
  '/map/projection.js',
  '/map/rects.js',
  '/map/shapes.js',
  '/map/tiles.js',
  '/notifications/api.js',
  '/notifications/inbox.js',
  '/notifications/live.js',
  '/notifications/push.js',
  '/notifications/watches.js',
  '/parking/api.js',
  '/parking/area.js',
  '/parking/booking-form.js',
  '/parking/booking-repeat.js',
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
  '/parking/permit-words.js',
  '/parking/reviews.js',
  '/parking/schedule-format.js',
  '/parking/schedule-grid.js',
  '/parking/schedule.js',
  '/parking/series-view.js',
  '/parking/site-picker.js',
  '/parking/snapshot-cache.js',
  '/parking/star-picker.js',
  '/parking/status.js',
  '/parking/store.js',
  '/planner/api.js',
  '/planner/area.js',
  '/planner/calendar-chips.js',
  '/planner/calendar-editor.js',
  '/planner/calendar-files.js',
  '/planner/calendars-view.js',
  '/planner/colour-sliders.js',
  '/planner/contrast.js',
  '/planner/day-map.js',
  '/planner/day-view.js',
  '/planner/event-checks.js',
  '/planner/event-form.js',
  '/planner/event-view.js',
  '/planner/form-parts.js',
  '/planner/format.js',
  '/planner/icons.js',
  '/planner/index.js',
  '/planner/journey.js',
  '/planner/layers.js',
  '/planner/leave-position.js',
  '/planner/leave-setting.js',
  '/planner/modes.js',
  '/planner/move-form.js',
  '/planner/place-field.js',
  '/planner/plan-list.js',
  '/planner/preferences-view.js',
  '/planner/ticket.js',
  '/planner/wall-time.js',
  '/planner/warnings.js',
  '/planner/week-view.js',
  '/rooms/api.js',
  '/rooms/area.js',
  '/rooms/colours.js',
  '/rooms/format.js',
  '/rooms/index.js',
  '/rooms/layers.js',
  '/shell/api.js',
  '/shell/base-map.js',
  '/shell/dialog.js',
  '/shell/directions.js',
  '/shell/dom.js',
  '/shell/event-stream.js',
  '/shell/money.js',
  '/shell/my-location.js',
  '/shell/nav.js',
  '/shell/router.js',
  '/shell/saved-copies.js',
  '/shell/theme.js',
  '/shell/toast.js',
  '/shell/zoned-time.js',
  '/trails/api.js',
  '/trails/area.js',
  '/trails/comments.js',
  '/trails/format.js',
  '/trails/forum.js',
  '/trails/friend-hikes.js',
  '/trails/friend-map.js',
  '/trails/friends.js',
  '/trails/hike-record.js',
  '/trails/hike-stats.js',
  '/trails/hikes.js',
  '/trails/hunt.js',
  '/trails/index.js',
  '/trails/layers.js',
  '/trails/messages.js',
  '/trails/moderation.js',
  '/trails/offline.js',
  '/trails/picture.js',
  '/trails/profile-chart.js',
  '/trails/weather.js',
  // modules:end
  // styles:begin
  '/shell/shell.css',
  '/accounts/accounts.css',
  '/notifications/notifications.css',
  '/parking/parking.css',
  '/planner/planner.css',
  '/rooms/rooms.css',
  '/trails/trails.css',
  // styles:end
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
  // Map images through the server (PRK-20) are many and kept by the browser's own cache; a
  // counted directions link is a redirect to the maps app. Neither belongs in the API copies.
  if (path.startsWith('/tiles/') || path.startsWith('/go/')) return;
  // A price and the spaces left are only true now; an old copy would mislead (PRK-12).
  if (path.endsWith('/booking-quote')) return;
  // One person's data (a token goes with it) is never kept: sign-out must leave nothing behind (ACC-3).
  if (request.headers.has('Authorization')) return;
  if (request.mode === 'navigate' || SHELL.includes(path)) {
    // Every screen's path (/lots/<id>, /me/bookings/<id>…) is the one page: offline, its copy.
    event.respondWith(shellNetworkFirst(request));
  } else if (isApiRead(request) || request.destination === 'image') {
    // Pictures (a trail's, a guideline's) read offline once seen, like the JSON they belong to (TRL-11).
    event.respondWith(apiNetworkFirst(request));
  }
});

/**
 * The app's API reads ask for JSON (shell/api.js); the worker knows them by that rather than by
 * their paths, which only the areas' API modules name.
 * @param {Request} request
 */
function isApiRead(request) {
  return (request.headers.get('Accept') ?? '').includes('application/json');
}

async function shellNetworkFirst(request) {
  const cache = await caches.open(SHELL_CACHE);
  const key = request.mode === 'navigate' ? '/' : request;
  try {
    const response = await withTimeout(fetch(request), 4000);
    // A navigation keeps only the app's page as the copy (not a document the server has at that path).
    const page = request.mode !== 'navigate' || (response.headers.get('Content-Type') ?? '').startsWith('text/html');
    if (response.ok && response.type === 'basic' && page) cache.put(key, response.clone());
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

// ---- Web Push (PRK-22) ----

/** Where a notification leads when it names no screen of the app: the person's inbox. */
const INBOX = '/me/inbox';

self.addEventListener('push', (event) => {
  const n = readPush(event.data);
  event.waitUntil((async () => {
    // The person is looking at the very screen it is about (an open conversation shows its new
    // messages itself): nothing to pop up. Browsers allow this while a page of the app is in front.
    const windows = await self.clients.matchAll({ type: 'window' });
    if (n.url !== INBOX && windows.some((c) => c.focused && c.visibilityState === 'visible' && new URL(c.url).pathname === n.url)) return;
    await self.registration.showNotification(n.title, {
      body: n.body,
      tag: n.tag,
      data: { url: n.url, id: n.id || null, kind: n.kind || null },
      icon: '/icons/icon-192.png',
      timestamp: n.createdAt,
    });
  })());
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openScreen(screenFor(event.notification.data)));
});

/**
 * What a push asks to show. The server sends JSON ({id, kind, title, body, url, createdAt}); the
 * notification's id is its tag, so the same one pushed again replaces it. A push without such
 * a payload still tells the person to look (the browser requires a notification for every
 * push) and leads to the inbox; several of those show as one.
 * @param {PushMessageData|null} data
 */
function readPush(data) {
  let p = null;
  try { p = data ? data.json() : null; } catch { p = null; }
  const text = (v) => (typeof v === 'string' ? v.trim() : '');
  if (!p || typeof p !== 'object' || !text(p.title)) {
    return { title: 'Waymark', body: 'Open Waymark to see what’s new', url: INBOX, tag: 'waymark', id: '', kind: '', createdAt: undefined };
  }
  const at = Date.parse(p.createdAt);
  const id = text(p.id);
  return { title: text(p.title), body: text(p.body), url: screenFor(p), tag: id || undefined, id, kind: text(p.kind),
    createdAt: Number.isFinite(at) ? at : undefined };
}

/**
 * The screen a notification opens: its `url` when that is a path of this app, written
 * relative (`/lots/<id>`), else the inbox; a payload never sends anyone to another site.
 * @param {any} data a push payload, or a shown notification's data
 * @returns {string} a path of this origin
 */
function screenFor(data) {
  const url = data?.url;
  if (typeof url !== 'string' || !url.startsWith('/')) return INBOX;
  let target;
  try { target = new URL(url, self.location.origin); } catch { return INBOX; }
  if (target.origin !== self.location.origin) return INBOX;
  return target.pathname + target.search + target.hash;
}

/**
 * Shows `path` in a window of the app: the one in front, else the one used last, comes
 * forward and goes there; with none open, a new window opens at it.
 * @param {string} path
 */
async function openScreen(path) {
  const windows = await self.clients.matchAll({ type: 'window' });
  const client = windows.find((c) => c.focused) ?? windows[0];
  if (!client) {
    await self.clients.openWindow(path);
    return;
  }
  // A click allows bringing a window forward for a moment only, so that comes first.
  try { await client.focus(); } catch { /* not allowed now: the window still goes to the screen */ }
  const shown = new URL(client.url);
  if (shown.pathname + shown.search + shown.hash !== path) await client.navigate(path);
}

// Location sharing with friends (TRL-9, Trailz 3.2.6.8). Off until the person turns it on in
// Friends. While on, this browser sends its position every 60 seconds (only the latest is kept
// on the server, and turning sharing off deletes it), and the trails map shows friends who share
// too as their pictures; a tap tells the name and the time. A friend not heard from for three
// minutes is drawn faded, "last seen" at that time: their signal was lost or they closed Waymark.

import { toMercator } from '../map/projection.js';
import { choose } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { ProblemError, OfflineError, problemText } from '../shell/api.js';
import { signedIn, onSessionChange } from '../accounts/session.js';
import { getLocationSharing, setLocationSharing, reportPosition, friendPositions } from './api.js';
import { keepCopy, savedCopy } from '../shell/saved-copies.js';

const REPORT_MS = 60_000;
const STALE_MS = 3 * 60_000;
const RADIUS = 18;

const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const day = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });

/** "at 10:42 AM", "12 min ago at 10:42 AM" or a date for an older time. @param {string} iso */
export function seenAt(iso) {
  const t = new Date(iso);
  const minutes = Math.round((Date.now() - t.getTime()) / 60_000);
  if (minutes < 1) return `just now (${clock.format(t)})`;
  if (minutes < 60) return `${minutes} min ago (${clock.format(t)})`;
  return minutes < 20 * 60 ? `at ${clock.format(t)}` : `on ${day.format(t)}`;
}

const initials = (/** @type {string} */ name) => name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0].toUpperCase()).join('') || '?';

/** @param {{map: any, shown: () => boolean, message: (personId: string) => void}} o */
export function startFriendMap(o) {
  let sharing = signedIn() && savedCopy('sharing')?.value === true;
  /** @type {{person: any, position: any}[]} */
  let friends = signedIn() ? (savedCopy('friend-positions')?.value ?? []) : [];
  /** @type {GeolocationPosition|null} */
  let latest = null;
  let watchId = /** @type {number|null} */ (null);
  let reportTimer = 0, fetchTimer = 0;
  let sentAt = /** @type {number|null} */ (null);
  /** @type {Set<() => void>} */
  const listeners = new Set();
  const images = new Map();
  /** @type {{x: number, y: number, friend: any}[]} */
  let drawn = [];

  const changed = () => { for (const fn of listeners) fn(); };

  function picture(url) {
    let img = images.get(url);
    if (!img) {
      img = new Image();
      img.onload = () => o.map.invalidate();
      img.src = url;
      images.set(url, img);
    }
    return img;
  }

  o.map.addLayer({
    id: 'friends',
    zIndex: 85,
    draw(ctx, frame) {
      drawn = [];
      if (!o.shown() || !sharing) return;
      for (const f of friends) {
        const m = toMercator({ lat: f.position.latitude, lon: f.position.longitude });
        const { x, y } = frame.toScreen(m.x, m.y);
        const stale = Date.now() - new Date(f.position.reportedAt).getTime() > STALE_MS;
        ctx.save();
        ctx.globalAlpha = stale ? 0.55 : 1;
        ctx.beginPath();
        ctx.arc(x, y, RADIUS + 3, 0, 2 * Math.PI);
        ctx.fillStyle = stale ? '#7a7a7a' : '#1a73e8';
        ctx.shadowColor = 'rgba(0,0,0,0.35)';
        ctx.shadowBlur = 6;
        ctx.fill();
        ctx.shadowColor = 'transparent';
        ctx.beginPath();
        ctx.arc(x, y, RADIUS, 0, 2 * Math.PI);
        ctx.fillStyle = '#e8eef7';
        ctx.fill();
        const img = picture(f.person.pictureUrl);
        if (img.complete && img.naturalWidth) {
          ctx.save();
          ctx.clip();
          ctx.drawImage(img, x - RADIUS, y - RADIUS, RADIUS * 2, RADIUS * 2);
          ctx.restore();
        } else {
          ctx.fillStyle = '#1e1e1e';
          ctx.font = '600 14px -apple-system, system-ui, sans-serif';
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText(initials(f.person.name), x, y);
        }
        ctx.restore();
        drawn.push({ x, y, friend: f });
      }
    },
    hitTest(x, y) {
      const hit = drawn.find((d) => Math.hypot(d.x - x, d.y - y) <= RADIUS + 8);
      return hit ? { friendId: hit.friend.person.id } : null;
    },
  });

  o.map.on('tap', async ({ hit }) => {
    if (hit?.layer !== 'friends') return;
    const f = friends.find((x) => x.person.id === hit.feature.friendId);
    if (!f) return;
    const stale = Date.now() - new Date(f.position.reportedAt).getTime() > STALE_MS;
    const choice = await choose({
      title: f.person.name, name: 'friend-position',
      message: `${stale ? 'Last seen' : 'Here'} ${seenAt(f.position.reportedAt)}${f.person.name !== f.person.username ? ` · @${f.person.username}` : ''}`,
      actions: [{ id: 'close', label: 'Close' }, { id: 'message', label: 'Message', kind: 'primary' }],
    });
    if (choice === 'message') o.message(f.person.id);
  });

  async function report() {
    if (!sharing || !latest) return;
    const c = latest.coords;
    try {
      await reportPosition({ latitude: c.latitude, longitude: c.longitude, accuracy: Math.min(c.accuracy, 100_000) });
      sentAt = Date.now();
      changed();
    } catch (err) {
      // Turned off on another device: follow it here.
      if (err instanceof ProblemError && err.status === 409) apply(false);
    }
  }

  async function fetchFriends() {
    if (!sharing || !signedIn()) return;
    try {
      const r = await friendPositions();
      friends = r.friends;
      keepCopy('friend-positions', friends);
      if (!r.sharing) apply(false);
      o.map.invalidate();
    } catch { /* offline: the last copy stays, drawn as last seen */ }
  }

  function begin() {
    if (watchId === null && 'geolocation' in navigator) {
      watchId = navigator.geolocation.watchPosition((pos) => {
        const first = !latest;
        latest = pos;
        if (first) report();
      }, (err) => {
        if (err.code === err.PERMISSION_DENIED) {
          toast('Waymark may not see where you are, so your position cannot be shared. Allow location for this site, then turn sharing on again.');
          setSharing(false).catch(() => {});
        }
      }, { enableHighAccuracy: true, maximumAge: 30_000, timeout: 120_000 });
    }
    clearInterval(reportTimer);
    clearInterval(fetchTimer);
    reportTimer = setInterval(report, REPORT_MS);
    fetchTimer = setInterval(fetchFriends, REPORT_MS);
    fetchFriends();
  }

  function end() {
    if (watchId !== null) navigator.geolocation.clearWatch(watchId);
    watchId = null;
    latest = null;
    sentAt = null;
    clearInterval(reportTimer);
    clearInterval(fetchTimer);
    friends = [];
    o.map.invalidate();
  }

  function apply(/** @type {boolean} */ on) {
    const was = sharing;
    sharing = on;
    keepCopy('sharing', on);
    if (on && !was) begin();
    if (!on && was) end();
    if (!on) keepCopy('friend-positions', []);
    changed();
  }

  /** Turns sharing on or off on the server, then here. @param {boolean} on */
  async function setSharing(on) {
    const s = await setLocationSharing(on);
    apply(s.sharing);
  }

  async function load() {
    if (!signedIn()) { apply(false); return; }
    try { apply((await getLocationSharing()).sharing); } catch (err) {
      if (!(err instanceof OfflineError) && !(err instanceof ProblemError && err.status === 403)) console.warn(problemText(err));
    }
  }

  onSessionChange(load);
  if (sharing) begin();
  load();

  return {
    get sharing() { return sharing; },
    /** The friends drawn in the last frame, with where (for the tests' read-only surface). */
    drawn: () => drawn.map((d) => ({ id: d.friend.person.id, x: d.x, y: d.y })),
    /** When this browser last sent the position, or null. */
    get sentAt() { return sentAt; },
    setSharing,
    /** Reads friends' positions now (the map was opened). */
    refresh: fetchFriends,
    /** @param {() => void} fn */
    onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); },
  };
}

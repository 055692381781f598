// Path URLs for every screen a person may share or come back to (/lots/<id>, /me/bookings/<id>…),
// on the History API. The shell gives the router one function that shows a path; the router
// calls it on start, on Back and Forward (popstate) and when a same-origin link is followed.
//
// Screens that open over the map (a lot's card, the person's space) are "layers". Each entry
// the app pushes remembers its layer and how many entries of that layer lie under it, so
// closing a layer goes back through exactly the entries it pushed (Back then does what the
// person expects) and, when the layer was opened cold from a shared link, replaces the entry
// with what is under it instead. Going back is asynchronous: until the browser has arrived,
// what the app records waits, and arriving shows nothing new (the app closed the layer itself).

/** @typedef {{layer: string|null, depth: number}} EntryState */

/** @type {(path: string) => void} */
let show = () => {};
/** @type {Set<(path: string) => void>} */
const watchers = new Set();
/** Going back through our own entries, until popstate says we arrived. */
let travelling = false;
let travelTimer = 0;
/** The path the app shows once arrived, when it knows it (a panel's Back: its parent screen). */
let travelTo = '';
/** @type {(() => void)[]} */
const waiting = [];

/** Calls `fn` with the path whenever the path shown changes, by the router or recorded. */
export function watchPath(fn) { watchers.add(fn); }
const changed = () => { for (const fn of watchers) fn(location.pathname); };

/** @returns {EntryState} */
function entry() {
  const s = history.state;
  return s && typeof s.depth === 'number' ? s : { layer: null, depth: 0 };
}

function whenArrived(fn) {
  if (travelling) waiting.push(fn); else fn();
}

function arrived() {
  travelling = false;
  clearTimeout(travelTimer);
  // The entry arrived at may name another screen of the layer than the one it shows (a link
  // inside the layer pushed past it): the entry then says what is shown.
  if (travelTo && travelTo !== location.pathname) history.replaceState(history.state, '', travelTo);
  travelTo = '';
  changed();
  for (const fn of waiting.splice(0)) fn();
}

/** @param {number} steps @param {string} [to] */
function travelBack(steps, to = '') {
  travelling = true;
  travelTo = to;
  // Should the browser not move (no such entry any more), carry on where we are.
  travelTimer = setTimeout(arrived, 1000);
  history.go(-steps);
}

/**
 * Starts routing: shows the current path now, and every path the history moves to.
 * @param {(path: string) => void} onPath
 */
export function startRouter(onPath) {
  show = onPath;
  addEventListener('popstate', () => {
    if (travelling) { arrived(); return; }
    show(location.pathname);
    changed();
  });
  document.addEventListener('click', followLink);
  show(location.pathname);
  changed();
}

/**
 * Records that the app now shows `path` (the screen is already there): a new history entry,
 * or with `replace` the current one changed.
 * @param {string} path @param {{replace?: boolean, layer?: string|null}} [o]
 */
export function record(path, o = {}) {
  whenArrived(() => {
    const now = entry();
    const layer = o.layer ?? null;
    if (o.replace) {
      history.replaceState({ layer, depth: layer && now.layer === layer ? now.depth : 0 }, '', path);
    } else if (path !== location.pathname) {
      const depth = layer ? (now.layer === layer ? now.depth + 1 : 1) : 0;
      history.pushState({ layer, depth }, '', path);
    }
    changed();
  });
}

/**
 * Goes to `path` as a followed link does: a new entry, then the screen.
 * @param {string} path @param {{replace?: boolean, layer?: string|null}} [o]
 */
export function go(path, o = {}) {
  whenArrived(() => {
    record(path, o);
    show(path);
  });
}

/**
 * Closes a layer (the screen is closed already): back through the entries it pushed; opened
 * cold, the entry becomes `under`.
 * @param {string} layer @param {string} under the path to show when nothing of ours lies below
 */
export function leave(layer, under) {
  whenArrived(() => {
    const now = entry();
    if (now.layer === layer && now.depth > 0) travelBack(now.depth);
    else go(under, { replace: true });
  });
}

/**
 * One step back inside a layer (a panel's Back button, the screen is back already): the
 * previous entry when the layer pushed it, else the current entry becomes `parent`.
 * @param {string} layer @param {string} parent
 */
export function stepBack(layer, parent) {
  whenArrived(() => {
    const now = entry();
    if (now.layer === layer && now.depth > 1) travelBack(1, parent);
    else record(parent, { replace: true, layer });
  });
}

/** Same-origin links are followed without a page load (new tabs and downloads are left alone). */
function followLink(/** @type {MouseEvent} */ e) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = /** @type {HTMLAnchorElement|null} */ (/** @type {Element} */ (e.target).closest?.('a[href]'));
  if (!a || a.target || a.hasAttribute('download') || a.dataset.route === 'off') return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  go(url.pathname, { layer: a.dataset.layer ?? null });
}

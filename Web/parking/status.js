// Tells people how fresh the map is. While the live stream is connected nothing is shown but
// a green dot; when the server cannot be reached, a banner gives the age of what is on screen
// (PRK-19: "as of 5:06 PM · 12 min ago").

import { clockTime, age } from './format.js';

/** @param {{store: ReturnType<typeof import('./store.js').createParkingStore>}} o */
export function createStatus(o) {
  const chip = /** @type {HTMLElement} */ (document.getElementById('site-chip'));
  const banner = /** @type {HTMLElement} */ (document.getElementById('status'));
  let live = 'connecting';

  function update() {
    const s = o.store.state;
    // Connecting and paused (page hidden) are normal; only a lost connection or data from the
    // device's copy earn the banner.
    const offline = s.fromCache || live === 'offline';
    chip.dataset.live = live === 'live' && !s.fromCache ? 'live' : offline ? 'offline' : 'connecting';
    if (!offline) {
      banner.hidden = true;
      banner.dataset.state = 'online';
      return;
    }
    const asOf = s.asOf;
    banner.hidden = false;
    banner.dataset.state = 'offline';
    banner.dataset.asOf = asOf.toISOString();
    banner.textContent = `Offline · as of ${clockTime(asOf)} (${age(asOf)})`;
  }

  setInterval(update, 30_000);
  o.store.on('snapshot', update);

  return {
    update,
    /** @param {'connecting'|'live'|'offline'|'paused'} status */
    setLive(status) {
      // While connected the data is right up to now; when the stream stops, the age starts here.
      if (live === 'live' || status === 'live') o.store.touch();
      live = status;
      update();
    },
    get live() { return live; },
  };
}

// Which lots this person watches (PRK-15), kept here so the lot card knows without asking each
// time, and the "Watch this lot" switch on the lot card.

import { el } from '../accounts/forms.js';
import { signedIn } from '../accounts/session.js';
import { problemText } from '../shell/api.js';
import { toast } from '../shell/toast.js';
import { listWatches, watchLot, unwatchLot } from './api.js';

/** @type {Set<string>} */
let watched = new Set();
let loaded = false;
/** The switches on screen: the card redraws itself as the lot fills, so an answer may arrive
 * after the switch that asked was replaced; every switch of the lot shows it. */
const switches = new Set();
function showAll() {
  for (const s of switches) {
    if (s.button.isConnected) s.show(); else switches.delete(s);
  }
}

/** Read again whenever who this browser is changes. */
export async function loadWatches() {
  if (!signedIn()) { watched = new Set(); loaded = false; return; }
  try {
    const { watches } = await listWatches();
    watched = new Set(watches.map((w) => w.lotId));
    loaded = true;
  } catch { /* offline: the switch works once the list arrives */ }
}

/**
 * The switch for one lot; nothing for guests (watching needs an account).
 * @param {{id: string, name: string}} lot
 */
export function watchToggle(lot) {
  if (!signedIn()) return null;
  const row = el('div', 'watch-row');
  const b = /** @type {HTMLButtonElement} */ (el('button', 'watch-toggle'));
  b.type = 'button';
  b.dataset.testid = 'watch-toggle';
  const hint = el('span', 'watch-hint', 'Told when it is almost full or full, or a booked space is freed');
  hint.id = `watch-hint-${lot.id}`;
  b.setAttribute('aria-describedby', hint.id);
  const show = () => {
    const on = watched.has(lot.id);
    b.setAttribute('aria-pressed', String(on));
    b.textContent = on ? '✓ Watching this lot' : 'Watch this lot';
    b.disabled = !loaded;
  };
  b.addEventListener('click', async () => {
    const on = watched.has(lot.id);
    b.disabled = true;
    try {
      const r = on ? await unwatchLot(lot.id, `Stop watching ${lot.name}`) : await watchLot(lot.id, `Watch ${lot.name}`);
      if (on) watched.delete(lot.id); else watched.add(lot.id);
      const done = on ? `Stopped watching ${lot.name}` : `Watching ${lot.name}`;
      toast(r.sent ? done : `Offline: watching ${lot.name} ${on ? 'stops' : 'starts'} once Waymark can be reached`);
    } catch (err) {
      toast(problemText(err));
    }
    show();
    showAll();
  });
  show();
  switches.add({ button: b, show });
  if (!loaded) loadWatches().then(showAll);
  row.append(b, hint);
  return row;
}

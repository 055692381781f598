// Operate › Lots › Closed dates (PRK-1): the stretches of dates the lot is closed on (works, an
// event), each with the reason drivers read beside it, and a form to add one. Closing refuses
// new bookings for those dates at once; bookings already made for them are cancelled and
// refunded, and the screen says how many.

import { el, button, field, form } from './forms.js';
import { problemText } from '../shell/api.js';
import { confirm } from '../shell/dialog.js';
import { listLotClosures, addLotClosure, liftLotClosure } from './api.js';
import { statusLine } from './operate-parts.js';
import { zonedInstant, zonedParts, spanText, timeValue, addDays, zoneName } from '../shell/zoned-time.js';

/** "Sat, Dec 12 – Mon, Dec 14" for whole days, "Sat, Dec 12 8:00 AM – Mon, Dec 14 6:00 PM" otherwise. */
const closureText = (/** @type {{start: string, end: string}} */ c, /** @type {string} */ timeZone) => spanText(new Date(c.start), new Date(c.end), timeZone);

/** The instant a datetime-local value names on the site's clock, or null. */
function instantOf(/** @type {string} */ value, /** @type {string} */ timeZone) {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(value);
  return m ? zonedInstant(m[1], Number(m[2]) * 60 + Number(m[3]), timeZone) : null;
}

/**
 * @param {import('./operate-parts.js').Lot} lot @param {import('./operate-parts.js').Site} site
 * @param {() => boolean} alive whether the lot is still the one shown
 */
export function closuresPart(lot, site, alive) {
  const zone = site.timeZone;
  const root = el('fieldset', 'op-group op-closures');
  root.dataset.part = 'closures';
  root.dataset.testid = 'op-closures';
  const list = el('ul', 'op-closure-list');
  const status = statusLine();

  // Tomorrow, all day: the usual shape of a closure, ready to adjust.
  const today = zonedParts(new Date(), zone).date;
  const from = field({ label: 'From', name: 'closureStart', type: 'datetime-local', value: `${addDays(today, 1)}T${timeValue(0)}` });
  const until = field({ label: 'Until', name: 'closureEnd', type: 'datetime-local', value: `${addDays(today, 2)}T${timeValue(0)}`,
    hint: `On the site’s clock (${zoneName(zone)}); the lot opens again at this time.` });
  // Not `required`: emptied after each closure, it would show as wrong; the server asks for one.
  const reason = field({ label: 'Reason drivers read', name: 'closureReason', maxLength: 200, placeholder: 'e.g. Resurfacing' });
  const f = form({
    name: 'lot-closure',
    submit: 'Close the lot',
    children: [el('div', 'op-closure-span', from.wrap, until.wrap), reason.wrap],
    async action() {
      const start = instantOf(from.input.value, zone), end = instantOf(until.input.value, zone);
      if (!start || !end) { f.error.show('Choose the day and time the closure starts and ends.'); return; }
      const done = await addLotClosure(lot.id, { start: start.toISOString(), end: end.toISOString(), reason: reason.input.value.trim() });
      reason.input.value = '';
      const n = done.cancelledBookings;
      status.textContent = `Closed ${closureText(done.closure, zone)}. `
        + (n === 0 ? 'No booking was in the way.' : `${n === 1 ? '1 booking was' : `${n} bookings were`} cancelled and refunded; the drivers were told.`);
      await load();
    },
  });
  f.el.classList.add('op-closure-form');
  root.append(el('legend', '', 'Closed dates'),
    el('p', 'muted small', 'Drivers cannot book the lot on these dates. Bookings already made for them are cancelled and refunded in full, and their drivers told; a driver already parked keeps the space.'),
    list, status, f.el);

  function row(/** @type {any} */ c) {
    const li = el('li', 'op-closure');
    li.dataset.id = c.id;
    const lift = button('Open again', async () => {
      const yes = await confirm({
        title: 'Open the lot again?', message: `${lot.name} takes bookings again ${closureText(c, zone)}. Bookings the closure cancelled stay cancelled.`,
        confirm: 'Open again', name: 'lift-closure',
      });
      if (!yes) return;
      try {
        await liftLotClosure(lot.id, c.id);
        status.textContent = `Open again ${closureText(c, zone)}.`;
        await load();
      } catch (err) { status.textContent = problemText(err); }
    }, 'link-button');
    lift.setAttribute('aria-label', `Open again ${closureText(c, zone)}`);
    li.append(el('span', 'op-closure-when', closureText(c, zone)), el('span', 'op-closure-why', c.reason), lift);
    return li;
  }

  async function load() {
    try {
      const { closures } = await listLotClosures(lot.id);
      if (!alive()) return;
      list.replaceChildren(...closures.map(row));
      if (!closures.length) list.append(el('li', 'muted small op-closure-none', 'No closed dates ahead: the lot keeps its opening hours.'));
    } catch (err) {
      if (alive()) status.textContent = problemText(err);
    }
  }
  load();
  return { el: root };
}

// A transit ticket for the trip to an event (PLN-9): "Buy ticket" on a timetable leg, then the
// ticket with its QR code (drawn by the server, shown as an image) and its code in large
// letters for reading out, valid times in the place's zone. Kept in this browser once bought,
// so it shows on a platform with no signal.

import { el } from '../shell/dom.js';
import { problemText } from '../shell/api.js';
import { keepCopy, savedCopy } from '../shell/saved-copies.js';
import { toast } from '../shell/toast.js';
import { buyTicket } from './api.js';
import { clockRange, dayTitle } from './format.js';

const COPY = 'planner.tickets';

/** @returns {Record<string, any>} tickets by "eventId/day" */
const kept = () => savedCopy(COPY)?.value ?? {};

/** @param {any} ticket @param {string} timeZone the place's, for showing it offline */
function keep(ticket, timeZone) {
  keepCopy(COPY, { ...kept(), [`${ticket.eventId}/${ticket.day}`]: { ...ticket, timeZone } });
}

/** The ticket kept for an occurrence, with the zone it is shown in, or null. @param {string} eventId @param {string} day */
export const keptTicket = (eventId, day) => kept()[`${eventId}/${day}`] ?? null;

/** "€2.20" in the person's locale. @param {{minorUnits: number, currency: string}} money */
export function price(money) {
  const f = new Intl.NumberFormat(navigator.language, { style: 'currency', currency: money.currency });
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(money.minorUnits / 10 ** digits);
}

/**
 * The ticket section of a transit leg: the ticket kept for this trip, or the button that buys it.
 * @param {{eventId: string, day: string, timeZone: string, title: string}} trip
 */
export function ticketSection(trip) {
  const body = el('div', 'plan-ticket-body');
  const section = el('section', { class: 'plan-section plan-ticket-section', 'aria-labelledby': 'plan-ticket-title' },
    el('h3', { class: 'plan-subheading', id: 'plan-ticket-title' }, 'Ticket'), body);
  const have = kept()[`${trip.eventId}/${trip.day}`];
  if (have) body.replaceChildren(ticketCard(have, trip.timeZone)); else body.replaceChildren(...offer());
  return section;

  function offer() {
    const failure = el('p', { class: 'plan-form-error', role: 'alert', hidden: true });
    const button = el('button', { type: 'button', class: 'plan-button primary', id: 'plan-buy-ticket', on: { click: buy } }, 'Buy ticket');
    return [el('p', 'plan-hint', 'One ticket covers the whole trip. Once bought it stays on this device, for showing without a connection.'),
      el('div', 'plan-actions', button), failure];

    async function buy() {
      button.disabled = true;
      failure.hidden = true;
      try {
        const ticket = await buyTicket(trip.eventId, trip.day);
        keep(ticket, trip.timeZone);
        body.replaceChildren(ticketCard(ticket, trip.timeZone));
        toast(ticket.demo ? 'Demo ticket issued' : 'Ticket bought');
        /** @type {HTMLElement|null} */ (body.querySelector('.plan-ticket-code'))?.focus();
      } catch (err) {
        failure.textContent = problemText(err);
        failure.hidden = false;
        button.disabled = false;
      }
    }
  }
}

/** The ticket as an inspector sees it. @param {any} t @param {string} timeZone */
export function ticketCard(t, timeZone) {
  const qr = el('img', { class: 'plan-ticket-qr', alt: `QR code of ticket ${t.code}`, width: 220, height: 220,
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(t.qrSvg)}` });
  return el('article', { class: 'plan-ticket', dataset: { code: t.code }, 'aria-label': `Ticket ${t.code}` },
    t.demo ? el('p', 'plan-ticket-demo', 'Demo ticket: not valid for travel') : null,
    qr,
    el('p', { class: 'plan-ticket-code', tabIndex: -1 }, el('span', 'plan-hint', 'Code '), el('strong', null, t.code)),
    el('p', 'plan-ticket-title', t.title),
    el('p', null, `${dayTitle(t.day)} · valid ${clockRange(t.validFrom, t.validUntil, timeZone)}`),
    t.lines.length ? el('p', 'plan-hint', `For ${t.lines.join(' · ')}`) : null,
    el('p', 'plan-hint', `${price(t.price)} · ${t.provider}`));
}

// A weekly booking on a screen of its own (PRK-12, /me/weekly/<id>): the repeat in words on the
// lot's clock, every date with what became of it (each opens as a booking), the dates left out
// when it was booked and why, what was paid and refunded, and cancelling every date not started.

import { el, button } from '../accounts/forms.js';
import { problemText } from '../shell/api.js';
import { confirm } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { formatMoney } from '../shell/money.js';
import { rangeText, zoneName } from '../shell/zoned-time.js';
import { getSeries, cancelSeries } from './api.js';
import { BOOKING_STATE_TEXT as STATE_TEXT } from './format.js';

/** The dates of a series that can still be cancelled: booked and not started. */
const cancellable = (/** @type {any} */ series, now = Date.now()) =>
  series.bookings.filter((/** @type {any} */ b) => b.state === 'booked' && new Date(b.start).getTime() > now);

const sum = (/** @type {any[]} */ bookings, /** @type {string} */ currency) =>
  ({ minorUnits: bookings.reduce((n, b) => n + b.paid.minorUnits, 0), currency });

/**
 * Asks, then cancels every date of the series not started yet; says what went back to the wallet.
 * @param {string} seriesId @param {string} lotCode for the question ("… at A?") @returns {Promise<any|null>} the series after, or null
 */
export async function cancelWeeklyDates(seriesId, lotCode) {
  const series = await getSeries(seriesId);
  const left = cancellable(series);
  if (!left.length) { toast('No date of this weekly booking is left to cancel.'); return null; }
  const back = sum(left, left[0].paid.currency);
  const ok = await confirm({
    name: 'cancel-series',
    title: `Cancel ${left.length === 1 ? 'the last date' : `all ${left.length} dates left`} at ${lotCode}?`,
    message: `${series.summary}. ${formatMoney(back)} goes back to your wallet. Dates that have started stay as they are.`,
    confirm: left.length === 1 ? 'Cancel the date' : `Cancel ${left.length} dates`,
    danger: true,
  });
  if (!ok) return null;
  const after = await cancelSeries(seriesId);
  toast(`Cancelled ${left.length} ${left.length === 1 ? 'date' : 'dates'} · ${formatMoney(back)} refunded`);
  return after;
}

/**
 * @param {import('../accounts/index.js').AccountsContext} ctx @param {string} seriesId
 * @returns {import('../accounts/panel.js').View}
 */
export function seriesView(ctx, seriesId) {
  let alive = true;
  const status = el('p', 'muted', 'Loading the weekly booking…');
  status.setAttribute('role', 'status');
  const body = el('div', 'series');
  body.dataset.testid = 'series';

  async function load() {
    try {
      const series = await getSeries(seriesId);
      if (alive) draw(series);
    } catch (err) {
      if (!alive) return;
      body.replaceChildren();
      status.textContent = problemText(err);
    }
  }

  function draw(/** @type {any} */ series) {
    status.textContent = '';
    const tz = series.timeZone;
    const code = series.bookings[0]?.lotCode ?? series.lotName;
    const paid = series.bookings.filter((/** @type {any} */ b) => b.state !== 'cancelled');
    const currency = series.bookings[0]?.paid.currency ?? 'USD';
    const counts = Object.entries(STATE_TEXT)
      .map(([state, words]) => [words, series.bookings.filter((/** @type {any} */ b) => b.state === state).length])
      .filter(([, n]) => n)
      .map(([words, n]) => `${n} ${String(words).toLowerCase()}`);
    const head = el('div', 'series-head',
      el('h3', 'series-lot', series.lotName),
      el('p', 'lead', series.summary),
      el('p', 'muted small', [...counts, `${formatMoney(sum(paid, currency))} paid`].join(' · ')),
      el('p', 'muted small', `Times are the lot’s local time (${zoneName(tz)}).`));

    const dates = el('ul', 'series-dates');
    dates.setAttribute('aria-label', 'Dates');
    for (const b of series.bookings) {
      const link = el('a', { class: 'series-date-link', href: `/me/bookings/${encodeURIComponent(b.id)}`, dataset: { layer: 'me' } },
        rangeText(new Date(b.start), new Date(b.end), tz));
      const li = el('li', `series-date ${b.state}`, link, el('span', `booking-state ${b.state}`, STATE_TEXT[b.state] ?? b.state));
      li.dataset.bookingId = b.id;
      li.dataset.state = b.state;
      dates.append(li);
    }
    const parts = [head, el('h4', 'list-head', 'Dates'), dates];

    if (series.skipped.length) {
      const skipped = el('ul', 'series-dates skipped');
      skipped.dataset.testid = 'series-skipped';
      for (const s of series.skipped) {
        skipped.append(el('li', 'series-date skipped',
          el('span', 'series-date-text', rangeText(new Date(s.start), new Date(s.end), tz)),
          el('span', 'series-skip-reason muted small', s.reason)));
      }
      parts.push(el('h4', 'list-head', 'Not booked'),
        el('p', 'muted small', 'These dates were left out when you booked, and nothing was paid for them.'), skipped);
    }

    const left = cancellable(series);
    if (left.length) {
      const cancel = button(left.length === 1 ? 'Cancel the last date' : `Cancel all ${left.length} dates left`, async () => {
        try {
          const after = await cancelWeeklyDates(seriesId, code);
          if (after && alive) draw(after);
        } catch (err) {
          toast(problemText(err), 5000);
        }
      }, 'acc-button danger');
      cancel.dataset.action = 'cancel-series';
      parts.push(el('div', 'booking-actions', cancel),
        el('p', 'muted small', 'To cancel one date only, open it and choose Cancel booking.'));
    }
    body.replaceChildren(...parts);
  }

  return {
    name: 'weekly',
    title: 'Weekly Booking',
    path: `/me/weekly/${encodeURIComponent(seriesId)}`,
    leave() { alive = false; },
    render() {
      alive = true;
      load();
      return [status, body];
    },
  };
}

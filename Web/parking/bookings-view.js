// "Your Bookings" in the Accounts panel (PRK-12): what is coming first, then the past ones.
// A booked space can be checked into from 15 minutes before its start until 15 minutes after
// it; before the start it can be moved to another time (the difference is settled with the
// wallet) or cancelled with a full refund. A booking nobody checked into shows as forfeited.
// The list refreshes itself while open, so a forfeit or a check-in elsewhere shows up.
// Bookings and cancellations made offline wait at the top until they are sent (PRK-19); one
// the server refused says why, with Retry and Discard.

import { el, button, form, field } from '../accounts/forms.js';
import { problemText } from '../shell/api.js';
import { confirm } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { formatMoney } from '../shell/money.js';
import { directionsURL } from '../shell/directions.js';
import { rangeText, clockText, dayText, zonedParts, zonedInstant, addDays, timeValue, minuteOf } from '../shell/zoned-time.js';
import { listBookings, checkIn, modifyBooking, quote, cancelBooking } from './api.js';
import { BOOKING_STATE_TEXT as STATE_TEXT } from './format.js';
import { cancelWeeklyDates } from './series-view.js';
import { writes, onChange, retry, discard } from '../accounts/outbox.js';
import { savedNote } from '../accounts/saved-reads.js';

const REFRESH_MS = 15_000;

/** @typedef {import('../accounts/index.js').AccountsContext} AccountsContext */

/**
 * @param {AccountsContext} ctx
 * @param {{focus?: string}} [o] focus: the booking to bring into view (its own URL, /me/bookings/<id>)
 * @returns {import('../accounts/panel.js').View}
 */
export function bookingsView(ctx, o = {}) {
  let focus = o.focus ?? '';
  let alive = true;
  let timer = 0;
  let stopWatching = () => {};
  const list = el('div', 'booking-list');
  list.dataset.testid = 'bookings';
  const status = el('p', 'muted', 'Loading your bookings…');
  status.setAttribute('role', 'status');

  /** @type {any[]} */
  let last = [];
  /** The map's campus clock: for saved copies from before bookings carried their own. */
  let tz = 'UTC';
  /** Each booking is told on its own lot's clock, whichever campus the map shows. */
  const zoneOf = (/** @type {any} */ b) => b.timeZone || tz;
  const waiting = el('div', 'booking-waiting');
  waiting.dataset.testid = 'bookings-waiting';

  async function load() {
    clearTimeout(timer);
    try {
      const site = await ctx.site();
      tz = site.timeZone;
      const answer = await listBookings();
      const { bookings } = answer;
      if (!alive) return;
      last = bookings;
      status.textContent = savedNote(answer)
        || (bookings.length || ours().length ? '' : 'No bookings yet. Open a lot on the map and choose “Book a space”.');
    } catch (err) {
      if (alive) status.textContent = problemText(err);
    }
    if (alive) {
      draw(last);
      timer = setTimeout(load, REFRESH_MS);
    }
  }

  const ours = () => writes().filter((w) => w.kind === 'booking' || w.kind === 'cancel-booking' || w.kind === 'change-booking');

  function pendingCard(w) {
    const item = el('article', `booking-card pending ${w.state}`);
    item.dataset.writeId = w.id;
    item.dataset.state = w.state;
    const head = el('div', 'booking-head');
    const title = el('div', 'booking-title');
    title.append(el('strong', '', w.label));
    if (w.kind === 'booking' && w.ref) title.append(el('span', 'booking-range', w.ref.lotName));
    head.append(title, el('span', `booking-state ${w.state}`, w.state === 'failed' ? 'Not sent' : 'Waiting'));
    item.append(head);
    if (w.state === 'failed') {
      item.append(el('p', 'booking-note warning small', w.error ?? 'The server refused it.'));
      const actions = el('div', 'booking-actions');
      const again = button('Try again', () => { retry(w.id); }, 'acc-button primary');
      again.dataset.action = 'retry';
      const drop = button('Discard', () => discard(w.id), 'acc-button');
      drop.dataset.action = 'discard';
      actions.append(again, drop);
      item.append(actions);
    } else {
      item.append(el('p', 'booking-note small muted', 'Made offline · sent when Waymark can be reached.'));
    }
    return item;
  }

  function draw(bookings) {
    const now = Date.now();
    const queued = ours();
    waiting.replaceChildren(...(queued.length ? [el('h3', 'list-head', 'Waiting to send'), ...queued.map(pendingCard)] : []));
    const upcoming = bookings.filter((b) => b.state === 'booked' || b.state === 'checkedIn');
    const past = bookings.filter((b) => !upcoming.includes(b));
    const parts = [];
    if (upcoming.length) parts.push(el('h3', 'list-head', 'Coming up'), ...comingUp(upcoming, now));
    if (past.length) parts.push(el('h3', 'list-head', 'Earlier'), ...past.map((b) => card(b, now)));
    list.replaceChildren(...parts);
    if (focus) {
      const target = /** @type {HTMLElement|null} */ (list.querySelector(`[data-booking-id="${CSS.escape(focus)}"]`));
      if (target) {
        focus = '';
        target.classList.add('focused');
        target.tabIndex = -1;
        target.scrollIntoView({ block: 'center' });
        target.focus({ preventScroll: true });
      } else if (last.length) {
        status.textContent = 'That booking is not among yours.';
        focus = '';
      }
    }
  }

  /** Weekly series the person opened up; the others show their next date and how many follow. */
  const expanded = new Set();

  /** The bookings to come, a weekly series folded under its next date. */
  function comingUp(upcoming, now) {
    const out = [];
    for (const b of upcoming) {
      const dates = b.seriesId ? upcoming.filter((x) => x.seriesId === b.seriesId) : [b];
      if (dates[0] !== b && !expanded.has(b.seriesId)) continue;
      out.push(card(b, now));
      if (dates[0] === b && dates.length > 1 && !expanded.has(b.seriesId)) {
        const more = dates.length - 1;
        const show = button(`${more} more weekly ${more === 1 ? 'date' : 'dates'}, the last ${dayText(new Date(dates[more].start), zoneOf(b))} · Show`, () => {
          expanded.add(b.seriesId);
          draw(last);
        }, 'acc-button series-more');
        show.dataset.action = 'show-series';
        show.dataset.seriesId = b.seriesId;
        out.push(show);
      }
    }
    return out;
  }

  function card(b, now) {
    const tz = zoneOf(b);
    const start = new Date(b.start);
    const end = new Date(b.end);
    const item = el('article', `booking-card ${b.state}`);
    item.dataset.bookingId = b.id;
    item.dataset.state = b.state;
    const head = el('div', 'booking-head');
    const badge = el('span', 'card-badge small', b.lotCode);
    badge.setAttribute('aria-hidden', 'true');
    const title = el('div', 'booking-title');
    // The booking's own address, to come back to or share: /me/bookings/<id>.
    const name = el('a', { class: 'booking-link', href: `/me/bookings/${encodeURIComponent(b.id)}`, dataset: { layer: 'me' } }, b.lotName);
    title.append(el('strong', '', name), el('span', 'booking-range', rangeText(start, end, tz)));
    head.append(badge, title, el('span', `booking-state ${b.state}`, STATE_TEXT[b.state] ?? b.state));
    item.append(head);

    const facts = [`Paid ${formatMoney(b.paid)}`];
    if (b.modifications) facts.push(b.modifications === 1 ? 'changed once' : `changed ${b.modifications} times`);
    const line = el('p', 'booking-facts muted small', facts.join(' · '));
    if (b.seriesId) {
      // The weekly booking it is a date of, on its own screen: every date, and those left out.
      const weekly = el('a', { class: 'series-link', href: `/me/weekly/${encodeURIComponent(b.seriesId)}`, dataset: { layer: 'me' } }, 'Repeats weekly · All dates');
      weekly.dataset.action = 'open-series';
      line.append(' · ', weekly);
    }
    item.append(line);

    if (b.state === 'booked') {
      const opens = new Date(b.checkInOpensAt).getTime();
      const closes = new Date(b.forfeitAt).getTime();
      const note = el('p', 'booking-note small');
      note.textContent = now < opens
        ? `Check in from ${clockText(new Date(opens), tz)}, at the latest by ${clockText(new Date(closes), tz)}.`
        : `Check in by ${clockText(new Date(closes), tz)} or the space is released without a refund.`;
      item.append(note);
      const actions = el('div', 'booking-actions');
      if (now >= opens && now < closes) {
        const b1 = button('Check in', () => act(b, 'check-in'), 'acc-button primary');
        b1.dataset.action = 'check-in';
        actions.append(b1);
      }
      if (now < start.getTime()) {
        const b2 = button('Change time', () => ctx.panel.push(changeBookingView(ctx, b, tz)), 'acc-button');
        b2.dataset.action = 'change';
        const b3 = button('Cancel booking', () => act(b, 'cancel'), 'acc-button');
        b3.dataset.action = 'cancel';
        actions.append(b2, b3);
        if (b.seriesId) {
          const b4 = button('Cancel all dates left', () => cancelWeekly(b), 'acc-button');
          b4.dataset.action = 'cancel-series';
          actions.append(b4);
        }
      }
      // The way there, in the phone's maps app: to the lot's entrance, not its middle.
      if (b.lotEntrance && end.getTime() > now) actions.append(directionsLink(b));
      item.append(actions);
    } else if (b.state === 'checkedIn' && b.checkedInAt) {
      item.append(el('p', 'booking-note small', `Checked in at ${clockText(new Date(b.checkedInAt), tz)}.`));
    } else if (b.state === 'forfeited') {
      item.append(el('p', 'booking-note warning small', `Nobody checked in by ${clockText(new Date(b.forfeitAt), tz)}, so the space was released. No refund.`));
    } else if (b.state === 'cancelled') {
      item.append(el('p', 'booking-note small', `Cancelled; ${formatMoney(b.paid)} went back to your wallet.`));
    }
    return item;
  }

  function directionsLink(b) {
    const a = el('a', { class: 'acc-button', href: directionsURL(b.lotEntrance), target: '_blank', rel: 'noopener' }, 'Directions');
    a.dataset.action = 'directions';
    a.setAttribute('aria-label', `Directions to the entrance of ${b.lotName}`);
    return a;
  }

  /** Every date of the weekly booking that has not started, each refunded. */
  async function cancelWeekly(b) {
    try {
      await cancelWeeklyDates(b.seriesId, b.lotCode);
    } catch (err) {
      toast(problemText(err), 5000);
    }
    load();
  }

  async function act(b, what) {
    try {
      if (what === 'cancel') {
        const ok = await confirm({
          name: 'cancel-booking',
          title: `Cancel your booking at ${b.lotCode}?`,
          message: `${formatMoney(b.paid)} goes back to your wallet.`,
          confirm: 'Cancel booking',
          danger: true,
        });
        if (!ok) return;
        const r = await cancelBooking(b.id, `Cancel ${b.lotCode} · ${rangeText(new Date(b.start), new Date(b.end), zoneOf(b))}`);
        toast(r.sent ? `Cancelled · ${formatMoney(b.paid)} refunded` : 'Offline: the cancellation is sent when Waymark can be reached');
      } else {
        await checkIn(b.id);
        toast(`Checked in at ${b.lotCode}`);
      }
    } catch (err) {
      toast(problemText(err), 5000);
    }
    load();
  }

  return {
    name: 'bookings',
    title: 'Your Bookings',
    path: o.focus ? `/me/bookings/${encodeURIComponent(o.focus)}` : undefined,
    leave() { alive = false; clearTimeout(timer); stopWatching(); },
    render() {
      alive = true;
      stopWatching();
      // A queued write sent or refused changes both lists: draw at once, then ask the server.
      const off = onChange(() => { if (alive) { draw(last); load(); } });
      stopWatching = () => { off(); };
      load();
      return [status, waiting, list];
    },
  };
}

/**
 * Moves a booking to another time before it starts; the quote shows what it costs or gives back.
 * @param {AccountsContext} ctx @param {any} b @param {string} tz
 * @returns {import('../accounts/panel.js').View}
 */
function changeBookingView(ctx, b, tz) {
  return {
    name: 'change-booking',
    title: 'Change Booking',
    render() {
      const start = new Date(b.start);
      const end = new Date(b.end);
      const s = zonedParts(start, tz);
      const e = zonedParts(end, tz);
      const day = field({ label: 'Day', name: 'day', type: 'date', value: s.date, required: true });
      const from = field({ label: 'From', name: 'from', type: 'time', value: timeValue(s.minute), required: true });
      const until = field({ label: 'Until', name: 'until', type: 'time', value: timeValue(e.minute), required: true });
      for (const f of [day, from, until]) f.wrap.classList.add('inline');
      from.input.step = until.input.step = '900';
      const row = el('div', 'booking-when');
      row.append(day.wrap, from.wrap, until.wrap);
      const line = el('p', 'booking-quote');
      line.dataset.testid = 'change-quote';
      line.setAttribute('aria-live', 'polite');

      const range = () => {
        const a = minuteOf(from.input.value);
        const z = minuteOf(until.input.value);
        if (!day.input.value || a == null || z == null) return null;
        return {
          start: zonedInstant(day.input.value, a, tz),
          end: zonedInstant(z > a ? day.input.value : addDays(day.input.value, 1), z, tz),
        };
      };
      let seq = 0;
      const requote = async () => {
        const r = range();
        if (!r) { line.textContent = ''; return; }
        const mine = ++seq;
        try {
          const q = await quote(b.lotId, r.start, r.end);
          if (mine !== seq) return;
          if (!q.bookable) { line.textContent = q.problem?.detail ?? 'This time cannot be booked.'; return; }
          const diff = q.total.minorUnits - b.paid.minorUnits;
          const settle = diff > 0 ? `you pay ${formatMoney({ minorUnits: diff, currency: q.total.currency })} more`
            : diff < 0 ? `${formatMoney({ minorUnits: -diff, currency: q.total.currency })} back to your wallet` : 'no difference in price';
          line.textContent = `${formatMoney(q.total)} · ${settle}`;
        } catch (err) {
          if (mine === seq) line.textContent = problemText(err);
        }
      };
      for (const f of [day, from, until]) f.input.addEventListener('change', requote);

      const f = form({
        name: 'change-booking',
        submit: 'Save new time',
        children: [el('p', 'muted small', `${b.lotName} · now ${rangeText(start, end, tz)}`), row, line],
        async action() {
          const r = range();
          if (!r) throw new Error('Choose a day and a time.');
          const sent = await modifyBooking(b.id, r.start, r.end, `New time for ${b.lotCode} · ${rangeText(r.start, r.end, tz)}`);
          toast(sent.sent ? 'Booking changed' : 'Offline: the new time is sent when Waymark can be reached');
          ctx.panel.back();  // the list redraws and reloads
        },
      });
      requote();
      return f.el;
    },
  };
}

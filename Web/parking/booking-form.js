// "Book a space" on a lot's card (PRK-12, PRK-13; UniPark sprint 4): pick a day and a time,
// see the price and the spaces left as the server quotes them, and book, paid up front from
// the wallet. When the wallet holds too little the app offers to add the difference first;
// the booking keeps one Idempotency-Key across the top-up and retries, so it is made once.

import { el } from '../accounts/forms.js';
import { signedIn } from '../accounts/session.js';
import { ProblemError, OfflineError, problemText } from '../shell/api.js';
import { choose, confirm, inform } from '../shell/dialog.js';
import { toast } from '../shell/toast.js';
import { formatMoney } from '../shell/money.js';
import {
  zonedParts, zonedInstant, addDays, timeValue, minuteOf, rangeText,
} from '../shell/zoned-time.js';
import { quote, quoteSeries, bookSeries, newKey, book as bookSpace } from './api.js';
import { repeatControls, datesList, seriesLine } from './booking-repeat.js';
import { getWallet, balanceIn } from '../accounts/api.js';
import { addMoney } from '../accounts/card-payment.js';

const STEP = 15;
const QUOTE_DELAY_MS = 250;
/** Top-ups are offered in steps of this many minor units (whole $5). */
const TOP_UP_STEP = 500;

let uid = 0;

/** "$3.00 a day with 2 h included, then $0.04 a minute, at most $14.00 a day". */
export function tariffText(t) {
  const money = (m) => formatMoney({ minorUnits: m, currency: t.currency });
  const unit = t.rateUnitMinutes === 1 ? 'a minute' : t.rateUnitMinutes === 60 ? 'an hour' : `per ${t.rateUnitMinutes} min`;
  const parts = [];
  if (t.dailyFeeMinor > 0) {
    const included = t.includedMinutesPerDay >= 1440 ? '' : t.includedMinutesPerDay > 0
      ? ` with ${t.includedMinutesPerDay % 60 ? `${t.includedMinutesPerDay} min` : `${t.includedMinutesPerDay / 60} h`} included`
      : '';
    parts.push(`${money(t.dailyFeeMinor)} a day${included}`);
  }
  if (t.rateMinor > 0 && t.includedMinutesPerDay < 1440) parts.push(`${parts.length ? 'then ' : ''}${money(t.rateMinor)} ${unit}`);
  if (t.dailyCapMinor != null) parts.push(`at most ${money(t.dailyCapMinor)} a day`);
  return parts.join(', ') || 'Free';
}

/** Amounts to offer when `shortMinor` is missing: the shortfall rounded up to whole $5, and $10 more. */
export function topUpChoices(shortMinor, wallet) {
  const first = Math.max(wallet.topUpMinimumMinor, Math.ceil(shortMinor / TOP_UP_STEP) * TOP_UP_STEP);
  return [first, first + 2 * TOP_UP_STEP].filter((a) => a <= wallet.topUpMaximumMinor);
}

/**
 * @param {{lot: any, timeZone: string, onSignIn: () => void, onBooked: (booking: any) => void}} o
 * @returns {HTMLElement}
 */
export function bookingSection(o) {
  const { lot, timeZone } = o;
  const offer = lot.booking;
  const sec = el('section', 'section booking');
  sec.dataset.testid = 'booking';
  sec.append(el('h3', '', 'Book a space'));
  sec.append(el('p', 'muted small', `${offer.bookableCapacity} spaces can be booked ahead · ${tariffText(offer.tariff)}`));

  const id = `booking-${++uid}`;
  const row = el('div', 'booking-when');
  const input = (label, type, name) => {
    const wrap = el('div', 'field inline');
    const l = /** @type {HTMLLabelElement} */ (el('label', '', label));
    const i = /** @type {HTMLInputElement} */ (el('input'));
    i.type = type;
    i.name = name;
    i.id = `${id}-${name}`;
    l.htmlFor = i.id;
    wrap.append(l, i);
    row.append(wrap);
    return i;
  };
  const day = input('Day', 'date', 'day');
  const from = input('From', 'time', 'from');
  const until = input('Until', 'time', 'until');
  from.step = until.step = String(STEP * 60);

  // Defaults: the next quarter hour at least 30 minutes away, for two hours.
  const now = zonedParts(new Date(), timeZone);
  let startMinute = Math.ceil((now.minute + 30) / STEP) * STEP;
  let startDate = now.date;
  if (startMinute >= 1440) { startMinute -= 1440; startDate = addDays(startDate, 1); }
  day.value = startDate;
  day.min = now.date;
  day.max = addDays(now.date, 90);
  from.value = timeValue(startMinute);
  until.value = timeValue((startMinute + 120) % 1440);

  const next = el('p', 'booking-next-day muted small');
  next.hidden = true;
  const line = el('p', 'booking-quote');
  line.dataset.testid = 'booking-quote';
  line.setAttribute('aria-live', 'polite');
  const error = el('p', 'form-error');
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const book = /** @type {HTMLButtonElement} */ (el('button', 'acc-button primary booking-go'));
  book.type = 'button';
  book.dataset.action = 'book';
  const repeat = repeatControls(id, now.date, () => later());
  const dates = el('div', 'booking-dates-wrap');
  sec.append(row, next, repeat.element, line, dates, error, book);

  /** `series` is the weekly booking's quote when Repeat is on; `quote` then sums it up.
   * @type {{start: Date, end: Date, quote: any, series?: any, offline?: boolean}|null} */
  let current = null;
  /** The key of the booking being attempted: kept across a top-up and retries, new per range. */
  let pendingKey = '';
  let pendingRange = '';
  let timer = 0;
  let seq = 0;

  function range() {
    const s = minuteOf(from.value);
    const e = minuteOf(until.value);
    if (!day.value || s == null || e == null) return null;
    const start = zonedInstant(day.value, s, timeZone);
    const end = zonedInstant(e > s ? day.value : addDays(day.value, 1), e, timeZone);
    return { start, end, nextDay: e <= s };
  }

  function showButton() {
    if (!signedIn()) {
      book.textContent = 'Sign in to book';
      book.disabled = false;
      return;
    }
    if (current?.offline) {
      book.disabled = false;
      book.textContent = 'Book when back online';
      return;
    }
    const q = current?.quote;
    book.disabled = !q?.available;
    const n = current?.series?.availableCount;
    if (n) book.textContent = `Book ${n} ${n === 1 ? 'date' : 'dates'} for ${formatMoney(q.total)}`;
    else book.textContent = q?.bookable && q.total ? `Book for ${formatMoney(q.total)}` : 'Book';
  }

  const seriesOf = (r) => ({ lotId: lot.id, start: r.start, end: r.end, weekdays: repeat.weekdays, until: repeat.until });

  /** The weekly booking's dates, each priced or with why it cannot be booked. */
  async function requoteSeries(r, mine) {
    try {
      const q = await quoteSeries(seriesOf(r));
      if (mine !== seq) return;
      current = { start: r.start, end: r.end, series: q, quote: { available: q.availableCount > 0, bookable: true, total: q.total } };
      sec.dataset.available = String(q.availableCount > 0);
      line.textContent = seriesLine(q);
      dates.replaceChildren(datesList(q, timeZone));
    } catch (err) {
      if (mine !== seq) return;
      line.textContent = err instanceof OfflineError
        ? 'Offline: a weekly booking needs a connection to check every date. Book one date now, or try again when online.'
        : problemText(err);
    }
    showButton();
  }

  async function requote() {
    const r = range();
    error.hidden = true;
    current = null;
    dates.replaceChildren();
    if (!r) { line.textContent = 'Choose a day and a time.'; showButton(); return; }
    next.hidden = !r.nextDay;
    next.textContent = r.nextDay ? `Until ${until.value} the next day` : '';
    repeat.follow(day.value);
    const mine = ++seq;
    line.textContent = 'Checking…';
    showButton();
    if (repeat.on) { await requoteSeries(r, mine); return; }
    try {
      const q = await quote(lot.id, r.start, r.end);
      if (mine !== seq) return;
      current = { start: r.start, end: r.end, quote: q };
      sec.dataset.available = String(q.available);
      if (!q.bookable) line.textContent = q.problem?.detail ?? 'This time cannot be booked.';
      else if (!q.available) line.textContent = `${formatMoney(q.total)} · no space free for the whole time`;
      else line.textContent = `${formatMoney(q.total)} · ${q.spacesLeft} ${q.spacesLeft === 1 ? 'space' : 'spaces'} left`;
    } catch (err) {
      if (mine !== seq) return;
      if (err instanceof OfflineError) {
        // PRK-19: the booking can still be made; it is sent, priced and paid when back online.
        current = { start: r.start, end: r.end, quote: null, offline: true };
        line.textContent = 'Offline: no price or spaces right now. You can still book; it is sent when Waymark can be reached.';
      } else {
        line.textContent = problemText(err);
      }
    }
    showButton();
  }

  const later = () => { clearTimeout(timer); timer = setTimeout(() => { timer = 0; requote(); }, QUOTE_DELAY_MS); };
  for (const i of [day, from, until]) { i.addEventListener('input', later); i.addEventListener('change', later); }

  async function go() {
    if (!signedIn()) { o.onSignIn(); return; }
    // The inputs may have changed since the last quote (it waits for typing to pause): book
    // what the person sees, never the range quoted before.
    const r = range();
    if (timer || !current || !r || +r.start !== +current.start || +r.end !== +current.end) {
      clearTimeout(timer);
      timer = 0;
      await requote();
    }
    const c = current;
    if (c?.offline) { await queueOffline(c); return; }
    if (!c?.quote?.available) return;
    if (c.series) { await goSeries(c); return; }
    const when = rangeText(c.start, c.end, timeZone);
    const ok = await confirm({
      name: 'confirm-booking',
      title: `Book ${lot.code} · ${when}?`,
      message: `${formatMoney(c.quote.total)} is paid from your wallet now. Check in from 15 minutes before the start until 15 minutes after it, or the space is released and nothing is refunded. You can change or cancel the booking for free until it starts.`,
      confirm: `Book for ${formatMoney(c.quote.total)}`,
    });
    if (!ok) return;
    const rangeKey = `${c.start.toISOString()}/${c.end.toISOString()}`;
    if (rangeKey !== pendingRange) { pendingKey = newKey(); pendingRange = rangeKey; }
    book.disabled = true;
    book.setAttribute('aria-busy', 'true');
    error.hidden = true;
    try {
      const result = await bookPaying(c);
      if (!result) return;
      pendingKey = '';
      pendingRange = '';
      if (result.queued) toast('Offline: the booking is sent when Waymark can be reached');
      else toast(`Booked ${lot.code} · ${when}`);
      o.onBooked(result.booking ?? null);
      requote();
    } catch (err) {
      if (err instanceof OfflineError) {
        await queueOffline(c);
        return;
      }
      error.textContent = problemText(err);
      error.hidden = false;
    } finally {
      book.removeAttribute('aria-busy');
      showButton();
    }
  }

  /** Every bookable date of the weekly booking, paid together; the dates left out are told. */
  async function goSeries(c) {
    const q = c.series;
    const ok = await confirm({
      name: 'confirm-booking',
      title: `Book ${lot.code} · ${seriesLine(q)}?`,
      message: `${formatMoney(q.total)} is paid from your wallet now, date by date. Check in on each day from 15 minutes before the start until 15 minutes after it, or that date's space is released and nothing is refunded. You can cancel any date, or all that are left, for free until it starts.`,
      confirm: `Book ${q.availableCount} ${q.availableCount === 1 ? 'date' : 'dates'} for ${formatMoney(q.total)}`,
    });
    if (!ok) return;
    const rangeKey = `${c.start.toISOString()}/${c.end.toISOString()}/${repeat.weekdays.join(',')}/${repeat.until}`;
    if (rangeKey !== pendingRange) { pendingKey = newKey(); pendingRange = rangeKey; }
    book.disabled = true;
    book.setAttribute('aria-busy', 'true');
    error.hidden = true;
    try {
      const result = await bookPaying(c, async () => ({ series: await bookSeries(seriesOf(c), pendingKey) }));
      if (!result) return;
      pendingKey = '';
      pendingRange = '';
      const made = result.series.bookings.length, all = made + result.series.skipped.length;
      toast(`Booked ${made === all ? '' : `${made} of `}${all} ${all === 1 ? 'date' : 'dates'} at ${lot.code}`);
      if (result.series.skipped.length) {
        const lines = result.series.skipped.map((s) => `${rangeText(new Date(s.start), new Date(s.end), timeZone)}: ${s.reason}`);
        await inform({ name: 'series-skipped', title: 'Not every date was booked', message: lines.join('\n') });
      }
      o.onBooked(result.series.bookings[0] ?? null);
      requote();
    } catch (err) {
      error.textContent = err instanceof OfflineError ? 'Waymark cannot be reached: nothing was booked. Try again when online.' : problemText(err);
      error.hidden = false;
    } finally {
      book.removeAttribute('aria-busy');
      showButton();
    }
  }

  /**
   * Books, offering a top-up first when the wallet holds too little (checked before, and again
   * if the server says so: another device may have spent it meanwhile). Null when the person
   * gave up; `queued` when the connection dropped and the booking waits in the outbox.
   */
  async function bookPaying(c, sending = () => send(c)) {
    const price = c.quote.total;
    let wallet = await getWallet();
    if (balanceIn(wallet, price.currency).minorUnits >= price.minorUnits) {
      try {
        return await sending();
      } catch (err) {
        if (!(err instanceof ProblemError) || err.kind !== 'insufficient-funds') throw err;
      }
      wallet = await getWallet();
    }
    const balance = balanceIn(wallet, price.currency);
    const choices = topUpChoices(price.minorUnits - balance.minorUnits, wallet);
    if (!choices.length) throw new Error('This booking costs more than a wallet can hold.');
    const picked = await choose({
      name: 'top-up-to-book',
      title: 'Add money to your wallet?',
      message: `Your wallet holds ${formatMoney(balance)} and ${c.series ? 'these bookings cost' : 'this booking costs'} ${formatMoney(price)}. Add money, then ${c.series ? 'the dates are booked' : 'the booking is made'}.`,
      actions: [
        { id: 'cancel', label: 'Not now' },
        ...choices.map((a, i) => ({ id: String(a), label: `Add ${formatMoney({ minorUnits: a, currency: price.currency })} and book`, kind: /** @type {'primary'|'plain'} */ (i === 0 ? 'primary' : 'plain') })),
      ],
    });
    if (!picked || picked === 'cancel') return null;
    try {
      // Null: the person closed the card form; nothing was added and nothing is booked.
      if (!await addMoney(Number(picked), price.currency, newKey())) return null;
    } catch (err) {
      await inform({ name: 'top-up-failed', title: 'Money not added', message: problemText(err) });
      return null;
    }
    return sending();
  }

  /** The booking, sent now or, when the connection drops on the way, queued with its key. */
  async function send(c) {
    const r = await bookSpace({ key: pendingKey, label: `Book ${lot.code} · ${rangeText(c.start, c.end, timeZone)}`, lot, start: c.start, end: c.end });
    return r.sent ? { booking: r.answer } : { queued: r.write };
  }

  /** Offline: no quote, no wallet check; the server prices and charges it when it arrives. */
  async function queueOffline(c) {
    const when = rangeText(c.start, c.end, timeZone);
    const ok = await confirm({
      name: 'confirm-offline-booking',
      title: `Book ${lot.code} · ${when} when back online?`,
      message: `Waymark cannot be reached now. The booking is sent as soon as it can be, priced then (${tariffText(offer.tariff)}) and paid from your wallet. If no space is left or the wallet holds too little, Your Bookings says so.`,
      confirm: 'Book when online',
    });
    if (!ok) return;
    const rangeKey = `${c.start.toISOString()}/${c.end.toISOString()}`;
    if (rangeKey !== pendingRange) { pendingKey = newKey(); pendingRange = rangeKey; }
    const result = await send(c).catch((err) => { error.textContent = problemText(err); error.hidden = false; return null; });
    if (!result) return;
    pendingKey = '';
    pendingRange = '';
    toast(result.queued ? 'Saved: the booking is sent when Waymark can be reached' : `Booked ${lot.code} · ${when}`);
    o.onBooked(result.booking ?? null);
  }

  book.addEventListener('click', go);
  requote();
  return sec;
}

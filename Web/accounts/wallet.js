// The wallet (PRK-13): the balance, money added through the payment provider, and every
// movement with the balance after it. Bookings are paid from here (PRK-12). A top-up carries
// an Idempotency-Key kept until the server answers, so pressing again after a lost answer
// charges nothing twice.

import { el, button, field, form } from './forms.js';
import { problemText, ProblemError, newKey } from '../shell/api.js';
import { toast } from '../shell/toast.js';
import { formatMoney, parseAmount } from '../shell/money.js';
import { getWallet, walletHistory, balanceIn } from './api.js';
import { addMoney } from './card-payment.js';
import { listBookings } from '../parking/api.js';
import { savedNote } from './saved-reads.js';

const CURRENCY = 'USD';
const PRESETS = [1000, 2000, 5000];

/** How money is added on this server (`Wallet.payments`). */
const PAID_BY = {
  card: 'Money is added by card; your card details go to the card processor, never to Waymark.',
  demo: 'Demo server: money is added at once and nobody is charged.',
  off: 'This server takes no payments, so money cannot be added here.',
};

const MOVEMENT = {
  topUp: 'Money added',
  bookingPayment: 'Booking',
  modificationSettlement: 'Booking changed',
  cancellationRefund: 'Refund for a cancelled booking',
  forfeit: 'Booking forfeited · no refund',
  cardRefund: 'Paid back to your card',
};

/** @typedef {import('./index.js').AccountsContext} AccountsContext */

/**
 * @param {AccountsContext} _ctx
 * @returns {import('./panel.js').View}
 */
export function walletView(_ctx) {
  let alive = true;
  const balance = el('p', 'wallet-balance', '…');
  balance.dataset.testid = 'wallet-balance';
  const history = el('ul', 'wallet-history');
  history.dataset.testid = 'wallet-history';
  const status = el('p', 'muted small');
  status.setAttribute('role', 'status');
  /** @type {any} */
  let wallet = null;
  const paidBy = el('p', 'muted small wallet-paid-by');
  paidBy.dataset.testid = 'wallet-paid-by';
  /** One key per amount being added, until the server has answered. */
  let pending = { amount: 0, key: '' };

  async function load() {
    try {
      const [w, h, b] = await Promise.all([getWallet(), walletHistory(CURRENCY), listBookings().catch(() => ({ bookings: [] }))]);
      if (!alive) return;
      wallet = w;
      balance.textContent = formatMoney(balanceIn(w, CURRENCY));
      paidBy.textContent = PAID_BY[w.payments] ?? '';
      const lots = new Map(b.bookings.map((x) => [x.id, x]));
      history.replaceChildren(...h.lines.map((line) => row(line, lots.get(line.bookingId))));
      status.textContent = savedNote(w) || savedNote(h) || (h.lines.length ? '' : 'Nothing yet: add money to book a space ahead.');
    } catch (err) {
      if (alive) status.textContent = problemText(err);
    }
  }

  function row(line, booking) {
    const li = el('li', `wallet-line ${line.movement}`);
    li.dataset.movement = line.movement;
    const what = el('div', 'wallet-what');
    let label = MOVEMENT[line.movement] ?? line.movement;
    if (booking && (line.movement === 'bookingPayment' || line.movement === 'forfeit')) label = `${label} · ${booking.lotCode}`;
    const at = new Date(line.at).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
    what.append(el('span', '', label), el('small', 'muted', at));
    const amount = el('div', 'wallet-amount');
    amount.append(
      el('span', line.amount.minorUnits > 0 ? 'plus' : '', formatMoney(line.amount, { signed: true })),
      el('small', 'muted', formatMoney(line.balanceAfter)),
    );
    li.append(what, amount);
    return li;
  }

  async function add(amountMinor) {
    if (pending.amount !== amountMinor) pending = { amount: amountMinor, key: newKey() };
    const added = await addMoney(amountMinor, CURRENCY, pending.key);
    pending = { amount: 0, key: '' };
    if (added) {
      toast(`${formatMoney({ minorUnits: amountMinor, currency: CURRENCY })} added`);
      balance.textContent = formatMoney(added);
    }
    await load();
  }

  return {
    name: 'wallet',
    title: 'Wallet',
    leave() { alive = false; },
    render() {
      alive = true;
      const head = el('section', 'wallet-head');
      head.append(el('p', 'muted small', 'Balance'), balance, paidBy);

      const presets = el('div', 'wallet-presets');
      presets.setAttribute('role', 'group');
      presets.setAttribute('aria-label', 'Add money');
      const error = el('p', 'form-error');
      error.setAttribute('role', 'alert');
      error.hidden = true;
      for (const amount of PRESETS) {
        const b = button(`+ ${formatMoney({ minorUnits: amount, currency: CURRENCY })}`, async () => {
          error.hidden = true;
          b.disabled = true;
          try { await add(amount); } catch (err) { error.textContent = topUpText(err); error.hidden = false; } finally { b.disabled = false; }
        }, 'acc-button');
        b.dataset.amount = String(amount);
        presets.append(b);
      }
      const other = field({ label: 'Other amount', name: 'amount', inputMode: 'decimal', placeholder: '25.00', maxLength: 10 });
      const f = form({
        name: 'top-up',
        submit: 'Add money',
        children: [other.wrap],
        async action() {
          const minor = parseAmount(other.input.value, CURRENCY);
          const lo = wallet?.topUpMinimumMinor ?? 100;
          const hi = wallet?.topUpMaximumMinor ?? 50_000;
          if (minor == null || minor < lo || minor > hi) {
            throw new Error(`Enter an amount from ${formatMoney({ minorUnits: lo, currency: CURRENCY })} to ${formatMoney({ minorUnits: hi, currency: CURRENCY })}.`);
          }
          try { await add(minor); } catch (err) { throw new Error(topUpText(err)); }
          other.input.value = '';
        },
      });
      const adding = el('section', 'acc-section');
      adding.append(el('h3', '', 'Add money'), presets, error, f.el);
      const past = el('section', 'acc-section');
      past.append(el('h3', '', 'History'), status, history);
      load();
      return [head, adding, past];
    },
  };
}

function topUpText(err) {
  if (err instanceof ProblemError && err.status === 503) return 'Payments are not available on this server right now. Try again later.';
  return problemText(err);
}

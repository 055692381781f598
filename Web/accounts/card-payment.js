// Paying a top-up by card (PRK-13) where the server has the card processor: the server opens a
// payment intent; the card is typed into the processor's own form (Stripe's Payment Element,
// in its frames), so the card number never reaches Waymark; the processor confirms the payment
// and tells the server by a signed webhook, and the wallet is credited then. This waits for
// that, reading the top-up until it is no longer pending.

import { el } from '../shell/dom.js';
import { formatMoney } from '../shell/money.js';
import { topUp, getCardTopUp, getWallet, balanceIn } from './api.js';

const PROCESSOR_SCRIPT = 'https://js.stripe.com/v3/';
const WAIT_MS = 1000;
const WAIT_TRIES = 60;

/** @type {Promise<any>|null} */
let loading = null;

/** The processor's script, loaded once and only when someone pays by card. */
function processorScript() {
  loading ??= new Promise((resolve, reject) => {
    const script = el('script', { src: PROCESSOR_SCRIPT, async: true });
    script.addEventListener('load', () => (/** @type {any} */ (window).Stripe ? resolve(/** @type {any} */ (window).Stripe) : reject(new Error('no Stripe'))));
    script.addEventListener('error', () => reject(new Error('not loaded')));
    document.head.append(script);
  }).catch((err) => { loading = null; throw err; });
  return loading;
}

/**
 * Adds money however the server takes it: credited at once (the demo provider), or by card.
 * Resolves with the new balance; null when the person closed the card form.
 * @param {number} amountMinor @param {string} currency @param {string} key
 */
export async function addMoney(amountMinor, currency, key) {
  const result = await topUp(amountMinor, currency, key);
  if (!result.state) return result.balance;
  const paid = await payByCard(result);
  if (!paid) return null;
  if (paid.state !== 'succeeded') throw new Error(paid.failure ?? 'The card payment did not go through. Nothing was added.');
  return balanceIn(await getWallet(), currency);
}

/**
 * The processor's card form in a dialog of its own, for one pending top-up.
 * @param {any} pending a CardTopUp @returns {Promise<any|null>} the top-up as it ended, null when closed
 */
export function payByCard(pending) {
  const amount = formatMoney(pending.amount);
  const dialog = el('dialog', { class: 'dialog card-dialog', 'aria-labelledby': 'card-dialog-title', dataset: { name: 'card-payment' } });
  const form = el('div', 'card-form');
  const status = el('p', 'dialog-message', 'Loading the card form…');
  status.setAttribute('role', 'status');
  const error = el('p', 'form-error', '');
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const pay = el('button', { type: 'button', class: 'dialog-button primary', dataset: { action: 'pay' }, disabled: true }, `Pay ${amount}`);
  const close = el('button', { type: 'button', class: 'dialog-button plain', dataset: { action: 'close' } }, 'Cancel');
  dialog.append(
    el('h2', { class: 'dialog-title', id: 'card-dialog-title' }, `Add ${amount} by card`),
    el('p', 'muted small', 'Your card details go to the card processor, never to Waymark.'),
    status, form, error, el('div', 'dialog-actions', close, pay),
  );
  document.body.append(dialog);

  return new Promise((resolve) => {
    let done = false;
    const finish = (value) => {
      if (done) return;
      done = true;
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    close.addEventListener('click', () => finish(null));
    dialog.addEventListener('cancel', () => finish(null));
    dialog.showModal();

    /** @type {any} */
    let stripe = null;
    /** @type {any} */
    let elements = null;
    processorScript().then((Stripe) => {
      stripe = Stripe(pending.publishableKey);
      elements = stripe.elements({ clientSecret: pending.clientSecret });
      elements.create('payment').mount(form);
      status.hidden = true;
      pay.disabled = false;
    }).catch(() => {
      status.textContent = 'The card form could not be loaded. Check the connection and try again; nothing was charged.';
      close.textContent = 'Close';
      pay.remove();
      form.remove();
    });

    pay.addEventListener('click', async () => {
      pay.disabled = true;
      error.hidden = true;
      const answer = await stripe.confirmPayment({ elements, redirect: 'if_required' });
      if (answer.error) {
        error.textContent = answer.error.message ?? 'The card was declined.';
        error.hidden = false;
        pay.disabled = false;
        return;
      }
      status.hidden = false;
      status.textContent = 'Paid. Adding the money to your wallet…';
      for (let i = 0; i < WAIT_TRIES; i++) {
        const now = await getCardTopUp(pending.id).catch(() => null);
        if (now && now.state !== 'pending') { finish(now); return; }
        await new Promise((r) => setTimeout(r, WAIT_MS));
      }
      status.textContent = 'The card processor has not confirmed the payment yet. Your wallet shows the money when it does.';
      close.textContent = 'Close';
    });
  });
}

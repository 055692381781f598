// The wallet (PRK-13) as the server offers it. A top-up carries an Idempotency-Key made once
// per intent, so pressing again after a lost answer charges nothing twice.

import { authed } from './session.js';

export const getWallet = () => authed('GET', '/v1/wallet');
export const walletHistory = (currency = 'USD') => authed('GET', `/v1/wallet/history?currency=${encodeURIComponent(currency)}&limit=100`);

/** @param {number} amountMinor @param {string} currency @param {string} key */
export const topUp = (amountMinor, currency, key) =>
  authed('POST', '/v1/wallet/top-ups', { json: { amountMinor, currency }, headers: { 'Idempotency-Key': key } });

/** The wallet's balance in one currency (0 when it never held any). */
export function balanceIn(wallet, currency) {
  return wallet.balances.find((b) => b.currency === currency) ?? { minorUnits: 0, currency };
}

// Accounts, the person's own data and the wallet as the server offers them (ACC-1…10, PRK-13,
// PRK-16's permits, PRK-17): the only module of the area that names API paths. Requests that
// act for a person go through `authed` (the account's session, else this device's identity);
// the rest are plain `send`s with the token they need. The weekly schedule's calls are
// Parking's (`../parking/api.js`).

import { send } from '../shell/api.js';
import { authed } from './session.js';
import { savedRead } from './saved-reads.js';

const id = (s) => encodeURIComponent(s);

// ---- Identity (ACC-1, ACC-3, ACC-8, ACC-9) ----

/** A new anonymous device identity. */
export const createDevice = () => send('POST', '/v1/devices');
/** @param {any} registration @param {string|null} deviceToken the device whose data the account keeps */
export const createAccount = (registration, deviceToken) => send('POST', '/v1/accounts', { json: registration, token: deviceToken });
/** @param {string} username @param {string} password @param {string|null} deviceToken */
export const createSession = (username, password, deviceToken) =>
  send('POST', '/v1/sessions', { json: { username, password }, token: deviceToken });
/** @param {string} token */
export const endSession = (token) => send('DELETE', '/v1/sessions/current', { token });
/** @param {string} login */
export const requestPasswordReset = (login) => send('POST', '/v1/password-resets', { json: { login } });
/** @param {string} login @param {string} code */
export const verifyResetCode = (login, code) => send('POST', '/v1/password-resets/verify', { json: { login, code } });
/** @param {string} resetToken @param {string} newPassword */
export const completePasswordReset = (resetToken, newPassword) =>
  send('POST', '/v1/password-resets/complete', { json: { resetToken, newPassword } });
/**
 * Whether a saved API answer belongs to one person (sign-out deletes those, ACC-3).
 * @param {string} path a URL's path
 */
export const isPersonal = (path) => path.startsWith('/v1/me') || path.startsWith('/v1/users/');

// ---- The account (ACC-4, ACC-5, ACC-10) ----

export const getMe = () => authed('GET', '/v1/me');
/** @param {any} profile */
export const putProfile = (profile) => authed('PUT', '/v1/me/profile', { json: profile });
/** @param {Blob} picture */
export const putPicture = (picture) => authed('PUT', '/v1/me/picture', { body: picture, contentType: picture.type });
export const deletePicture = () => authed('DELETE', '/v1/me/picture');
/** @param {string} currentPassword @param {string} newUsername */
export const changeUsername = (currentPassword, newUsername) => authed('PUT', '/v1/me/username', { json: { currentPassword, newUsername } });
/** @param {string} currentPassword @param {string} newPassword */
export const changePassword = (currentPassword, newPassword) => authed('PUT', '/v1/me/password', { json: { currentPassword, newPassword } });
/** @param {string} password */
export const deleteAccount = (password) => authed('POST', '/v1/me/deletion', { json: { password } });
/** Everything Waymark keeps about the person (ACC-12). */
export const exportMyData = () => authed('GET', '/v1/me/export');

// ---- Permits (PRK-16) ----

export const getPermits = () => savedRead('/v1/me/permits');
/** The outbox write that sets the permits (sent now, or when the server can be reached). @param {string[]} permits @param {string} label */
export const permitsWrite = (permits, label) => ({ kind: 'permits', label, method: 'PUT', path: '/v1/me/permits', json: { permits }, supersedes: true });

// ---- The wallet (PRK-13): a top-up carries an Idempotency-Key made once per intent ----

export const getWallet = () => savedRead('/v1/wallet');
/** A card top-up: how it went, after the card processor's form. @param {string} topUpId */
export const getCardTopUp = (topUpId) => authed('GET', `/v1/wallet/top-ups/${encodeURIComponent(topUpId)}`);
export const walletHistory = (currency = 'USD') => savedRead(`/v1/wallet/history?currency=${id(currency)}&limit=100`);
/** @param {number} amountMinor @param {string} currency @param {string} key */
export const topUp = (amountMinor, currency, key) =>
  authed('POST', '/v1/wallet/top-ups', { json: { amountMinor, currency }, headers: { 'Idempotency-Key': key } });

/** The wallet's balance in one currency (0 when it never held any). */
export function balanceIn(wallet, currency) {
  return wallet.balances.find((b) => b.currency === currency) ?? { minorUnits: 0, currency };
}

// ---- Operator analytics (PRK-17) ----

/** @param {string} [from] @param {string} [to] YYYY-MM-DD, site-local; both absent: the last 14 days */
export function fetchAnalytics(from, to) {
  const q = new URLSearchParams();
  if (from) q.set('from', from);
  if (to) q.set('to', to);
  const s = q.toString();
  return authed('GET', `/v1/operator/analytics${s ? `?${s}` : ''}`);
}

// ---- Running a site (PRK-1): operators of a site change its lots and spots ----

/** The sites the person runs, by name (none for most people). */
export const listOperatedSites = () => authed('GET', '/v1/me/operated-sites');
/** A site's lots, fresh: an operator edits what drivers see now, never a saved copy. @param {string} siteId */
export const listSiteLots = (siteId) => send('GET', `/v1/sites/${id(siteId)}/lots`);
/** @param {string} lotId */
export const listLotSpots = (lotId) => send('GET', `/v1/lots/${id(lotId)}/spots`);
/** One character per spot in ordinal order (f, o, h, b, c, u). @param {string} lotId */
export const getSpotStates = (lotId) => send('GET', `/v1/lots/${id(lotId)}/spot-states`);
/** A lot's settings in the words of a site file. @param {string} lotId */
export const getLotSettings = (lotId) => authed('GET', `/v1/lots/${id(lotId)}/settings`);
/** @param {string} lotId @param {any} settings @returns the lot as drivers now see it */
export const putLotSettings = (lotId, settings) => authed('PUT', `/v1/lots/${id(lotId)}/settings`, { json: settings });
/** The dates a lot is closed on, from now on; anyone may read them. @param {string} lotId */
export const listLotClosures = (lotId) => send('GET', `/v1/lots/${id(lotId)}/closures`);
/** @param {string} lotId @param {{start: string, end: string, reason: string}} closure @returns the closure and how many bookings it cancelled */
export const addLotClosure = (lotId, closure) => authed('POST', `/v1/lots/${id(lotId)}/closures`, { json: closure });
/** @param {string} lotId @param {string} closureId */
export const liftLotClosure = (lotId, closureId) => authed('DELETE', `/v1/lots/${id(lotId)}/closures/${id(closureId)}`);
/** @param {string} spotId @param {boolean} open */
export const setSpotOpening = (spotId, open) => authed('PUT', `/v1/spots/${id(spotId)}/opening`, { json: { open } });
/**
 * Replaces the permits a site issues, in the order drivers see them. @param {string} siteId
 * @param {{code: string, name: string, colour: string}[]} permits @returns the site as drivers now see it
 */
export const putSitePermits = (siteId, permits) => authed('PUT', `/v1/sites/${id(siteId)}/permits`, { json: { permits } });
/** @param {string} siteId */
export const listSiteOperators = (siteId) => authed('GET', `/v1/sites/${id(siteId)}/operators`);
/** @param {string} siteId @param {string} login a username or email address */
export const grantSiteOperator = (siteId, login) => authed('POST', `/v1/sites/${id(siteId)}/operators`, { json: { login } });
/** @param {string} siteId @param {string} userId */
export const revokeSiteOperator = (siteId, userId) => authed('DELETE', `/v1/sites/${id(siteId)}/operators/${id(userId)}`);
/** Newest first. @param {string} siteId */
export const listSiteChanges = (siteId, limit = 50) => authed('GET', `/v1/sites/${id(siteId)}/changes?limit=${limit}`);
/** The gateways the site's operators made, active first. @param {string} siteId */
export const listSiteGateways = (siteId) => authed('GET', `/v1/sites/${id(siteId)}/gateways`);
/** @param {string} siteId @param {string} name @returns the gateway and its secret, shown only now */
export const addSiteGateway = (siteId, name) => authed('POST', `/v1/sites/${id(siteId)}/gateways`, { json: { name } });
/** The old secret stops working at once. @param {string} siteId @param {string} gatewayId */
export const replaceSiteGatewaySecret = (siteId, gatewayId) => authed('POST', `/v1/sites/${id(siteId)}/gateways/${id(gatewayId)}/secret`);
/** @param {string} siteId @param {string} gatewayId */
export const revokeSiteGateway = (siteId, gatewayId) => authed('DELETE', `/v1/sites/${id(siteId)}/gateways/${id(gatewayId)}`);
/** How the site's sensors and gateways report: counts per lot, sensors to look at, gateway traffic. @param {string} siteId */
export const getSensorHealth = (siteId) => authed('GET', `/v1/sites/${id(siteId)}/sensor-health`);

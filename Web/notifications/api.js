// The inbox and watched lots (PRK-15) and Web Push (PRK-22) as the server has them; every
// call but the push key needs a session.

import { send } from '../shell/api.js';
import { authed } from '../accounts/session.js';
import { savedRead } from '../accounts/saved-reads.js';
import { sendOrQueue } from '../accounts/outbox.js';

const id = (s) => encodeURIComponent(s);

/** Newest first, with the unread count. @param {number} [before] */
export const listNotifications = (before) => (before
  ? authed('GET', `/v1/me/notifications?limit=50&before=${before}`)
  : savedRead('/v1/me/notifications?limit=50'));
/** @param {string} n */
export const markRead = (n) => authed('POST', `/v1/me/notifications/${id(n)}/read`);
export const markAllRead = () => authed('POST', '/v1/me/notifications/read-all');
/** @param {string} n */
export const removeNotification = (n) => authed('DELETE', `/v1/me/notifications/${id(n)}`);
/** The live stream of new notifications (read with fetch: it needs the session's token). */
export const NOTIFICATIONS_LIVE = '/v1/me/notifications/live';
export const listWatches = () => savedRead('/v1/me/watches');
/** Sent now or queued: watching is a switch, so the last press offline is the one sent. @param {string} lotId @param {string} label */
export const watchLot = (lotId, label) => sendOrQueue({
  kind: 'watch', label, method: 'PUT', path: `/v1/lots/${id(lotId)}/watch`, ref: { lotId }, supersedes: true,
});
/** @param {string} lotId @param {string} label */
export const unwatchLot = (lotId, label) => sendOrQueue({
  kind: 'watch', label, method: 'DELETE', path: `/v1/lots/${id(lotId)}/watch`, ref: { lotId }, supersedes: true,
});

// ---- Web Push (PRK-22) ----

/** The server's public key (VAPID) for `pushManager.subscribe`: `{publicKey}`, base64url. */
export const getPushKey = () => send('GET', '/v1/push/key');
/** This person's push subscriptions: `{subscriptions: [{id, endpoint, createdAt, expiresAt?}]}`. */
export const listPushSubscriptions = () => authed('GET', '/v1/me/push-subscriptions');
/** @param {PushSubscriptionJSON} subscription exactly as the browser's `toJSON()` gives it */
export const addPushSubscription = (subscription) => authed('POST', '/v1/me/push-subscriptions', { json: subscription });
/** @param {string} subscriptionId */
export const removePushSubscription = (subscriptionId) => authed('DELETE', `/v1/me/push-subscriptions/${id(subscriptionId)}`);
/** Which kinds of notification are pushed: `{kinds: [{kind, label, enabled}]}`. */
export const getPushPreferences = () => authed('GET', '/v1/me/push-preferences');
/** Only the kinds to change; answers the whole list. @param {{kind: string, enabled: boolean}[]} kinds */
export const setPushPreferences = (kinds) => authed('PUT', '/v1/me/push-preferences', { json: { kinds } });

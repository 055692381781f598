// The inbox and watched lots (PRK-15) as the server has them; every call needs a session.

import { authed } from '../accounts/session.js';

const id = (s) => encodeURIComponent(s);

/** Newest first, with the unread count. @param {number} [before] */
export const listNotifications = (before) => authed('GET', `/v1/me/notifications?limit=50${before ? `&before=${before}` : ''}`);
/** @param {string} n */
export const markRead = (n) => authed('POST', `/v1/me/notifications/${id(n)}/read`);
export const markAllRead = () => authed('POST', '/v1/me/notifications/read-all');
/** @param {string} n */
export const removeNotification = (n) => authed('DELETE', `/v1/me/notifications/${id(n)}`);
/** The live stream of new notifications (read with fetch: it needs the session's token). */
export const NOTIFICATIONS_LIVE = '/v1/me/notifications/live';
export const listWatches = () => authed('GET', '/v1/me/watches');
/** @param {string} lotId */
export const watchLot = (lotId) => authed('PUT', `/v1/lots/${id(lotId)}/watch`);
/** @param {string} lotId */
export const unwatchLot = (lotId) => authed('DELETE', `/v1/lots/${id(lotId)}/watch`);

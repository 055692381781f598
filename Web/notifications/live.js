// New notifications as they are made (PRK-15), resumed after the last one delivered so that
// none is missed or shown twice.

import { NOTIFICATIONS_LIVE } from './api.js';
import { connectStream } from '../shell/event-stream.js';

/**
 * @param {{token: () => string|null, onNotification: (n: any) => void, onOpen?: () => void}} o
 *   onOpen: the stream is listening; anything made before it is in the inbox already
 * @returns {{stop: () => void}}
 */
export function connectNotifications(o) {
  return connectStream({
    url: NOTIFICATIONS_LIVE, token: o.token, onOpen: o.onOpen,
    onEvent(event, n) { if (event === 'notification') o.onNotification(n); },
  });
}

// New notifications as they are made (PRK-15). EventSource cannot send the session's bearer
// token, so the stream is read with fetch; it reconnects by itself and resumes after the last
// notification it delivered (Last-Event-ID), so none is missed or shown twice.

import { NOTIFICATIONS_LIVE } from './api.js';

const RETRY_MS = 2000;

/**
 * @param {{token: () => string|null, onNotification: (n: any) => void, onOpen?: () => void}} o
 *   onOpen: the stream is listening; anything made before it is in the inbox already
 * @returns {{stop: () => void}}
 */
export function connectNotifications(o) {
  let stopped = false;
  /** @type {AbortController|null} */
  let controller = null;
  /** @type {string|null} */
  let last = null;

  function dispatch(block) {
    let event = 'message';
    let data = '';
    let id = null;
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
      else if (line.startsWith('id:')) id = line.slice(3).trim();
    }
    if (event !== 'notification' || !data) return;
    if (id) last = id;
    try { o.onNotification(JSON.parse(data)); } catch (err) { console.warn('bad notification event', err); }
  }

  async function run() {
    while (!stopped) {
      const token = o.token();
      if (!token) return;
      controller = new AbortController();
      try {
        /** @type {Record<string, string>} */
        const headers = { Accept: 'text/event-stream', Authorization: `Bearer ${token}` };
        if (last) headers['Last-Event-ID'] = last;
        const res = await fetch(NOTIFICATIONS_LIVE, { headers, signal: controller.signal, cache: 'no-store' });
        // A session that is not valid any more will not become valid by retrying.
        if (res.status === 401) return;
        if (res.ok && res.body) {
          o.onOpen?.();
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value.replace(/\r\n?/g, '\n');
            let end;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              dispatch(buffer.slice(0, end));
              buffer = buffer.slice(end + 2);
            }
          }
        }
      } catch {
        // Offline, or the server went away: try again shortly.
      }
      if (stopped) return;
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  }

  run();
  return {
    stop() {
      stopped = true;
      controller?.abort();
    },
  };
}

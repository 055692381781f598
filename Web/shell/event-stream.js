// A Server-Sent-Events stream read with fetch, because EventSource cannot send the session's
// bearer token. It reconnects by itself and resumes after the last event it delivered
// (Last-Event-ID), so none is missed or delivered twice.

const RETRY_MS = 2000;

/**
 * @param {{url: string, token: () => string|null, onEvent: (event: string, data: any) => void,
 *   onOpen?: () => void, onGone?: () => void}} o
 *   onOpen: the stream is listening; onGone: the server will not stream this any more (401, 403,
 *   404, or it ended the stream for good), so it is not asked again
 * @returns {{stop: () => void}}
 */
export function connectStream(o) {
  let stopped = false;
  /** @type {AbortController|null} */
  let controller = null;
  /** @type {string|null} */
  let last = null;

  function dispatch(/** @type {string} */ block) {
    let event = 'message';
    let data = '';
    let id = null;
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
      else if (line.startsWith('id:')) id = line.slice(3).trim();
    }
    if (!data) return;
    if (id) last = id;
    try { o.onEvent(event, JSON.parse(data)); } catch (err) { console.warn('bad stream event', err); }
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
        const res = await fetch(o.url, { headers, signal: controller.signal, cache: 'no-store' });
        // A session or a subject that is not valid any more will not become valid by retrying.
        if ([401, 403, 404].includes(res.status)) { o.onGone?.(); return; }
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

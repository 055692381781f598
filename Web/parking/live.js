// The site's live stream (Server-Sent Events). The browser resends Last-Event-ID on its own
// reconnects; when it gives up (the server answered with an error) we reconnect ourselves
// with the last id in the query, so no change is missed either way. A hidden page closes the
// stream to save the phone's battery and resumes where it stopped when shown again.

/**
 * @param {{
 *   url: (lastEventId: number) => string,
 *   lastEventId: number,
 *   onSpot: (change: any) => void,
 *   onLot: (lot: any) => void,
 *   onReset: () => void,
 *   onStatus: (status: 'connecting'|'live'|'offline'|'paused') => void,
 * }} o
 */
export function connectLive(o) {
  let lastId = o.lastEventId;
  /** @type {EventSource|null} */
  let source = null;
  let retry = 0;
  let backoff = 1000;
  let offlineTimer = 0;
  let status = '';

  const set = (s) => { if (s !== status) { status = s; o.onStatus(s); } };

  function open() {
    close();
    set('connecting');
    const es = new EventSource(o.url(lastId));
    source = es;
    es.addEventListener('open', () => {
      backoff = 1000;
      clearTimeout(offlineTimer);
      set('live');
    });
    es.addEventListener('spot', (e) => {
      const ev = /** @type {MessageEvent} */ (e);
      if (ev.lastEventId) lastId = Number(ev.lastEventId);
      try { o.onSpot(JSON.parse(ev.data)); } catch (err) { console.warn('bad live event', err); }
    });
    // A lot's counts moved with no spot changing (a booked driver expected, or no longer).
    es.addEventListener('lot', (e) => {
      const ev = /** @type {MessageEvent} */ (e);
      if (ev.lastEventId) lastId = Number(ev.lastEventId);
      try { o.onLot(JSON.parse(ev.data)); } catch (err) { console.warn('bad live event', err); }
    });
    es.addEventListener('reset', (e) => {
      const ev = /** @type {MessageEvent} */ (e);
      if (ev.lastEventId) lastId = Number(ev.lastEventId);
      o.onReset();
    });
    es.addEventListener('error', () => {
      if (source !== es) return;
      // A short blip is not worth a banner; a lost connection for a few seconds is.
      clearTimeout(offlineTimer);
      offlineTimer = setTimeout(() => { if (source === es && es.readyState !== EventSource.OPEN) set('offline'); }, 2500);
      if (es.readyState === EventSource.CLOSED) {
        clearTimeout(retry);
        retry = setTimeout(open, backoff);
        backoff = Math.min(30_000, backoff * 2);
      }
    });
  }

  function close() {
    clearTimeout(retry);
    if (source) { source.close(); source = null; }
  }

  const onVisibility = () => {
    if (document.visibilityState === 'hidden') { close(); clearTimeout(offlineTimer); set('paused'); }
    else if (!source) open();
  };
  const onOnline = () => { backoff = 1000; open(); };
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('online', onOnline);
  open();

  return {
    get lastEventId() { return lastId; },
    set lastEventId(id) { lastId = id; },
    get status() { return status; },
    /** Reconnects now, e.g. after the refresh button. */
    reconnect() { backoff = 1000; open(); },
    stop() {
      close();
      clearTimeout(offlineTimer);
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('online', onOnline);
    },
  };
}

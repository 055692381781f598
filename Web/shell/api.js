// Reads from the Waymark API. A read that cannot reach the server answers from the last copy
// kept in Cache Storage (the service worker keeps it when it controls the page; this module
// keeps it itself before the worker has taken over), and says that the answer is a copy.

export const API_CACHE = 'waymark-api-v1';
const TIMEOUT_MS = 10_000;

/** The server answered with a problem (RFC 9457). */
export class ProblemError extends Error {
  /** @param {number} status @param {any} problem @param {number|null} [retryAfter] seconds, from a 429's Retry-After */
  constructor(status, problem, retryAfter = null) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }

  /** The last segment of the problem's type URI ("reset-code-wrong"), or '' for none. */
  get kind() {
    const type = String(this.problem?.type ?? '');
    return type.startsWith('http') ? type.slice(type.lastIndexOf('/') + 1) : '';
  }
}

/**
 * A fresh random UUID: the Idempotency-Key of one intent (one booking, one top-up), or the id of
 * something made here first (a schedule block added offline). randomUUID needs a secure origin;
 * getRandomValues does not.
 */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; // version 4
  b[8] = (b[8] & 0x3f) | 0x80; // the RFC 9562 variant
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Neither the server nor a saved copy could answer. */
export class OfflineError extends Error {}

/**
 * @template T
 * @param {string} path
 * @returns {Promise<{data: T, fromCache: boolean, savedAt: string|null}>}
 */
export async function getJSON(path) {
  const url = new URL(path, location.origin).href;
  let response;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' }, signal: abort.signal });
  } catch {
    response = null;
  } finally {
    clearTimeout(timer);
  }
  if (response && response.ok) {
    const fromCache = response.headers.get('x-waymark-from-cache') === '1';
    if (!fromCache && !navigator.serviceWorker?.controller) keep(url, response.clone());
    return { data: await response.json(), fromCache, savedAt: response.headers.get('x-waymark-saved-at') };
  }
  if (response && response.status < 500) {
    let problem = null;
    try { problem = await response.json(); } catch { /* not JSON */ }
    throw new ProblemError(response.status, problem);
  }
  const copy = await cached(url);
  if (copy) return { data: await copy.json(), fromCache: true, savedAt: copy.headers.get('x-waymark-saved-at') };
  throw new OfflineError(`Could not reach the server for ${path}`);
}

async function keep(url, response) {
  try {
    const headers = new Headers(response.headers);
    headers.set('x-waymark-saved-at', new Date().toISOString());
    const body = await response.blob();
    const cache = await caches.open(API_CACHE);
    await cache.put(url, new Response(body, { status: response.status, headers }));
  } catch { /* storage full or unavailable: the app works without the copy */ }
}

async function cached(url) {
  try {
    const cache = await caches.open(API_CACHE);
    return (await cache.match(url)) ?? null;
  } catch {
    return null;
  }
}

/**
 * A request that is never answered from a saved copy: writes, and reads that belong to one
 * person (the service worker lets requests with credentials pass through untouched).
 * @param {string} method
 * @param {string} path
 * @param {{json?: any, body?: Blob, contentType?: string, token?: string|null, headers?: Record<string, string>, accept?: string, raw?: boolean}} [o]
 *   headers: extra request headers (an `Idempotency-Key`); accept and raw: a file (a GPX) rather than JSON, answered as a Blob
 * @returns {Promise<any>} the JSON answer (a Blob with `raw`), or null when there is none (204)
 */
export async function send(method, path, o = {}) {
  /** @type {Record<string, string>} */
  const headers = { ...(o.headers ?? {}), Accept: `${o.accept ?? 'application/json'}, application/problem+json` };
  if (o.token) headers.Authorization = `Bearer ${o.token}`;
  /** @type {BodyInit|undefined} */
  let body;
  if (o.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(o.json);
  } else if (o.body) {
    headers['Content-Type'] = o.contentType ?? o.body.type;
    body = o.body;
  }
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  let response;
  try {
    response = await fetch(new URL(path, location.origin).href, { method, headers, body, signal: abort.signal, cache: 'no-store' });
  } catch {
    throw new OfflineError(`Could not reach the server for ${path}`);
  } finally {
    clearTimeout(timer);
  }
  if (response.ok) {
    if (response.status === 204) return null;
    if (o.raw) return response.blob();
    const text = await response.text();
    return text ? JSON.parse(text) : null;
  }
  let problem = null;
  try { problem = await response.json(); } catch { /* not JSON */ }
  const retry = Number(response.headers.get('Retry-After'));
  throw new ProblemError(response.status, problem, Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null);
}

/**
 * What to tell the person when a request failed: the server's own words (the problem's
 * detail), with how long to wait when throttled.
 * @param {unknown} err
 */
export function problemText(err) {
  if (err instanceof OfflineError) return 'Can’t reach Waymark. Check your connection and try again.';
  if (err instanceof ProblemError) {
    const said = err.problem?.detail || err.problem?.title || `The server answered ${err.status}.`;
    if (err.status === 429) {
      const wait = err.retryAfter ? ` Try again in ${err.retryAfter} s.` : ' Try again later.';
      return `${said.replace(/\s*$/, '')}${/[.!?]$/.test(said.trim()) ? '' : '.'}${wait}`;
    }
    return said;
  }
  return `Something went wrong: ${/** @type {any} */ (err)?.message ?? err}`;
}

// Reads from the Waymark API. A read that cannot reach the server answers from the last copy
// kept in Cache Storage (the service worker keeps it when it controls the page; this module
// keeps it itself before the worker has taken over), and says that the answer is a copy.

export const API_CACHE = 'waymark-api-v1';
const TIMEOUT_MS = 10_000;

/** The server answered with a problem (RFC 9457). */
export class ProblemError extends Error {
  /** @param {number} status @param {any} problem */
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
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

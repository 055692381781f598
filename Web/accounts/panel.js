// The Accounts panel: full screen on a phone, a panel at the side on wide screens. It shows
// one screen at a time from a stack, with Back to return and Close to go back to the map.

/**
 * @typedef {object} View
 * @property {string} name        stable id (data-view, for tests and styles)
 * @property {string} title
 * @property {() => Node|Node[]} render
 * @property {() => void} [leave] called when the screen goes away
 * @property {string} [path]      its URL, when it is not /me/<name>
 */

export function createPanel() {
  const panel = /** @type {HTMLElement} */ (document.getElementById('accounts'));
  const body = /** @type {HTMLElement} */ (document.getElementById('accounts-body'));
  const title = /** @type {HTMLElement} */ (document.getElementById('accounts-title'));
  const back = /** @type {HTMLButtonElement} */ (document.getElementById('accounts-back'));
  const close = /** @type {HTMLButtonElement} */ (document.getElementById('accounts-close'));
  /** @type {View[]} */
  let stack = [];
  /** @type {HTMLElement|null} */
  let returnFocus = null;
  /** @type {Set<(cause: 'open'|'push'|'reset'|'back'|'close', view: View|null) => void>} */
  const listeners = new Set();
  const emit = (cause) => { for (const fn of listeners) fn(cause, stack[stack.length - 1] ?? null); };

  function show() {
    const view = stack[stack.length - 1];
    if (!view) return;
    panel.dataset.view = view.name;
    title.textContent = view.title;
    back.hidden = stack.length < 2;
    const content = view.render();
    body.replaceChildren(...(Array.isArray(content) ? content : [content]));
    body.scrollTop = 0;
    title.focus({ preventScroll: true });
  }

  function leaveTop() { stack[stack.length - 1]?.leave?.(); }

  const api = {
    get isOpen() { return !panel.hidden; },
    get view() { return panel.hidden ? null : stack[stack.length - 1]?.name ?? null; },
    /** Opens the panel on `view` as its first screen. @param {View} view */
    open(view) {
      if (panel.hidden) {
        returnFocus = /** @type {HTMLElement|null} */ (document.activeElement);
        panel.hidden = false;
        panel.classList.add('entering');
        requestAnimationFrame(() => requestAnimationFrame(() => panel.classList.remove('entering')));
      }
      leaveTop();
      stack = [view];
      show();
      emit('open');
    },
    /** @param {View} view */
    push(view) { leaveTop(); stack.push(view); show(); emit('push'); },
    /** Replaces the whole stack with one screen (after signing in or out). @param {View} view */
    reset(view) { leaveTop(); stack = [view]; show(); emit('reset'); },
    /** The screen on top, and the one under it. */
    get top() { return panel.hidden ? null : stack[stack.length - 1] ?? null; },
    get depth() { return panel.hidden ? 0 : stack.length; },
    /**
     * Screen changes, after they happen: opened, pushed, reset, back, closed.
     * @param {(cause: 'open'|'push'|'reset'|'back'|'close', view: View|null) => void} fn
     */
    onChange(fn) { listeners.add(fn); },
    /** Redraws the current screen. */
    refresh() { if (!panel.hidden) show(); },
    /**
     * Puts `view` in the place of `standIn` in the stack, drawn if it is the current screen:
     * a screen whose module has come (onDemand) is then the one its own code finds on top.
     * @param {View} standIn @param {View} view
     */
    replace(standIn, view) {
      const i = stack.indexOf(standIn);
      if (i < 0) return;
      stack[i] = view;
      if (i === stack.length - 1 && !panel.hidden) show();
    },
    back() {
      if (stack.length < 2) return;
      leaveTop();
      stack.pop();
      show();
      emit('back');
    },
    close() {
      if (panel.hidden) return;
      leaveTop();
      stack = [];
      panel.hidden = true;
      panel.dataset.view = '';
      body.replaceChildren();
      if (returnFocus?.isConnected) returnFocus.focus({ preventScroll: true });
      emit('close');
    },
  };

  back.addEventListener('click', () => api.back());
  close.addEventListener('click', () => api.close());
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || panel.hidden || document.querySelector('dialog[open]')) return;
    if (stack.length > 1) api.back(); else api.close();
  });
  return api;
}

/**
 * A screen whose module loads the first time it is shown, so You costs nothing on opening the
 * app beyond its panel and the bell. Its name, title and path are there at once (the URL and
 * the tests read them); "Loading…" stands in for its content until the module has come.
 * @param {ReturnType<typeof createPanel>} panel
 * @param {{name: string, title: string, path?: string}} o
 * @param {() => Promise<View>} load
 * @returns {View}
 */
export function onDemand(panel, o, load) {
  /** @type {View|null} */
  let view = null;
  /** @type {Promise<void>|null} */
  let loading = null;
  /** @type {HTMLElement|null} the line shown meanwhile */
  let note = null;
  /** @type {View} */
  const screen = {
    name: o.name,
    get title() { return view?.title ?? o.title; },
    get path() { return view ? view.path : o.path; },
    render() {
      if (view) return view.render();
      note = document.createElement('p');
      note.className = 'muted';
      note.setAttribute('role', 'status');
      note.textContent = 'Loading…';
      loading ??= load().then((v) => {
        view = v;
        panel.replace(screen, v);
      }, (err) => {
        // Offline before the service worker kept the files: showing the screen again retries.
        console.error(err);
        loading = null;
        if (note) note.textContent = 'This screen could not be loaded. Check your connection and try again.';
      });
      return note;
    },
    // Once loaded the stack holds the view itself; a stand-in used again passes on to it.
    leave() { view?.leave?.(); },
  };
  return screen;
}

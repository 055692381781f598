// Operate (PRK-1): where an operator of a site runs it. Reached from the Accounts menu by people
// who run at least one site: the site's name (with a chooser when they run several, the choice
// kept in this browser), then six sections as tabs, each at a path of its own (/me/operate,
// /me/operate/spots, …): a lot's settings, closing and opening spots, the permits the site
// issues, who runs the site, the record of every change, and how the site's sensors and
// gateways report. A section keeps
// what it shows while another is open, so edits not yet saved survive a look at the spots.

import { el, button } from './forms.js';
import { problemText } from '../shell/api.js';
import { record } from '../shell/router.js';
import { choose, confirm } from '../shell/dialog.js';
import { operatedSites, statusLine } from './operate-parts.js';
import { listSiteLots } from './api.js';
import { lotsSection } from './operate-lot-form.js';
import { spotsSection } from './operate-spots.js';
import { operatorsSection } from './operate-team.js';
import { changesSection } from './operate-changes.js';
import { sensorsSection } from './operate-sensors.js';
import { permitsSection } from './operate-permits.js';

const SITE_KEY = 'waymark.operate.site';
/** @type {[string, string][]} id, label */
export const TABS = [['lots', 'Lots'], ['spots', 'Spots'], ['permits', 'Permits'], ['operators', 'Operators'], ['changes', 'Changes'], ['sensors', 'Sensors']];

const remembered = () => { try { return localStorage.getItem(SITE_KEY) ?? ''; } catch { return ''; } };
const remember = (/** @type {string} */ id) => { try { localStorage.setItem(SITE_KEY, id); } catch { /* storage off: chosen for this visit */ } };

/**
 * @param {import('./index.js').AccountsContext} ctx
 * @param {{tab?: string}} [o] the section to open with
 * @returns {import('./panel.js').View}
 */
export function operateView(ctx, o = {}) {
  let alive = true;
  let tab = TABS.some(([id]) => id === o.tab) ? /** @type {string} */ (o.tab) : 'lots';
  /** @type {import('./operate-parts.js').OperateState|null} */
  let shared = null;
  /** @type {Record<string, {el: HTMLElement, show: () => void, dirty?: () => boolean}>} */
  let sections = {};

  const status = statusLine();
  const top = el('div', 'op-top');
  const heading = el('h3', 'op-site');
  heading.dataset.testid = 'op-site';
  const tabs = el('div', 'op-tabs');
  tabs.setAttribute('role', 'tablist');
  tabs.setAttribute('aria-label', 'Sections');
  const panes = el('div', 'op-panes');
  /** @type {Record<string, HTMLButtonElement>} */
  const tabButtons = {};
  /** @type {Record<string, HTMLElement>} */
  const tabPanes = {};
  for (const [id, label] of TABS) {
    const b = /** @type {HTMLButtonElement} */ (el('button', { type: 'button', class: 'op-tab', id: `op-tab-${id}` }, label));
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-controls', `op-pane-${id}`);
    b.dataset.tab = id;
    b.addEventListener('click', () => select(id));
    tabButtons[id] = b;
    tabs.append(b);
    const pane = el('div', { class: 'op-pane', id: `op-pane-${id}` });
    pane.setAttribute('role', 'tabpanel');
    pane.setAttribute('aria-labelledby', b.id);
    pane.dataset.pane = id;
    tabPanes[id] = pane;
    panes.append(pane);
  }
  // Arrow keys move between the tabs, as in any tab list; Tab goes on into the section.
  tabs.addEventListener('keydown', (e) => {
    const i = TABS.findIndex(([id]) => id === tab);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const id = TABS[(next + TABS.length) % TABS.length][0];
    select(id);
    tabButtons[id].focus();
  });

  const view = {
    name: 'operate',
    title: 'Operate',
    get path() { return tab === 'lots' ? '/me/operate' : `/me/operate/${tab}`; },
    leave() { alive = false; },
    render() {
      alive = true;
      status.textContent = 'Loading…';
      top.replaceChildren(heading);
      heading.textContent = '';
      tabs.hidden = true;
      panes.hidden = true;
      start();
      return [top, status, tabs, panes];
    },
  };

  function select(/** @type {string} */ id) {
    const moved = id !== tab;
    tab = id;
    for (const [t] of TABS) {
      const on = t === tab;
      tabButtons[t].setAttribute('aria-selected', String(on));
      tabButtons[t].tabIndex = on ? 0 : -1;
      tabPanes[t].hidden = !on;
    }
    if (!shared) return;
    const section = sections[tab] ??= make(tab, shared);
    if (!section.el.isConnected) tabPanes[tab].replaceChildren(section.el);
    section.show();
    if (moved && ctx.panel.top === view) record(view.path, { layer: 'me', replace: true });
  }

  /** @param {string} id @param {import('./operate-parts.js').OperateState} s */
  function make(id, s) {
    switch (id) {
      case 'spots': return spotsSection(s);
      case 'permits': return permitsSection(s);
      case 'operators': return operatorsSection(s, () => start());
      case 'changes': return changesSection(s);
      case 'sensors': return sensorsSection(s);
      default: return lotsSection(s);
    }
  }

  async function start() {
    try {
      const sites = await operatedSites();
      if (!alive) return;
      if (!sites.length) {
        shared = null;
        top.replaceChildren(heading);
        heading.textContent = '';
        tabs.hidden = true;
        panes.hidden = true;
        status.textContent = 'You don’t run any site. An operator of a site can grant you the role.';
        return;
      }
      const here = await ctx.site().catch(() => null);
      if (!alive) return;
      const wanted = [remembered(), here?.id].find((id) => sites.some((s) => s.id === id));
      const site = sites.find((s) => s.id === wanted) ?? sites[0];
      // Several sites: a chooser beside the name, as the map's site chip offers one.
      const switcher = button('Switch site', async () => {
        const id = await choose({
          title: 'Which site?', message: 'The sites you run.', name: 'operate-site',
          actions: [...sites.map((s) => ({ id: s.id, label: s.name, kind: /** @type {'primary'|'plain'} */ (s.id === shared?.site.id ? 'primary' : 'plain') })),
            { id: 'cancel', label: 'Cancel' }],
        });
        const next = sites.find((s) => s.id === id);
        if (!alive || !next || next.id === shared?.site.id) return;
        const dirty = Object.values(sections).some((s) => s.dirty?.());
        if (dirty && !(await confirm({ title: 'Discard your changes?', message: 'The lot you were editing keeps its settings as saved.', confirm: 'Discard', danger: true, name: 'discard-lot' }))) return;
        remember(next.id);
        openSite(next);
      }, 'link-button op-switch-site');
      switcher.dataset.action = 'switch-site';
      switcher.setAttribute('aria-haspopup', 'dialog');
      top.replaceChildren(heading, ...(sites.length > 1 ? [switcher] : []));
      openSite(site);
    } catch (err) {
      if (alive) status.textContent = problemText(err);
    }
  }

  function openSite(/** @type {import('./operate-parts.js').Site} */ site) {
    const mine = {
      site,
      lots: listSiteLots(site.id).then((r) => r.lots),
      lotId: '',
      alive: () => alive && shared === mine,
    };
    mine.lots.catch(() => { /* each section says so */ });
    shared = mine;
    sections = {};
    for (const pane of Object.values(tabPanes)) pane.replaceChildren();
    heading.textContent = site.name;
    status.textContent = '';
    tabs.hidden = false;
    panes.hidden = false;
    select(tab);
  }

  return view;
}

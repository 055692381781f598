// A day plan as the map shows it (layers.js): the stops in the plan's order, numbered as the
// list numbers them, and the trips between them. On today, what is over is faint and the trip
// to the next event is the wide one; a past day shows where its events were, without trips.

/** @typedef {import('./layers.js').MapView} MapView */

/** The plan's events, numbered from 1 in the order of the day. @param {any} plan */
export function numberedEvents(plan) {
  let n = 0;
  return plan.steps.filter((s) => s.kind === 'event').map((s) => ({ step: s, n: ++n }));
}

/**
 * @param {any} plan a DayPlan
 * @param {(calendarId: string) => {colour: string, textColour: string}|null} calendar
 * @param {{now?: number, today?: boolean, selected?: {eventId: string, day: string}|null, mode?: string|null}} [o]
 *   selected: the event shown in detail (its stop is larger and only the trip to it is strong);
 *   mode: the way there the person is looking at, drawn in place of the planned one
 * @returns {MapView}
 */
export function dayOnMap(plan, calendar, o = {}) {
  const now = o.now ?? Date.now();
  const over = (s) => !!o.today && Date.parse(s.end) <= now;
  const isSelected = (s) => !!o.selected && s.eventId === o.selected.eventId && s.day === o.selected.day;
  const stops = [];
  const trips = [];
  let nextFound = false;
  let previous = null;
  for (const { step: s, n } of numberedEvents(plan)) {
    if (s.place) {
      const c = calendar(s.calendarId);
      stops.push({ label: String(n), lat: s.place.latitude, lon: s.place.longitude, fill: c?.colour ?? '#1a73e8', text: c?.textColour ?? '#ffffff',
        title: s.title ?? '', eventId: s.eventId, day: s.day, faded: over(s) && !isSelected(s), selected: isSelected(s) });
    }
    const from = previous;
    if (s.place) previous = s.place;
    // No way there: a thin line of its own says so, from where the person was before.
    if (!plan.past && !s.leg && s.arrival === 'unreachable' && from && s.place) {
      trips.push({ id: `${s.eventId}|${s.day}`, mode: 'none', next: false, faded: over(s),
        from: { lat: from.latitude, lon: from.longitude }, to: { lat: s.place.latitude, lon: s.place.longitude } });
    }
    if (plan.past || !s.leg) continue;
    const chosen = isSelected(s) && o.mode ? o.mode : s.leg.mode;
    // The next trip is the first one not yet over: where the person goes now.
    const next = o.selected ? isSelected(s) : !!o.today && !nextFound && Date.parse(s.leg.arrive) > now;
    if (next) nextFound = true;
    // A timetable journey goes by its stops: where each walk and ride begins and ends.
    const via = chosen === s.leg.mode && s.leg.journey
      ? s.leg.journey.legs.flatMap((/** @type {any} */ l) => [l.from, l.to]).map((/** @type {any} */ p) => ({ lat: p.latitude, lon: p.longitude }))
      : undefined;
    trips.push({ id: `${s.eventId}|${s.day}`, mode: chosen, next,
      faded: o.selected ? !isSelected(s) : over(s),
      from: { lat: s.leg.from.latitude, lon: s.leg.from.longitude }, to: { lat: s.leg.to.latitude, lon: s.leg.to.longitude }, via });
  }
  return { stops: together(stops), trips, place: null };
}

/**
 * Stops at the same place as one, numbered with all their numbers ("1, 2"), so none hides
 * another; the one shown in detail, else the first, answers a tap.
 * @param {import('./layers.js').Stop[]} stops
 */
function together(stops) {
  const at = new Map();
  for (const s of stops) {
    const key = `${s.lat},${s.lon}`;
    const same = at.get(key);
    if (!same) { at.set(key, { ...s }); continue; }
    same.label = `${same.label},${s.label}`;
    same.title = `${same.title} · ${s.title}`;
    same.faded = same.faded && s.faded;
    if (s.selected) Object.assign(same, { eventId: s.eventId, day: s.day, selected: true, fill: s.fill, text: s.text });
  }
  return [...at.values()];
}

/** The modes a view draws, in the legend's order. @param {MapView} v @param {readonly string[]} order */
export const modesDrawn = (v, order) => order.filter((m) => v.trips.some((t) => t.mode === m));

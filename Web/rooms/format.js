// Words and numbers for Rooms: walking times, distances in the person's units, kinds of place.

import { defaultUnits } from '../accounts/units.js';
import { cachedMe } from '../accounts/session.js';

/** @param {number} seconds */
export function walkTime(seconds) {
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** @param {number} metres @param {{distance?: string}} [units] */
export function distance(metres, units = cachedMe()?.units ?? defaultUnits()) {
  const nf = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
  if (units.distance === 'mi') {
    const feet = metres / 0.3048;
    return feet < 1000 ? `${nf.format(Math.round(feet / 10) * 10)} ft` : `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(metres / 1609.344)} mi`;
  }
  return metres < 1000 ? `${nf.format(Math.round(metres / 5) * 5)} m` : `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(metres / 1000)} km`;
}

/** A step's text ("Walk 30 m to the elevator") with its distance in the person's units. @param {string} text */
export const inUnits = (text) => text.replace(/\b(\d[\d,]*) m\b/g, (_, n) => distance(Number(n.replaceAll(',', ''))));

export const KIND_WORDS = { room: 'Room', building: 'Building', person: 'Person', service: 'Office or service', amenity: 'Amenity' };

/** The kinds of place a person asks for the nearest of, in the order the buttons show them. */
export const NEAREST = [
  ['restroom', 'Restroom'], ['elevator', 'Elevator'], ['entrance', 'Entrance'], ['bikeParking', 'Bike racks'],
  ['evacuationPoint', 'Evacuation point'], ['ticketMachine', 'Ticket machine'],
];

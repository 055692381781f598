// Directions in the phone's own maps app, which knows the traffic and the turn-by-turn voice:
// Apple Maps on Apple devices, else Google Maps (which opens the app on Android). Where the
// server counts map use (PRK-20) the link goes through it, which counts it and sends the
// browser on.

let counted = false;

/** Whether this server counts directions; set from its client configuration. @param {boolean} on */
export function countDirections(on) { counted = on; }

/** @param {{latitude: number, longitude: number}} c */
export function directionsURL(c) {
  const apple = /iPhone|iPad|Macintosh/.test(navigator.userAgent);
  if (counted) return `/go/directions?lat=${c.latitude}&lon=${c.longitude}&app=${apple ? 'apple' : 'google'}`;
  const at = `${c.latitude},${c.longitude}`;
  return apple ? `https://maps.apple.com/?daddr=${at}` : `https://www.google.com/maps/dir/?api=1&destination=${at}`;
}

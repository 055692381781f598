// Directions in the phone's own maps app, which knows the traffic and the turn-by-turn voice:
// Apple Maps on Apple devices, else Google Maps (which opens the app on Android).

/** @param {{latitude: number, longitude: number}} c */
export function directionsURL(c) {
  const at = `${c.latitude},${c.longitude}`;
  return /iPhone|iPad|Macintosh/.test(navigator.userAgent) ? `https://maps.apple.com/?daddr=${at}` : `https://www.google.com/maps/dir/?api=1&destination=${at}`;
}

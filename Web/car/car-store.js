// Where the car is parked, kept only on this device (PRK-11, seed 8.1.2: fine-grained
// location never goes to the server).

const KEY = 'waymark.car.v1';

/** @typedef {{lat: number, lon: number, accuracy: number|null, savedAt: string, spot?: string}} ParkedCar */

/** @returns {ParkedCar|null} */
export function loadCar() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    return v && Number.isFinite(v.lat) && Number.isFinite(v.lon) ? v : null;
  } catch {
    return null;
  }
}

/** @param {ParkedCar} car */
export function saveCar(car) {
  localStorage.setItem(KEY, JSON.stringify(car));
}

export function forgetCar() {
  localStorage.removeItem(KEY);
}

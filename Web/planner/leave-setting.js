// Whether this device sends its position for time to leave (PLN-7), switched on in Travel.
// Apart from the reporting itself so the shell can tell at start without loading the Plan.

export const SETTING = 'waymark.plan.leaveFromHere';

/** Whether this device sends its position for time to leave. */
export const reporting = () => localStorage.getItem(SETTING) === 'on';

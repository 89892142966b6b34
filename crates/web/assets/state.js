// The one shared object: the game on screen and what the page is doing.

/** Everything that belongs to the game on screen, as it is with none. */
export function noGame() {
  return {
    id: null,
    token: null,
    seat: null, // "first", "second", "both" or null (watching)
    latest: null, // the newest state received
    shown: null, // the state on screen (maybe a step towards `latest`)
    selection: null, // { heap, take }, heap from 1
    cursor: [], // per heap: the token index (from 1) that Tab reaches
    nav: {}, // other rule sets: per line of the board, the key of the button Tab reaches
    events: null,
    demoTimer: null,
    demoPaused: false,
    analysisKey: null,
    hintFor: null,
    reviewFor: null,
  };
}

export const st = {
  ...noGame(),
  pumping: false,
  busy: false,
  statsForVersion: null,
};

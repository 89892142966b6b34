// The game on screen: navigation, opening a game, live updates, showing
// moves one at a time, sending moves and the computer-vs-computer demo.

import { $, announce, reducedMotion, showError, sleep } from './dom.js';
import { api, seatKey, store } from './api.js';
import { noGame, st } from './state.js';
import { canMove, extends_, moveText, resultText, statusText, stepOf } from './names.js';
import { isNim } from './rules.js';
import { updateLevelField, updateRulesFields } from './setup.js';
import { render, renderControls, undoTarget } from './screen.js';
import { renderSelection } from './nim-board.js';
import { loadStats } from './stats.js';

const DEMO_INTERVAL = 1000;

function leaveGame() {
  if (st.events) st.events.close();
  clearTimeout(st.demoTimer);
  Object.assign(st, noGame());
}

function showSetup(focus) {
  leaveGame();
  document.title = 'bouton: play Nim';
  $('game').hidden = true;
  $('setup').hidden = false;
  updateLevelField();
  updateRulesFields(false);
  loadStats();
  if (focus) $('setup-title').focus();
}

export function route(focus) {
  const match = /^\/g\/([A-Za-z0-9_-]+)\/?$/.exec(window.location.pathname);
  if (match) openGame(match[1], { focus });
  else showSetup(focus);
}

export function navigateHome(event) {
  if (event) event.preventDefault();
  if (window.location.pathname !== '/') history.pushState({}, '', '/');
  showSetup(true);
}

export async function openGame(id, options = {}) {
  leaveGame();
  st.id = id;
  $('setup').hidden = true;
  $('game').hidden = false;
  $('game-error').textContent = '';
  $('board').replaceChildren();
  $('game-title').textContent = 'Loading the game…';
  const parts = ['share', 'join-box', 'watch-note', 'result', 'review', 'hint', 'connection', 'last-move',
    'selection-bar', 'type-move', 'hint-button', 'undo', 'demo-pause', 'learn'];
  for (const part of parts) $(part).hidden = true;
  for (const part of ['players', 'log']) $(part).replaceChildren();
  $('status').textContent = '';
  $('game-meta').textContent = '';
  let view = options.view;
  if (options.token) {
    st.token = options.token;
    st.seat = options.seat;
  } else {
    const saved = store.get(seatKey(id));
    if (saved && saved.token) st.token = saved.token;
  }
  if (!view) {
    try {
      view = await api('GET', `/api/games/${encodeURIComponent(id)}`, undefined, st.token);
    } catch (e) {
      if (st.id !== id) return;
      $('game-title').textContent = 'Game not found';
      $('game-meta').textContent = '';
      showError('game-error', e.message);
      return;
    }
    if (st.id !== id) return;
    st.seat = view.your_seat;
    if (st.token && !st.seat) {
      // A stale token: this browser no longer holds a seat.
      store.remove(seatKey(id));
      st.token = null;
    }
  }
  receive(view);
  connect(id);
  if (options.focus) $('game-title').focus();
}

function connect(id) {
  if (!('EventSource' in window)) return;
  const events = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  st.events = events;
  events.addEventListener('state', (event) => {
    try {
      receive(JSON.parse(event.data));
    } catch {
      // A malformed event: the next one will do.
    }
  });
  events.addEventListener('open', () => {
    $('connection').hidden = true;
  });
  events.addEventListener('error', () => {
    if (st.events !== events) return;
    if (events.readyState === EventSource.CLOSED) {
      $('connection').textContent = 'Live updates stopped. Reload the page to see new moves.';
    } else {
      $('connection').textContent = 'Connection lost: reconnecting…';
    }
    $('connection').hidden = st.latest ? st.latest.over : false;
  });
}

/** Takes a state from the server (an answer or an event). */
export function receive(view) {
  if (!view || view.id !== st.id) return;
  if (st.latest && view.version <= st.latest.version) return;
  st.latest = view;
  pump();
}

/** Brings the screen to the latest state, one move at a time, pausing
 * before the computer's moves so that they can be seen. */
async function pump() {
  if (st.pumping) return;
  st.pumping = true;
  try {
    while (st.latest && st.shown !== st.latest) {
      const target = st.latest;
      const shown = st.shown;
      if (shown && target.ply > shown.ply && extends_(target.moves, shown.moves)) {
        for (let n = shown.ply + 1; n <= target.ply; n += 1) {
          const mv = target.moves[n - 1];
          if (mv.by === 'computer' && target.mode !== 'demo') {
            await sleep(reducedMotion.matches ? 250 : 700);
          }
          if (st.latest !== target) break;
          render(stepOf(target, n), { moved: true });
          announce(moveText(target, mv) + followUp(stepOf(target, n)));
        }
      } else {
        const undone = shown && target.ply < shown.ply;
        render(target, { moved: false });
        if (undone) {
          announce(`Moves taken back. ${statusText(target)}`);
        } else if (!shown) {
          const last = target.moves[target.ply - 1];
          announce((last ? moveText(target, last) + ' ' : '') + statusText(target));
        }
      }
    }
  } finally {
    st.pumping = false;
  }
  scheduleDemo();
}

function followUp(view) {
  if (view.over) return ' ' + resultText(view).join(' ');
  if (canMove(view)) return ` ${statusText(view)}`;
  return '';
}

export function cancelSelection() {
  if (!st.selection) return false;
  st.selection = null;
  renderSelection();
  announce('Choice cancelled.');
  return true;
}

export function confirmSelection() {
  const sel = st.selection;
  if (!sel || !canMove(st.shown)) return;
  if (sel.move !== undefined) playText(sel.move);
  else play(sel.heap, sel.take);
}

async function play(heap, take) {
  const view = st.latest;
  if (!canMove(view) || st.busy || st.shown !== view) {
    announce('Please wait for your turn.');
    return;
  }
  await send(`/api/games/${view.id}/moves`, { heap, take, ply: view.ply }, () => {
    st.selection = null;
  });
}

/**
 * Sends a seat holder's action and shows the new state; on a conflict
 * (the game moved on) reloads it. `onSuccess` runs before the new state is
 * shown.
 */
async function send(path, body, onSuccess) {
  st.busy = true;
  showError('game-error', '');
  try {
    const next = await api('POST', path, body, st.token);
    if (onSuccess) onSuccess();
    receive(next);
  } catch (e) {
    showError('game-error', e.message);
    if (e.status === 409) refresh();
  } finally {
    st.busy = false;
    if (st.shown) renderControls(st.shown);
  }
}

export async function refresh() {
  if (!st.id) return;
  try {
    receive(await api('GET', `/api/games/${st.id}`, undefined, st.token));
  } catch {
    // The error shown already says what happened.
  }
}

export async function onTypedMove(event) {
  event.preventDefault();
  const view = st.shown;
  const text = $('move-input').value;
  if (!isNim(view)) {
    if (!text.trim()) {
      showError('game-error', `Type a move: ${view.rules.move_help.replace(/`/g, '')}.`);
      return;
    }
    if (!canMove(view)) {
      showError('game-error', 'It is not your turn.');
      return;
    }
    if (await playText(text.trim())) $('move-input').value = '';
    return;
  }
  const match = /^\s*(\d+)\s*(?:[:,/]\s*|\s+)(\d+)\s*$/.exec(text);
  if (!match) {
    showError('game-error', 'Type the heap and how many to take, like “2 3” or “2:3”.');
    return;
  }
  const heap = Number(match[1]);
  const take = Number(match[2]);
  if (!canMove(view)) {
    showError('game-error', 'It is not your turn.');
    return;
  }
  if (heap < 1 || heap > view.heaps.length) {
    showError('game-error', `There is no heap ${heap}: the heaps are numbered 1 to ${view.heaps.length}.`);
    return;
  }
  const size = view.heaps[heap - 1];
  if (take < 1 || take > size) {
    showError(
      'game-error',
      size === 0 ? `Heap ${heap} is empty.` : `Take between 1 and ${size} from heap ${heap}.`,
    );
    return;
  }
  $('move-input').value = '';
  play(heap, take);
}

export async function undo() {
  const view = st.latest;
  if (!view || st.busy || !undoTarget(view) || st.shown !== view) return;
  await send(`/api/games/${view.id}/undo`, { ply: view.ply });
}

async function playText(text) {
  const view = st.latest;
  if (!canMove(view) || st.busy || st.shown !== view) {
    announce('Please wait for your turn.');
    return false;
  }
  let ok = false;
  await send(`/api/games/${view.id}/moves`, { move: text, ply: view.ply }, () => {
    st.selection = null;
    ok = true;
  });
  return ok;
}

export function scheduleDemo() {
  clearTimeout(st.demoTimer);
  st.demoTimer = null;
  const view = st.latest;
  if (!view || view.mode !== 'demo' || st.seat !== 'both' || view.over || st.demoPaused) return;
  const id = view.id;
  st.demoTimer = setTimeout(async () => {
    const now = st.latest;
    if (st.id !== id || !now || now.over || st.demoPaused) return;
    try {
      receive(await api('POST', `/api/games/${id}/step`, { ply: now.ply }, st.token));
    } catch (e) {
      if (st.id !== id) return;
      if (e.status === 409) await refresh();
      else showError('game-error', e.message);
    }
    scheduleDemo();
  }, DEMO_INTERVAL);
}

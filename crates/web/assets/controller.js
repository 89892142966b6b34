// The controller: the one owner of the page's state (the server's offer,
// the game on screen, what the page is doing). It talks to the API, routes
// between the setup and a game, and hands data and callbacks to the views
// (setup.js, screen.js, board.js, learn.js, stats.js), which keep none.

import { $, announce, reducedMotion, showError, sleep } from './dom.js';
import { api, seatKey, store } from './api.js';
import { rendererFor } from './boards/index.js';
import { createBoardView } from './board.js';
import { boardBefore, complete, extendsMoves, stepOf } from './history.js';
import { hintText, renderAnalysis, renderAnalysisError, renderHint, renderReview } from './learn.js';
import { canUndo, renderControls, renderLoading, renderNotFound, renderScreen, renderSelection } from './screen.js';
import { createSetupView } from './setup.js';
import { renderStats, renderStatsError, statsNames } from './stats.js';
import { canMove, moveText, names, resultText, statusText } from './text.js';

const DEMO_INTERVAL = 1000;

/** Everything that belongs to the game on screen, as it is with none. */
function noGame() {
  return {
    id: null,
    token: null,
    seat: null, // "first", "second", "both" or null (watching)
    latest: null, // the newest state received
    shown: null, // the state on screen (maybe a step towards `latest`)
    selection: null, // { pick, move, question, confirm }
    events: null,
    demoTimer: null,
    demoPaused: false,
    analysisKey: null,
    hintFor: null,
    hintMove: null,
    reviewFor: null,
  };
}

const state = {
  offer: null, // GET /api/rules
  game: noGame(),
  pumping: false,
  busy: false,
  statsForVersion: null,
};

let setupView = null;
let boardView = null;

// ------------------------------------------------------------ the server's offer

async function loadOffer() {
  try {
    state.offer = await api('GET', '/api/rules');
    setupView.showOffer(state.offer);
  } catch (e) {
    setupView.showOfferError(e.message);
  }
}

/** The game's state as the views use it: its moves complete. */
function prepare(view) {
  return complete(view);
}

async function loadStats() {
  try {
    const data = await api('GET', '/api/stats');
    renderStats(data, state.offer, await statsNames(data, state.offer));
  } catch (e) {
    renderStatsError(e.message);
  }
}

// ---------------------------------------------------------------- navigation

function leaveGame() {
  const g = state.game;
  if (g.events) g.events.close();
  clearTimeout(g.demoTimer);
  state.game = noGame();
  boardView.clear();
}

function showSetup(focus) {
  leaveGame();
  $('game').hidden = true;
  $('setup').hidden = false;
  setupView.show();
  loadStats();
  if (focus) $('setup-title').focus();
}

function route(focus) {
  const match = /^\/g\/([A-Za-z0-9_-]+)\/?$/.exec(window.location.pathname);
  if (match) openGame(match[1], { focus });
  else showSetup(focus);
}

function navigateHome(event) {
  if (event) event.preventDefault();
  if (window.location.pathname !== '/') history.pushState({}, '', '/');
  showSetup(true);
}

async function createGame(request) {
  const grant = await api('POST', '/api/games', request);
  store.set(seatKey(grant.game.id), { token: grant.token, seat: grant.seat });
  history.pushState({ game: grant.game.id }, '', grant.link);
  openGame(grant.game.id, { view: grant.game, token: grant.token, seat: grant.seat, focus: true });
}

async function openGame(id, options = {}) {
  leaveGame();
  const g = state.game;
  g.id = id;
  $('setup').hidden = true;
  $('game').hidden = false;
  renderLoading();
  let view = options.view;
  if (options.token) {
    g.token = options.token;
    g.seat = options.seat;
  } else {
    const saved = store.get(seatKey(id));
    if (saved && saved.token) g.token = saved.token;
  }
  if (!view) {
    try {
      view = await api('GET', `/api/games/${encodeURIComponent(id)}`, undefined, g.token);
    } catch (e) {
      if (state.game === g) renderNotFound(e.message);
      return;
    }
    if (state.game !== g) return;
    g.seat = view.your_seat;
    if (g.token && !g.seat) {
      // A stale token: this browser no longer holds a seat.
      store.remove(seatKey(id));
      g.token = null;
    }
  }
  receive(view);
  connect(id);
  if (options.focus) $('game-title').focus();
}

function connect(id) {
  if (!('EventSource' in window)) return;
  const g = state.game;
  const events = new EventSource(`/api/games/${encodeURIComponent(id)}/events`);
  g.events = events;
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
    if (g.events !== events || state.game !== g) return;
    $('connection').textContent = events.readyState === EventSource.CLOSED
      ? 'Live updates stopped. Reload the page to see new moves.'
      : 'Connection lost: reconnecting…';
    $('connection').hidden = g.latest ? g.latest.over : false;
  });
}

// ------------------------------------------------------------ showing a game

/** Takes a state from the server (an answer or an event). */
function receive(view) {
  const g = state.game;
  if (!view || view.id !== g.id) return;
  if (g.latest && view.version <= g.latest.version) return;
  g.latest = prepare(view);
  pump();
}

/** Brings the screen to the latest state, one move at a time, pausing
 * before the computer's moves so that they can be seen. */
async function pump() {
  if (state.pumping) return;
  state.pumping = true;
  try {
    for (;;) {
      const g = state.game;
      if (!g.latest || g.shown === g.latest) break;
      const target = g.latest;
      const shown = g.shown;
      if (shown && target.ply > shown.ply && extendsMoves(target.moves, shown.moves)) {
        for (let n = shown.ply + 1; n <= target.ply; n += 1) {
          const mv = target.moves[n - 1];
          if (mv.by === 'computer' && target.mode !== 'demo') await sleep(reducedMotion.matches ? 250 : 700);
          if (state.game !== g || g.latest !== target) break;
          const step = stepOf(target, n);
          render(step, { moved: true });
          announce(moveText(target, g.seat, mv) + followUp(step, g.seat));
        }
      } else {
        const undone = shown && target.ply < shown.ply;
        render(target, { moved: false });
        if (undone) announce(`Moves taken back. ${statusText(target, g.seat)}`);
        else if (!shown) {
          const last = target.moves[target.ply - 1];
          announce((last ? moveText(target, g.seat, last) + ' ' : '') + statusText(target, g.seat));
        }
      }
    }
  } finally {
    state.pumping = false;
  }
  scheduleDemo();
}

function followUp(view, seat) {
  if (view.over) return ' ' + resultText(view, seat).join(' ');
  if (canMove(view, seat)) return ` ${statusText(view, seat)}`;
  return '';
}

function render(view, { moved }) {
  const g = state.game;
  const previous = g.shown;
  g.shown = view;
  if (!previous || previous.ply !== view.ply || previous.heaps.join() !== view.heaps.join()) g.selection = null;
  const seat = g.seat;
  renderScreen(view, { seat, busy: state.busy, demoPaused: g.demoPaused, boardHasFocus: boardView.hasFocus() });
  boardView.render(view, {
    interactive: canMove(view, seat),
    readOnly: !seat,
    animate: moved && !reducedMotion.matches,
    before: boardBefore(view),
    names: names(view, seat),
  });
  showSelection();
  if (g.hintFor !== `${view.id}:${view.ply}`) $('hint').hidden = true;
  if (view.help && ($('explain').open || $('moves-panel').open)) loadAnalysis(view);
  if (view.over && !view.partial) {
    loadReview(view);
    if (state.statsForVersion !== `${view.id}:${view.version}`) {
      state.statsForVersion = `${view.id}:${view.version}`;
      loadStats();
    }
  } else {
    $('review').hidden = true;
    g.reviewFor = null;
  }
}

function showControls() {
  const g = state.game;
  if (g.shown) renderControls(g.shown, { seat: g.seat, busy: state.busy, demoPaused: g.demoPaused });
}

function showSelection() {
  const g = state.game;
  if (!g.shown) return;
  boardView.select(g.selection ? g.selection.pick : null);
  renderSelection(g.shown, { seat: g.seat, selection: g.selection });
}

// ------------------------------------------------------------ choosing a move

/** The choice `pick` on the board (from the board view or a hint). */
function choose(pick, again) {
  const g = state.game;
  const view = g.shown;
  if (!view) return;
  if (again) {
    confirmSelection();
    return;
  }
  const described = pick && rendererFor(view.board.kind).describe(view, pick);
  g.selection = described ? { ...described, pick } : null;
  showError('game-error', '');
  showSelection();
}

function cancelSelection() {
  const g = state.game;
  if (!g.selection) return false;
  g.selection = null;
  showSelection();
  announce('Choice cancelled.');
  return true;
}

function confirmSelection() {
  const g = state.game;
  if (!g.selection || !canMove(g.shown, g.seat)) return;
  playText(g.selection.move);
}

/**
 * Sends a seat holder's action and shows the new state; on a conflict
 * (the game moved on) reloads it. `onSuccess` runs before the new state is
 * shown.
 */
async function send(path, body, onSuccess) {
  const g = state.game;
  state.busy = true;
  showError('game-error', '');
  try {
    const next = await api('POST', path, body, g.token);
    if (onSuccess) onSuccess();
    receive(next);
  } catch (e) {
    showError('game-error', e.message);
    if (e.status === 409) refresh();
  } finally {
    state.busy = false;
    showControls();
  }
}

async function refresh() {
  const g = state.game;
  if (!g.id) return;
  try {
    receive(await api('GET', `/api/games/${g.id}`, undefined, g.token));
  } catch {
    // The error shown already says what happened.
  }
}

async function playText(text) {
  const g = state.game;
  const view = g.latest;
  if (!canMove(view, g.seat) || state.busy || g.shown !== view) {
    announce('Please wait for your turn.');
    return false;
  }
  let ok = false;
  await send(`/api/games/${view.id}/moves`, { move: text, ply: view.ply }, () => {
    g.selection = null;
    ok = true;
  });
  return ok;
}

async function onTypedMove(event) {
  event.preventDefault();
  const g = state.game;
  const view = g.shown;
  const text = $('move-input').value.trim();
  if (!text) {
    showError('game-error', `Type a move: ${view.rules.move_help.replace(/`/g, '')}.`);
    return;
  }
  if (!canMove(view, g.seat)) {
    showError('game-error', 'It is not your turn.');
    return;
  }
  if (await playText(text)) $('move-input').value = '';
}

async function undo() {
  const g = state.game;
  const view = g.latest;
  if (!view || state.busy || !canUndo(view, g.seat) || g.shown !== view) return;
  await send(`/api/games/${view.id}/undo`, { ply: view.ply });
}

function scheduleDemo() {
  const g = state.game;
  clearTimeout(g.demoTimer);
  g.demoTimer = null;
  const view = g.latest;
  if (!view || view.mode !== 'demo' || g.seat !== 'both' || view.over || g.demoPaused) return;
  g.demoTimer = setTimeout(async () => {
    const now = g.latest;
    if (state.game !== g || !now || now.over || g.demoPaused) return;
    try {
      receive(await api('POST', `/api/games/${g.id}/step`, { ply: now.ply }, g.token));
    } catch (e) {
      if (state.game !== g) return;
      if (e.status === 409) await refresh();
      else showError('game-error', e.message);
    }
    scheduleDemo();
  }, DEMO_INTERVAL);
}

// ------------------------------------------------------------------ learning

async function showHint() {
  const g = state.game;
  const view = g.shown;
  if (!canMove(view, g.seat)) {
    announce('Hints are for your turn.');
    return;
  }
  const key = `${view.id}:${view.ply}`;
  let hint;
  try {
    hint = await api('GET', `/api/games/${view.id}/hint`);
  } catch (e) {
    showError('game-error', e.message);
    return;
  }
  if (state.game !== g || !g.shown || `${g.shown.id}:${g.shown.ply}` !== key) return;
  const text = hintText(view, g.seat, hint);
  g.hintFor = key;
  g.hintMove = hint.suggestion || null;
  renderHint(text, !!hint.suggestion);
  announce(text);
}

function selectHintMove() {
  const g = state.game;
  const mv = g.hintMove;
  if (!mv || !canMove(g.shown, g.seat)) return;
  const pick = rendererFor(g.shown.board.kind).pickOfMove(g.shown, mv.text);
  choose(pick, false);
  boardView.focusChoice();
}

async function loadAnalysis(view) {
  const g = state.game;
  const key = `${view.id}|${view.ply}|${view.heaps.join(',')}`;
  if (g.analysisKey === key) return;
  g.analysisKey = key;
  let analysis;
  try {
    analysis = await api('GET', `/api/games/${encodeURIComponent(view.id)}/analysis`);
  } catch (e) {
    if (g.analysisKey !== key) return;
    g.analysisKey = e.status === 422 ? key : null;
    renderAnalysisError(e.message);
    return;
  }
  if (state.game !== g || g.analysisKey !== key) return;
  renderAnalysis(view, g.seat, analysis);
}

async function loadReview(view) {
  const g = state.game;
  const key = `${view.id}:${view.version}`;
  if (g.reviewFor === key) return;
  g.reviewFor = key;
  let review;
  try {
    review = await api('GET', `/api/games/${view.id}/review`);
  } catch (e) {
    g.reviewFor = null;
    // The server is busy: ask again a little later, if the game is still shown.
    if (e.status === 503) setTimeout(() => state.game === g && g.shown && loadReview(g.shown), 2000);
    return;
  }
  if (state.game !== g || g.reviewFor !== key) return;
  renderReview(view, g.seat, review);
}

// ------------------------------------------------------- the other controls

async function join() {
  const g = state.game;
  const button = $('join');
  button.setAttribute('aria-busy', 'true');
  try {
    const grant = await api('POST', `/api/games/${g.id}/join`);
    store.set(seatKey(g.id), { token: grant.token, seat: grant.seat });
    g.token = grant.token;
    g.seat = grant.seat;
    g.shown = null; // redraw everything for the new seat
    g.latest = null;
    receive(grant.game);
    $('game-title').focus();
  } catch (e) {
    showError('game-error', e.status === 409 ? `${e.message}.` : e.message);
    refresh();
  } finally {
    button.removeAttribute('aria-busy');
  }
}

async function copyLink() {
  const input = $('share-link');
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(input.value);
      copied = true;
    }
  } catch {
    copied = false;
  }
  if (!copied) {
    input.focus();
    input.select();
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
  }
  $('copy-link').textContent = copied ? 'Copied ✓' : 'Copy link';
  setTimeout(() => {
    $('copy-link').textContent = 'Copy link';
  }, 2500);
  announce(copied ? 'Link copied.' : 'Select the link and copy it.');
}

async function playAgain() {
  const view = state.game.shown;
  if (!view) return;
  const request = { rules: view.rules.id, position: view.start, misere: view.misere, mode: view.mode };
  if (view.level) request.level = view.level;
  try {
    await createGame(request);
  } catch (e) {
    showError('game-error', e.message);
  }
}

/** Starts the page: wires the views and controls, then shows what the address asks for. */
export async function start() {
  setupView = createSetupView({ submit: createGame });
  boardView = createBoardView($('board'), {
    choose,
    refused(button) {
      const g = state.game;
      announce(canMove(g.shown, g.seat) ? button.getAttribute('aria-label') : statusText(g.shown, g.seat));
    },
    focusLost() {
      if (!$('result').hidden) $('result-title').focus();
    },
  });
  $('confirm').addEventListener('click', () => {
    if ($('confirm').getAttribute('aria-disabled') !== 'true') confirmSelection();
  });
  $('cancel').addEventListener('click', cancelSelection);
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !state.game.selection) return;
    if ($('selection-bar').contains(document.activeElement)) boardView.focusChoice();
    cancelSelection();
  });
  $('type-move').addEventListener('submit', onTypedMove);
  $('undo').addEventListener('click', () => {
    if ($('undo').getAttribute('aria-disabled') !== 'true') undo();
  });
  $('hint-button').addEventListener('click', showHint);
  $('hint-select').addEventListener('click', selectHintMove);
  $('demo-pause').addEventListener('click', () => {
    const g = state.game;
    g.demoPaused = !g.demoPaused;
    showControls();
    announce(g.demoPaused ? 'Demo paused.' : 'Demo resumed.');
    scheduleDemo();
  });
  for (const panel of ['explain', 'moves-panel']) {
    $(panel).addEventListener('toggle', () => {
      const g = state.game;
      if ($(panel).open && g.shown && g.shown.help) loadAnalysis(g.shown);
    });
  }
  $('join').addEventListener('click', join);
  $('copy-link').addEventListener('click', copyLink);
  $('again').addEventListener('click', playAgain);
  $('stats-refresh').addEventListener('click', loadStats);
  for (const link of [$('home-link'), $('nav-new'), $('game-new'), $('result-new')]) link.addEventListener('click', navigateHome);
  window.addEventListener('popstate', () => route(true));
  // The offer first: the setup is drawn from it, and a game's rules are
  // completed with it.
  await loadOffer();
  route(false);
  if ($('setup').hidden) loadStats();
}

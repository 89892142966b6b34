// The browser game of bouton: setting up, playing, learning and watching Nim
// over the JSON API. Plain JavaScript modules, no build step. This entry
// point wires the page's controls to the modules.

import { $, announce, showError } from './dom.js';
import { api, seatKey, store } from './api.js';
import { st } from './state.js';
import { canMove } from './names.js';
import { isNim } from './rules.js';
import { createGame, loadCatalogue, NIM_TEXTS, onSetupSubmit, restoreSetup, updateLevelField, updateRulesFields } from './setup.js';
import { cancelSelection, confirmSelection, navigateHome, onTypedMove, receive, refresh, route, scheduleDemo, undo } from './game.js';
import { renderControls } from './screen.js';
import { focusToken, onBoardClick, onBoardKey, renderSelection } from './nim-board.js';
import { focusNav } from './boards.js';
import { describePick, pickOfMove } from './picks.js';
import { loadAnalysis, showHint } from './learn.js';
import { loadStats } from './stats.js';

async function join() {
  const id = st.id;
  const button = $('join');
  button.setAttribute('aria-busy', 'true');
  try {
    const grant = await api('POST', `/api/games/${id}/join`);
    store.set(seatKey(id), { token: grant.token, seat: grant.seat });
    st.token = grant.token;
    st.seat = grant.seat;
    st.shown = null; // redraw everything for the new seat
    st.latest = null;
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
  const text = copied ? 'Link copied.' : 'Select the link and copy it.';
  $('copy-link').textContent = copied ? 'Copied ✓' : 'Copy link';
  setTimeout(() => {
    $('copy-link').textContent = 'Copy link';
  }, 2500);
  announce(text);
}

async function playAgain() {
  const view = st.shown;
  if (!view) return;
  const request = isNim(view)
    ? { heaps: view.start, misere: view.misere, mode: view.mode }
    : { rules: view.rules.id, position: view.start, misere: view.misere, mode: view.mode };
  if (view.level) request.level = view.level;
  try {
    await createGame(request);
  } catch (e) {
    showError('game-error', e.message);
  }
}

function init() {
  NIM_TEXTS.read();
  restoreSetup();
  $('rules').addEventListener('change', () => {
    showError('param-error', '');
    updateRulesFields(true);
  });
  $('rules-param').addEventListener('input', () => {
    showError('param-error', '');
    updateRulesFields(false);
  });
  const form = $('setup-form');
  form.addEventListener('submit', onSetupSubmit);
  form.addEventListener('change', (event) => {
    if (event.target.name === 'mode') updateLevelField();
  });
  $('custom-heaps').addEventListener('input', () => {
    $('heaps-custom-radio').checked = true;
  });
  $('custom-heaps').addEventListener('focus', () => {
    if ($('custom-heaps').value.trim()) $('heaps-custom-radio').checked = true;
  });

  const board = $('board');
  board.addEventListener('click', onBoardClick);
  board.addEventListener('keydown', onBoardKey);
  $('confirm').addEventListener('click', () => {
    if ($('confirm').getAttribute('aria-disabled') === 'true') return;
    const sel = st.selection;
    if (sel && sel.move === undefined && document.activeElement === $('confirm')) st.cursor[sel.heap - 1] = st.shown.heaps[sel.heap - 1] - sel.take + 1;
    confirmSelection();
  });
  $('cancel').addEventListener('click', cancelSelection);
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !st.selection) return;
    const sel = st.selection;
    const inBoard = board.contains(document.activeElement);
    cancelSelection();
    if (!inBoard && ($('selection-bar').contains(document.activeElement))) {
      if (sel.move === undefined) focusToken(sel.heap, st.shown.heaps[sel.heap - 1] - sel.take + 1);
      else {
        const chosen = board.querySelector('button[data-key][tabindex="0"]');
        if (chosen) chosen.focus();
      }
    }
  });
  $('type-move').addEventListener('submit', onTypedMove);
  $('undo').addEventListener('click', () => {
    if ($('undo').getAttribute('aria-disabled') !== 'true') undo();
  });
  $('hint-button').addEventListener('click', showHint);
  $('hint-select').addEventListener('click', () => {
    const mv = st.hintMove;
    if (!mv || !canMove(st.shown)) return;
    if (!isNim(st.shown)) {
      st.selection = describePick(st.shown, pickOfMove(st.shown, mv.text));
      renderSelection();
      const first = board.querySelector('button[data-key][aria-pressed="true"]');
      if (first) focusNav(first);
      return;
    }
    st.selection = { heap: mv.heap, take: mv.take };
    renderSelection();
    focusToken(mv.heap, st.shown.heaps[mv.heap - 1] - mv.take + 1);
  });
  $('demo-pause').addEventListener('click', () => {
    st.demoPaused = !st.demoPaused;
    renderControls(st.shown);
    announce(st.demoPaused ? 'Demo paused.' : 'Demo resumed.');
    scheduleDemo();
  });
  $('explain').addEventListener('toggle', () => {
    if ($('explain').open && st.shown) loadAnalysis(st.shown);
  });
  $('moves-panel').addEventListener('toggle', () => {
    if ($('moves-panel').open && st.shown) loadAnalysis(st.shown);
  });
  $('join').addEventListener('click', join);
  $('copy-link').addEventListener('click', copyLink);
  $('again').addEventListener('click', playAgain);
  $('stats-refresh').addEventListener('click', loadStats);
  for (const link of [$('home-link'), $('nav-new'), $('game-new'), $('result-new')]) {
    link.addEventListener('click', navigateHome);
  }
  window.addEventListener('popstate', () => route(true));
  route(false);
  loadCatalogue();
  if ($('setup').hidden) loadStats();
}

init();

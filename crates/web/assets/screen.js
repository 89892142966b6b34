// The game screen around the board: title, players, status, result,
// controls, the selection bar and the list of moves played. Each function
// draws from the data it is given (the game's state and the viewer's
// seat); none keeps state.

import { $, h, replace } from './dom.js';
import { rendererFor } from './boards/index.js';
import { canMove, capital, helpParts, MODE_LABELS, moveText, names, playedText, resultText, statusText, waitingForFriend } from './text.js';

/** The game screen as it is while a game loads. */
export function renderLoading() {
  $('game-error').textContent = '';
  $('game-title').textContent = 'Loading the game…';
  const parts = ['share', 'join-box', 'watch-note', 'result', 'review', 'hint', 'connection', 'last-move',
    'selection-bar', 'type-move', 'hint-button', 'undo', 'demo-pause', 'learn'];
  for (const part of parts) $(part).hidden = true;
  for (const part of ['players', 'log']) $(part).replaceChildren();
  $('status').textContent = '';
  $('game-meta').textContent = '';
}

/** A game that could not be opened. */
export function renderNotFound(message) {
  $('game-title').textContent = 'Game not found';
  $('game-meta').textContent = '';
  $('game-error').textContent = message;
}

/** Everything but the board, the selection and the learning panels. */
export function renderScreen(view, { seat, busy, demoPaused, boardHasFocus }) {
  $('learn').hidden = false;
  $('explain').hidden = !view.help;
  $('moves-panel').hidden = !view.help;
  renderHead(view, seat);
  renderPlayers(view, seat);
  renderStatus(view, seat, boardHasFocus);
  renderControls(view, { seat, busy, demoPaused });
  renderLog(view, seat);
}

function renderHead(view, seat) {
  const level = view.level ? ` (${view.level})` : '';
  $('game-title').textContent = `${capital(view.rules.name)}: ${view.start.join(' ')}`;
  $('game-summary').textContent = `${capital(view.rules.summary)}.`;
  $('game-summary').hidden = false;
  renderRulesTexts(view);
  $('game-meta').replaceChildren(
    h('span', { class: 'tag' }, view.misere ? 'Misère' : 'Normal'),
    ' ',
    h('span', { class: 'rule-text' }, `${capital(view.rule)}.`),
    ' ',
    h('span', { class: 'mode-text' }, `${MODE_LABELS[view.mode] || view.mode}${level}.`),
  );

  const share = $('share');
  share.hidden = !(view.mode === 'online' && seat === 'first');
  if (!share.hidden) {
    $('share-link').value = window.location.origin + `/g/${view.id}`;
    $('share-state').textContent = view.seats[1].taken ? 'Your friend has joined.' : 'Waiting for your friend to open the link…';
  }
  const joinable = view.mode === 'online' && !seat && !view.seats[1].taken && !view.over;
  $('join-box').hidden = !joinable;
  const watching = !seat && !joinable;
  $('watch-note').hidden = !watching;
  if (watching) {
    $('watch-note').textContent = view.over
      ? 'You are watching this game: it is over.'
      : 'You are watching this game. Moves appear here as they are played; you cannot move.';
  }
}

function renderPlayers(view, seat) {
  const [first, second] = names(view, seat);
  const cards = [
    ['first', first],
    ['second', second],
  ].map(([side, name]) => {
    const toMove = !view.over && view.to_move === side && !waitingForFriend(view);
    const won = view.over && view.winner === side;
    let state = '';
    if (toMove) state = 'to move';
    else if (won) state = 'winner';
    else if (side === 'second' && waitingForFriend(view)) state = 'seat free';
    return h(
      'li',
      { class: `player${toMove ? ' to-move' : ''}${won ? ' won' : ''}` },
      h('span', { class: 'player-mark', 'aria-hidden': 'true' }, won ? '★' : toMove ? '▶' : ''),
      h(
        'span',
        { class: 'player-text' },
        h('span', { class: 'player-name' }, name),
        h('span', { class: 'player-role' }, side === 'first' ? 'moves first' : 'moves second'),
      ),
      state ? h('span', { class: 'player-state' }, state) : null,
    );
  });
  $('players').replaceChildren(...cards);
}

function renderStatus(view, seat, boardHasFocus) {
  const lastMove = view.moves[view.ply - 1];
  $('last-move').hidden = !lastMove || view.over;
  $('last-move').textContent = lastMove ? `Last move: ${moveText(view, seat, lastMove)}` : '';
  const status = $('status');
  status.textContent = statusText(view, seat);
  status.className = `status${canMove(view, seat) ? ' yours' : ''}${view.over ? ' over' : ''}`;
  const result = $('result');
  const finished = view.over && !view.partial;
  const wasHidden = result.hidden;
  result.hidden = !finished;
  if (finished) {
    const [headline, detail] = resultText(view, seat);
    $('result-title').textContent = headline;
    $('result-detail').textContent = detail;
    $('again').hidden = !(seat || view.mode === 'demo');
    result.className = `result ${seat === view.winner || (seat === 'both' && view.mode !== 'demo') ? 'happy' : ''}`;
    if (wasHidden && boardHasFocus) $('result-title').focus();
  }
  let title;
  if (finished) title = `${headline(view, seat)} · bouton`;
  else if (canMove(view, seat)) title = 'Your turn · bouton';
  else title = `${capital(view.rules.name)} ${rendererFor(view.board.kind).title(view.board)} · bouton`;
  document.title = title;
}

const headline = (view, seat) => resultText(view, seat)[0];

/** Whether the holder of `seat` has a move to take back in `view`. */
export function canUndo(view, seat) {
  if (view.over) return false;
  return view.moves.some((mv) => seat === 'both' || mv.side === seat);
}

export function renderControls(view, { seat, busy, demoPaused }) {
  const player = !!seat && view.mode !== 'demo';
  const playing = player && !view.over && !waitingForFriend(view);
  $('type-move').hidden = !playing;
  $('move-input').setAttribute('aria-disabled', canMove(view, seat) ? 'false' : 'true');
  $('hint-button').hidden = !playing || !view.help;
  $('hint-button').setAttribute('aria-disabled', canMove(view, seat) ? 'false' : 'true');
  const undoable = ['computer', 'computer-first', 'local'].includes(view.mode) && !!seat;
  $('undo').hidden = !undoable || view.over;
  $('undo').setAttribute('aria-disabled', !view.partial && !busy && canUndo(view, seat) ? 'false' : 'true');
  const demoOwner = view.mode === 'demo' && seat === 'both';
  $('demo-pause').hidden = !demoOwner || view.over;
  $('demo-pause').textContent = demoPaused ? 'Resume' : 'Pause';
  $('demo-pause').setAttribute('aria-pressed', demoPaused ? 'true' : 'false');
}

function renderLog(view, seat) {
  const [first, second] = names(view, seat);
  const items = view.moves.map((mv, i) =>
    h(
      'li',
      { class: `log-${mv.side}` },
      h('span', { class: 'log-move' }, playedText(mv.side === 'first' ? first : second, mv.description)),
      h('span', { class: 'log-after' }, ` leaving ${mv.after}${i === view.moves.length - 1 ? ' (latest move)' : ''}`),
    ),
  );
  $('log').replaceChildren(...items);
  $('log-empty').hidden = items.length > 0;
}

/** The texts of the game screen that follow the rule set, from its `rules`. */
function renderRulesTexts(view) {
  if ($('move-help').dataset.rules === view.rules.id) return;
  $('move-help').dataset.rules = view.rules.id;
  replace($('move-help'), helpParts(capital(view.rules.move_help)).map(([text, key]) => (key ? h('kbd', {}, text) : text)), '.');
  const example = /`([^`]*)`/.exec(view.rules.move_help || '');
  $('move-input').setAttribute('placeholder', example ? example[1] : '');
  $('board-help').textContent = rendererFor(view.board.kind).help;
}

/** The selection bar: the choice's question, or what to do. */
export function renderSelection(view, { seat, selection }) {
  const interactive = canMove(view, seat);
  $('selection-bar').classList.toggle('active', !!selection);
  $('selection-text').textContent = selection ? selection.question : '';
  $('selection-prompt').textContent = !selection && interactive ? rendererFor(view.board.kind).prompt(view) : '';
  $('confirm').setAttribute('aria-disabled', selection && interactive ? 'false' : 'true');
  $('confirm').textContent = selection ? selection.confirm : 'Confirm';
  $('cancel').setAttribute('aria-disabled', selection ? 'false' : 'true');
  $('selection-bar').hidden = !seat || view.mode === 'demo' || view.over || waitingForFriend(view);
}

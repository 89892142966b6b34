// The browser game of bouton: setting up, playing, learning and watching Nim
// over the JSON API. Plain JavaScript, no build step.
'use strict';

(() => {
  const PRESETS = {
    '3-5-7': [3, 5, 7],
    '1-3-5-7': [1, 3, 5, 7],
    '1-5-4-2': [1, 5, 4, 2],
    '2-2-10-10': [2, 2, 10, 10],
    '11-12-15-25': [11, 12, 15, 25],
    '12-12-20-20': [12, 12, 20, 20],
  };
  const MAX_HEAPS = 12;
  const MAX_HEAP_SIZE = 50;
  const DEMO_INTERVAL = 1000;
  const MODE_LABELS = {
    computer: 'Against the computer',
    'computer-first': 'The computer first',
    local: 'Two players on this device',
    online: 'Online with a friend',
    demo: 'Computer vs computer',
  };
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

  const $ = (id) => document.getElementById(id);

  /** Creates an element with attributes and children. */
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.className = value;
      else if (key === 'text') node.textContent = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** Replaces an element's children, skipping empty ones. */
  function replace(node, ...children) {
    node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + 's'}`;

  // ---------------------------------------------------------------- storage

  const store = {
    get(key) {
      try {
        const text = window.localStorage.getItem(key);
        return text ? JSON.parse(text) : null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        window.localStorage.setItem(key, JSON.stringify(value));
      } catch {
        // Private browsing: the seat lasts as long as the page.
      }
    },
    remove(key) {
      try {
        window.localStorage.removeItem(key);
      } catch {
        // ignored
      }
    },
  };
  const seatKey = (id) => `bouton.seat.${id}`;

  // -------------------------------------------------------------------- API

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  async function api(method, path, body, token) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.');
    }
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      throw new ApiError(response.status, (data && data.error) || `The server answered ${response.status}.`);
    }
    return data;
  }

  // ------------------------------------------------------------------ state

  /** Everything that belongs to the game on screen, as it is with none. */
  function noGame() {
    return {
      id: null,
      token: null,
      seat: null, // "first", "second", "both" or null (watching)
      latest: null, // the newest state received
      shown: null, // the state on screen (maybe a step towards `latest`)
      selection: null, // { heap, take }, heap from 1
      cursor: [], // per heap: the token index (from 1) that Tab reaches
      events: null,
      demoTimer: null,
      demoPaused: false,
      analysisKey: null,
      hintFor: null,
      reviewFor: null,
    };
  }

  const st = {
    ...noGame(),
    pumping: false,
    busy: false,
    statsForVersion: null,
  };

  // ------------------------------------------------------------------ names

  /** The names of the first and second player as this viewer sees them. */
  function names(view) {
    const mine = st.seat === 'first' || st.seat === 'second';
    switch (view.mode) {
      case 'computer':
        return [mine ? 'You' : 'The player', 'The computer'];
      case 'computer-first':
        return ['The computer', mine ? 'You' : 'The player'];
      case 'online':
        if (st.seat === 'first') return ['You', 'Your friend'];
        if (st.seat === 'second') return ['Your friend', 'You'];
        return ['Player 1', 'Player 2'];
      case 'demo':
        return ['Computer 1', 'Computer 2'];
      default:
        return ['Player 1', 'Player 2'];
    }
  }
  const sideIndex = (side) => (side === 'first' ? 0 : 1);
  const nameOf = (view, side) => names(view)[sideIndex(side)];
  /** "You", "The computer" in the middle of a sentence. */
  const midName = (name) => (name === 'You' || /^(Player|Computer) /.test(name) ? name : name.charAt(0).toLowerCase() + name.slice(1));
  const possessive = (name) => (name === 'You' ? 'Your' : `${name}’s`);
  const winsText = (name) => (name === 'You' ? 'You win!' : `${name} wins!`);
  const moveText = (view, mv) => `${nameOf(view, mv.side)} took ${mv.take} from heap ${mv.heap}.`;
  const heapsText = (heaps) => heaps.join(' ');
  const ruleSentence = (misere) =>
    misere ? 'Misère: whoever takes the last token loses.' : 'Normal: whoever takes the last token wins.';

  function seatKind(view, side) {
    return view.seats[sideIndex(side)].kind;
  }

  function waitingForFriend(view) {
    return view.mode === 'online' && !view.seats[1].taken;
  }

  /** Whether this viewer may move in `view` now. */
  function canMove(view) {
    if (!view || view.over || !view.to_move || view.partial) return false;
    if (!(st.seat === 'both' || st.seat === view.to_move)) return false;
    if (seatKind(view, view.to_move) !== 'human') return false;
    return !waitingForFriend(view);
  }

  /** The state after the first `n` moves of `view`. */
  function stepOf(view, n) {
    if (n === view.ply) return view;
    const heaps = view.start.slice();
    for (const mv of view.moves.slice(0, n)) heaps[mv.heap - 1] -= mv.take;
    return {
      ...view,
      heaps,
      moves: view.moves.slice(0, n),
      ply: n,
      to_move: n % 2 === 0 ? 'first' : 'second',
      over: false,
      winner: null,
      partial: true,
    };
  }

  const sameMove = (a, b) => a.heap === b.heap && a.take === b.take && a.side === b.side;
  const extends_ = (longer, shorter) => shorter.every((mv, i) => longer[i] && sameMove(mv, longer[i]));

  // -------------------------------------------------------------- announcer

  let announceTimer = null;
  function announce(text) {
    const live = $('live');
    clearTimeout(announceTimer);
    live.textContent = '';
    // A fresh text node after a tick is read even when it repeats the last.
    announceTimer = setTimeout(() => {
      live.textContent = text;
    }, 60);
  }

  function showError(where, message) {
    $(where).textContent = message || '';
  }

  // ------------------------------------------------------------------ setup

  function readSetup() {
    const form = $('setup-form');
    const choice = form.elements.heaps.value;
    let heaps;
    if (choice === 'custom') {
      heaps = parseHeaps($('custom-heaps').value);
    } else if (choice === 'random') {
      const count = 3 + Math.floor(Math.random() * 3);
      heaps = Array.from({ length: count }, () => 1 + Math.floor(Math.random() * 10));
    } else {
      heaps = PRESETS[choice];
    }
    const mode = form.elements.mode.value;
    const request = { heaps, misere: form.elements.rule.value === 'misere', mode };
    if (['computer', 'computer-first', 'demo'].includes(mode)) request.level = $('level').value;
    return request;
  }

  function parseHeaps(text) {
    const parts = text.trim().split(/[\s,;:+-]+/).filter(Boolean);
    if (parts.length === 0) throw new Error('Type the custom heaps, like 4 6 9.');
    if (parts.length > MAX_HEAPS) throw new Error(`A game has at most ${MAX_HEAPS} heaps.`);
    const heaps = parts.map((part) => {
      if (!/^\d+$/.test(part)) throw new Error(`“${part}” is not a number of tokens.`);
      const n = Number(part);
      if (n > MAX_HEAP_SIZE) throw new Error(`A heap holds at most ${MAX_HEAP_SIZE} tokens, not ${n}.`);
      return n;
    });
    if (heaps.every((n) => n === 0)) throw new Error('At least one heap needs a token.');
    return heaps;
  }

  function saveSetup() {
    const form = $('setup-form');
    store.set('bouton.setup', {
      heaps: form.elements.heaps.value,
      custom: $('custom-heaps').value,
      rule: form.elements.rule.value,
      mode: form.elements.mode.value,
      level: $('level').value,
    });
  }

  function restoreSetup() {
    const saved = store.get('bouton.setup');
    if (!saved) return;
    const form = $('setup-form');
    const pick = (name, value) => {
      const input = [...form.elements[name]].find((i) => i.value === value);
      if (input) input.checked = true;
    };
    pick('heaps', saved.heaps);
    pick('rule', saved.rule);
    pick('mode', saved.mode);
    if (typeof saved.custom === 'string') $('custom-heaps').value = saved.custom;
    if ([...$('level').options].some((o) => o.value === saved.level)) $('level').value = saved.level;
  }

  function updateLevelField() {
    const mode = $('setup-form').elements.mode.value;
    $('level-field').hidden = mode === 'local' || mode === 'online';
  }

  async function createGame(request) {
    const grant = await api('POST', '/api/games', request);
    store.set(seatKey(grant.game.id), { token: grant.token, seat: grant.seat });
    history.pushState({ game: grant.game.id }, '', grant.link);
    openGame(grant.game.id, { view: grant.game, token: grant.token, seat: grant.seat, focus: true });
  }

  async function onSetupSubmit(event) {
    event.preventDefault();
    showError('setup-error', '');
    let request;
    try {
      request = readSetup();
    } catch (e) {
      showError('setup-error', e.message);
      $('custom-heaps').focus();
      return;
    }
    saveSetup();
    const button = $('start');
    button.setAttribute('aria-busy', 'true');
    try {
      await createGame(request);
    } catch (e) {
      showError('setup-error', e.message);
    } finally {
      button.removeAttribute('aria-busy');
    }
  }

  // ------------------------------------------------------------- navigation

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

  // ------------------------------------------------------------------- game

  async function openGame(id, options = {}) {
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
  function receive(view) {
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

  function statusText(view) {
    if (view.over) return resultText(view)[0];
    const mover = nameOf(view, view.to_move);
    if (waitingForFriend(view)) {
      return st.seat === 'first' ? 'Waiting for your friend to join.' : 'Waiting for a second player to join.';
    }
    if (canMove(view)) return mover === 'You' ? 'Your turn.' : `${mover}: your turn.`;
    if (seatKind(view, view.to_move) === 'computer') {
      return view.mode === 'demo' ? `${mover} to move.` : 'The computer is thinking…';
    }
    if (!st.seat) return `${mover} to move.`;
    return mover === 'Your friend' ? 'Your friend’s turn: waiting for their move.' : `${mover} to move.`;
  }

  /** [headline, explanation] of a finished game. */
  function resultText(view) {
    const winner = nameOf(view, view.winner);
    const last = view.moves[view.moves.length - 1];
    const taker = last ? nameOf(view, last.side) : winner;
    const detail = `${taker} took the last token. ${ruleSentence(view.misere)}`;
    return [winsText(winner), detail];
  }

  // ---------------------------------------------------------------- drawing

  function render(view, { moved }) {
    const previous = st.shown;
    st.shown = view;
    if (!previous || previous.ply !== view.ply || previous.heaps.join() !== view.heaps.join()) {
      st.selection = null;
    }
    $('learn').hidden = false;
    renderHead(view);
    renderPlayers(view);
    renderStatus(view);
    renderBoard(view, moved);
    renderSelection();
    renderControls(view);
    renderLog(view);
    if (st.hintFor !== `${view.id}:${view.ply}`) $('hint').hidden = true;
    if ($('explain').open || $('moves-panel').open) loadAnalysis(view);
    if (view.over && !view.partial) {
      loadReview(view);
      if (st.statsForVersion !== `${view.id}:${view.version}`) {
        st.statsForVersion = `${view.id}:${view.version}`;
        loadStats();
      }
    } else {
      $('review').hidden = true;
      st.reviewFor = null;
    }
  }

  function renderHead(view) {
    const level = view.level ? ` (${view.level})` : '';
    $('game-title').textContent = `Nim: ${heapsText(view.start)}`;
    $('game-meta').replaceChildren(
      h('span', { class: 'tag' }, view.misere ? 'Misère' : 'Normal'),
      ' ',
      h('span', { class: 'rule-text' }, view.rule.charAt(0).toUpperCase() + view.rule.slice(1) + '.'),
      ' ',
      h('span', { class: 'mode-text' }, `${MODE_LABELS[view.mode] || view.mode}${level}.`),
    );

    const share = $('share');
    share.hidden = !(view.mode === 'online' && st.seat === 'first');
    if (!share.hidden) {
      $('share-link').value = window.location.origin + `/g/${view.id}`;
      $('share-state').textContent = view.seats[1].taken
        ? 'Your friend has joined.'
        : 'Waiting for your friend to open the link…';
    }
    const joinable = view.mode === 'online' && !st.seat && !view.seats[1].taken && !view.over;
    $('join-box').hidden = !joinable;
    const watching = !st.seat && !joinable;
    $('watch-note').hidden = !watching;
    if (watching) {
      $('watch-note').textContent = view.over
        ? 'You are watching this game: it is over.'
        : 'You are watching this game. Moves appear here as they are played; you cannot move.';
    }
  }

  function renderPlayers(view) {
    const [first, second] = names(view);
    const cards = [
      ['first', first],
      ['second', second],
    ].map(([side, name]) => {
      const toMove = !view.over && view.to_move === side && !waitingForFriend(view);
      const won = view.over && view.winner === side;
      let state = '';
      const waiting = side === 'second' && waitingForFriend(view);
      if (toMove) state = 'to move';
      else if (won) state = 'winner';
      else if (waiting) state = 'seat free';
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

  function renderStatus(view) {
    const lastMove = view.moves[view.ply - 1];
    $('last-move').hidden = !lastMove || view.over;
    $('last-move').textContent = lastMove ? `Last move: ${moveText(view, lastMove)}` : '';
    const status = $('status');
    status.textContent = statusText(view);
    status.className = `status${canMove(view) ? ' yours' : ''}${view.over ? ' over' : ''}`;
    const result = $('result');
    const finished = view.over && !view.partial;
    const wasHidden = result.hidden;
    result.hidden = !finished;
    if (finished) {
      const [headline, detail] = resultText(view);
      $('result-title').textContent = headline;
      $('result-detail').textContent = detail;
      $('again').hidden = !(st.seat || view.mode === 'demo');
      result.className = `result ${st.seat === view.winner || (st.seat === 'both' && view.mode !== 'demo') ? 'happy' : ''}`;
      if (wasHidden && $('board').contains(document.activeElement)) $('result-title').focus();
    }
    let title = 'bouton: play Nim';
    if (finished) title = `${resultText(view)[0]} · bouton`;
    else if (canMove(view)) title = 'Your turn · bouton';
    else title = `Nim ${heapsText(view.heaps)} · bouton`;
    document.title = title;
  }

  function cursorFor(heap, size) {
    const c = st.cursor[heap];
    if (!c || c > size) return size;
    return c;
  }

  function tokenLabel(heapNo, index, size) {
    return `Heap ${heapNo}, token ${index} of ${size}: take ${size - index + 1}`;
  }

  function renderBoard(view, moved) {
    const board = $('board');
    const interactive = canMove(view);
    const readOnly = !st.seat;
    const last = view.moves[view.ply - 1];
    let focusKey = null;
    const active = document.activeElement;
    if (active && active.classList.contains('token') && board.contains(active)) {
      focusKey = { heap: Number(active.dataset.heap), index: Number(active.dataset.index) };
    }
    const animate = moved && !reducedMotion.matches;
    const rows = view.heaps.map((size, i) => {
      const heapNo = i + 1;
      const justTaken = last && last.heap === heapNo ? last.take : 0;
      const countText = plural(size, 'token');
      const tokens = [];
      const cursor = cursorFor(i, size);
      for (let index = 1; index <= size; index += 1) {
        tokens.push(
          h('button', {
            type: 'button',
            class: 'token',
            'data-heap': heapNo,
            'data-index': index,
            'aria-label': tokenLabel(heapNo, index, size),
            'aria-pressed': 'false',
            'aria-disabled': interactive ? null : 'true',
            disabled: readOnly,
            tabindex: index === cursor ? '0' : '-1',
          }),
        );
      }
      for (let k = 0; k < justTaken; k += 1) {
        tokens.push(h('span', { class: `token ghost${animate ? ' leaving' : ''}`, 'aria-hidden': 'true' }));
      }
      if (justTaken) tokens.push(h('span', { class: 'taken-note' }, `${justTaken} just taken`));
      else if (size === 0) tokens.push(h('span', { class: 'empty-heap' }, 'empty'));
      return h(
        'div',
        {
          class: `heap${justTaken ? ' last-move' : ''}${size === 0 ? ' empty' : ''}`,
          role: 'group',
          'aria-label': `Heap ${heapNo}: ${plural(size, 'token')}`,
          'data-heap': heapNo,
        },
        h(
          'div',
          { class: 'heap-label', 'aria-hidden': 'true' },
          h('span', { class: 'heap-name' }, `Heap ${heapNo}`),
          h('span', { class: 'heap-count' }, countText),
        ),
        h('div', { class: 'tokens' }, tokens),
      );
    });
    board.replaceChildren(...rows);
    board.classList.toggle('inactive', !interactive);
    if (focusKey) focusToken(focusKey.heap, focusKey.index);
  }

  /** Focuses the token at (heap, index) or the nearest one still there. */
  function focusToken(heapNo, index) {
    const heaps = st.shown.heaps;
    let target = heapNo;
    if (!heaps[target - 1]) {
      const order = [];
      for (let d = 1; d < heaps.length; d += 1) order.push(heapNo + d, heapNo - d);
      target = order.find((n) => n >= 1 && n <= heaps.length && heaps[n - 1] > 0);
    }
    if (!target) {
      if (!$('result').hidden) $('result-title').focus();
      return;
    }
    const size = heaps[target - 1];
    const i = Math.max(1, Math.min(index, size));
    moveCursor(target, i, true);
  }

  function tokenAt(heapNo, index) {
    return $('board').querySelector(`button.token[data-heap="${heapNo}"][data-index="${index}"]`);
  }

  function moveCursor(heapNo, index, focus) {
    const heapEl = $('board').querySelector(`.heap[data-heap="${heapNo}"]`);
    if (!heapEl) return;
    for (const t of heapEl.querySelectorAll('button.token')) t.tabIndex = -1;
    const token = tokenAt(heapNo, index);
    if (!token) return;
    token.tabIndex = 0;
    st.cursor[heapNo - 1] = index;
    if (focus) token.focus();
  }

  function renderSelection() {
    const view = st.shown;
    const sel = st.selection;
    for (const token of $('board').querySelectorAll('button.token')) {
      const heap = Number(token.dataset.heap);
      const index = Number(token.dataset.index);
      const size = view.heaps[heap - 1];
      const chosen = !!sel && sel.heap === heap && index >= size - sel.take + 1;
      token.classList.toggle('selected', chosen);
      token.setAttribute('aria-pressed', chosen ? 'true' : 'false');
    }
    const interactive = canMove(view);
    $('selection-bar').classList.toggle('active', !!sel);
    $('selection-text').textContent = sel ? `Take ${sel.take} from heap ${sel.heap}?` : '';
    $('selection-prompt').textContent =
      !sel && interactive ? 'Choose a token: it and every token to its right in that heap are taken.' : '';
    $('confirm').setAttribute('aria-disabled', sel && interactive ? 'false' : 'true');
    $('confirm').textContent = sel ? `Confirm: take ${sel.take}` : 'Confirm';
    $('cancel').setAttribute('aria-disabled', sel ? 'false' : 'true');
    $('selection-bar').hidden = !st.seat || view.mode === 'demo' || view.over || waitingForFriend(view);
  }

  function renderControls(view) {
    const player = !!st.seat && view.mode !== 'demo';
    const playing = player && !view.over && !waitingForFriend(view);
    $('type-move').hidden = !playing;
    $('move-input').setAttribute('aria-disabled', canMove(view) ? 'false' : 'true');
    $('hint-button').hidden = !playing;
    $('hint-button').setAttribute('aria-disabled', canMove(view) ? 'false' : 'true');
    const undoable = ['computer', 'computer-first', 'local'].includes(view.mode) && !!st.seat;
    $('undo').hidden = !undoable || view.over;
    $('undo').setAttribute('aria-disabled', !view.partial && !st.busy && undoTarget(view) ? 'false' : 'true');
    const demoOwner = view.mode === 'demo' && st.seat === 'both';
    $('demo-pause').hidden = !demoOwner || view.over;
    $('demo-pause').textContent = st.demoPaused ? 'Resume' : 'Pause';
    $('demo-pause').setAttribute('aria-pressed', st.demoPaused ? 'true' : 'false');
  }

  /** Whether this viewer has a move to take back. */
  function undoTarget(view) {
    if (view.over) return false;
    return view.moves.some((mv) => st.seat === 'both' || mv.side === st.seat);
  }

  function renderLog(view) {
    const [first, second] = names(view);
    const heaps = view.start.slice();
    const items = view.moves.map((mv, i) => {
      heaps[mv.heap - 1] -= mv.take;
      const who = mv.side === 'first' ? first : second;
      return h(
        'li',
        { class: `log-${mv.side}` },
        h('span', { class: 'log-move' }, `${who} took ${mv.take} from heap ${mv.heap}`),
        h('span', { class: 'log-after' }, ` leaving ${heapsText(heaps)}${i === view.moves.length - 1 ? ' (latest move)' : ''}`),
      );
    });
    $('log').replaceChildren(...items);
    $('log-empty').hidden = items.length > 0;
  }

  // ----------------------------------------------------------------- moving

  function choose(heapNo, index) {
    const view = st.shown;
    const size = view.heaps[heapNo - 1];
    const take = size - index + 1;
    moveCursor(heapNo, index, false);
    if (st.selection && st.selection.heap === heapNo && st.selection.take === take) {
      confirmSelection();
      return;
    }
    st.selection = { heap: heapNo, take };
    showError('game-error', '');
    renderSelection();
  }

  function cancelSelection() {
    if (!st.selection) return false;
    st.selection = null;
    renderSelection();
    announce('Choice cancelled.');
    return true;
  }

  function confirmSelection() {
    const sel = st.selection;
    if (!sel || !canMove(st.shown)) return;
    play(sel.heap, sel.take);
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

  async function refresh() {
    if (!st.id) return;
    try {
      receive(await api('GET', `/api/games/${st.id}`, undefined, st.token));
    } catch {
      // The error shown already says what happened.
    }
  }

  function onTypedMove(event) {
    event.preventDefault();
    const view = st.shown;
    const text = $('move-input').value;
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

  async function undo() {
    const view = st.latest;
    if (!view || st.busy || !undoTarget(view) || st.shown !== view) return;
    await send(`/api/games/${view.id}/undo`, { ply: view.ply });
  }

  function onBoardClick(event) {
    const token = event.target.closest('button.token');
    if (!token || token.disabled) return;
    if (token.getAttribute('aria-disabled') === 'true') {
      announce(statusText(st.shown));
      return;
    }
    choose(Number(token.dataset.heap), Number(token.dataset.index));
  }

  function onBoardKey(event) {
    const token = event.target.closest('button.token');
    if (!token) return;
    const heaps = st.shown.heaps;
    const heapNo = Number(token.dataset.heap);
    const index = Number(token.dataset.index);
    const size = heaps[heapNo - 1];
    let target = null;
    const nextHeap = (step) => {
      for (let n = heapNo + step; n >= 1 && n <= heaps.length; n += step) if (heaps[n - 1] > 0) return n;
      return null;
    };
    switch (event.key) {
      case 'ArrowLeft':
        target = [heapNo, Math.max(1, index - 1)];
        break;
      case 'ArrowRight':
        target = [heapNo, Math.min(size, index + 1)];
        break;
      case 'Home':
        target = [heapNo, 1];
        break;
      case 'End':
        target = [heapNo, size];
        break;
      case 'ArrowUp':
      case 'ArrowDown': {
        const n = nextHeap(event.key === 'ArrowUp' ? -1 : 1);
        if (n) target = [n, Math.min(index, heaps[n - 1])];
        else target = [heapNo, index];
        break;
      }
      default:
        return;
    }
    event.preventDefault();
    moveCursor(target[0], target[1], true);
  }

  // ------------------------------------------------------------------- demo

  function scheduleDemo() {
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

  // ------------------------------------------------------------------ learn

  function moveName(mv) {
    return `take ${mv.take} from heap ${mv.heap}`;
  }

  async function showHint() {
    const view = st.shown;
    if (!canMove(view)) {
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
    if (!st.shown || `${st.shown.id}:${st.shown.ply}` !== key) return;
    const mover = nameOf(view, view.to_move);
    const you = mover === 'You';
    let text;
    const s = hint.suggestion;
    if (hint.winner === 'mover') {
      text = `${you ? 'You are' : `${mover} is`} winning: ${s ? moveName(s) : 'any move'}. ` +
        `${plural(hint.winning_moves, 'move')} ${hint.winning_moves === 1 ? 'wins' : 'win'} from here.`;
    } else {
      text = `No move wins against perfect play from here. ` +
        (s ? `Try to ${moveName(s)}: it gives the other side the most chances to go wrong.` : '');
    }
    text += ` The nim-sum is ${hint.nim_sum}.`;
    st.hintFor = key;
    st.hintMove = s;
    $('hint-text').textContent = text;
    $('hint-select').hidden = !s;
    $('hint').hidden = false;
    announce(text);
  }

  async function loadAnalysis(view) {
    const key = `${view.heaps.join(',')}|${view.misere}`;
    if (st.analysisKey === key) return;
    st.analysisKey = key;
    let analysis;
    try {
      analysis = await api('GET', `/api/analyze?heaps=${view.heaps.join(',')}&misere=${view.misere}`);
    } catch (e) {
      st.analysisKey = null;
      $('explain-body').textContent = e.message;
      $('moves-body').textContent = e.message;
      return;
    }
    if (st.analysisKey !== key) return;
    renderExplain(analysis, view);
    renderOptions(analysis, view);
  }

  function adviceText(advice, analysis) {
    const value = (c) => 2 ** c;
    switch (advice.kind) {
      case 'game-over':
        return 'The game is over: there is nothing left to take.';
      case 'all-columns-even':
        return 'Every column has an even number of 1s (the nim-sum is 0), so whoever moves now loses against perfect play. Take a single token and hope for a mistake.';
      case 'odd-singles-left':
        return `Misère endgame: only heaps of 1 are left, ${advice.singles} of them, an odd number. Whoever moves now loses.`;
      case 'flip': {
        const take = advice.from - advice.to;
        return `The leftmost odd column is the ${value(advice.column)}s column. Heap ${advice.heap} has a 1 there: flip its bits in every odd column, turning ${advice.from} into ${advice.to}. So take ${take} from heap ${advice.heap}; then every column is even.`;
      }
      case 'misere-endgame': {
        const take = advice.from - advice.to;
        const column =
          advice.column_rule_to === null || advice.column_rule_to === undefined
            ? ''
            : ` (the column rule alone would leave ${advice.column_rule_to})`;
        return `Misère endgame: take ${take} from heap ${advice.heap}, leaving ${advice.to}${column}, so that an odd number of heaps of 1 remain (${advice.singles_left}). Your opponent then takes the last token.`;
      }
      default:
        return analysis.winner === 'mover' ? 'Whoever moves now can win.' : 'Whoever moves now loses against perfect play.';
    }
  }

  function renderExplain(analysis, view) {
    const table = analysis.table;
    const advice = table.advice;
    const adviceHeap = advice.heap;
    const head = h(
      'tr',
      {},
      h('th', { scope: 'col' }, 'Heap'),
      h('th', { scope: 'col' }, 'Size'),
      table.columns.map((c, i) =>
        h('th', { scope: 'col', class: table.odd[i] ? 'odd' : null }, `${2 ** c}s`, h('span', { class: 'visually-hidden' }, ' column')),
      ),
    );
    const body = table.rows.map((bits, r) =>
      h(
        'tr',
        { class: adviceHeap === r + 1 ? 'advised' : null },
        h('th', { scope: 'row' }, `Heap ${r + 1}`),
        adviceHeap === r + 1
          ? h('td', { class: 'leave' }, `${analysis.heaps[r]} → ${advice.to}`)
          : h('td', {}, String(analysis.heaps[r])),
        bits.map((bit, i) => h('td', { class: `bit${bit ? ' one' : ''}${table.odd[i] ? ' odd' : ''}` }, String(bit))),
      ),
    );
    const ones = h(
      'tr',
      { class: 'ones' },
      h('th', { scope: 'row' }, 'Ones'),
      h('td', {}, ''),
      table.ones.map((n, i) => h('td', { class: table.odd[i] ? 'odd' : null }, String(n))),
    );
    const parity = h(
      'tr',
      { class: 'parity' },
      h('th', { scope: 'row' }, 'Column'),
      h('td', {}, ''),
      table.odd.map((odd) => h('td', { class: odd ? 'odd' : 'even' }, odd ? 'odd ✱' : 'even')),
    );
    const nimSum = analysis.heaps.length
      ? `${analysis.heaps.join(' ⊕ ')} = ${analysis.nim_sum} (binary ${analysis.nim_sum.toString(2)})`
      : String(analysis.nim_sum);
    let who = '';
    if (view.to_move && !view.over) {
      const mover = nameOf(view, view.to_move);
      const subject = mover === 'You' ? 'You are' : `${mover} is`;
      who = analysis.winner === 'mover'
        ? `${subject} to move and can win.`
        : `${subject} to move and loses against perfect play.`;
      if (mover === 'You' && analysis.winner !== 'mover') who = 'You are to move and lose against perfect play.';
    }
    replace($('explain-body'),
      h('p', {}, 'Write each heap in binary and count the 1s in each column. A column with an odd number of 1s is marked ', h('strong', {}, 'odd ✱'), '.'),
      h(
        'div',
        { class: 'table-scroll' },
        h('table', { class: 'bits' }, h('caption', { class: 'visually-hidden' }, 'The heaps in binary'), h('thead', {}, head), h('tbody', {}, body), h('tfoot', {}, ones, parity)),
      ),
      h('p', { class: 'nim-sum' }, 'Nim-sum: ', h('code', {}, nimSum), '. ', who),
      h('p', { class: 'advice' }, h('strong', {}, 'The move: '), adviceText(advice, analysis)),
      view.misere
        ? h('p', { class: 'field-help' }, 'Misère play follows the same table until a move would leave only heaps of 1; then leave an odd number of them.')
        : null,
    );
  }

  function renderOptions(analysis, view) {
    const body = $('moves-body');
    if (!analysis.moves) {
      body.replaceChildren(h('p', {}, 'There are too many moves to list here.'));
      return;
    }
    if (analysis.moves.length === 0) {
      body.replaceChildren(h('p', {}, 'No moves are left: the game is over.'));
      return;
    }
    const byHeap = new Map();
    for (const option of analysis.moves) {
      if (!byHeap.has(option.heap)) byHeap.set(option.heap, []);
      byHeap.get(option.heap).push(option);
    }
    const winning = analysis.moves.filter((m) => m.wins).length;
    const groups = [...byHeap.entries()].map(([heap, options]) =>
      h(
        'div',
        { class: 'option-group' },
        h('h3', {}, `Heap ${heap} (${plural(view.heaps[heap - 1], 'token')})`),
        h(
          'ul',
          { class: 'options-list' },
          options.map((o) =>
            h(
              'li',
              { class: o.wins ? 'wins' : null },
              h('span', { class: 'opt-move' }, `take ${o.take}`),
              h('span', { class: 'opt-sum' }, `nim-sum ${o.nim_sum}`),
              o.wins ? h('strong', { class: 'opt-win' }, '✓ wins') : null,
            ),
          ),
        ),
      ),
    );
    body.replaceChildren(
      h(
        'p',
        {},
        winning
          ? `${plural(winning, 'move')} ${winning === 1 ? 'wins' : 'win'} (marked ✓ wins). A winning move leaves a nim-sum of 0${view.misere ? ', except in the misère endgame' : ''}.`
          : 'No move wins against perfect play: every move leaves a nim-sum other than 0.',
      ),
      ...groups,
    );
  }

  async function loadReview(view) {
    const key = `${view.id}:${view.version}`;
    if (st.reviewFor === key) return;
    st.reviewFor = key;
    let review;
    try {
      review = await api('GET', `/api/games/${view.id}/review`);
    } catch (e) {
      st.reviewFor = null;
      return;
    }
    if (st.reviewFor !== key) return;
    const items = ['first', 'second'].map((side) => {
      const name = nameOf(view, side);
      const mistake = review[side];
      if (!mistake) {
        return h('li', { class: 'clean' }, h('strong', {}, name), ` never gave away a winning position.`);
      }
      return h(
        'li',
        { class: 'mistake' },
        h('strong', {}, `${possessive(name)} first mistake`),
        `: move ${mistake.move_number}, ${midName(name) === 'You' ? 'you' : midName(name)} took ${mistake.played.take} from heap ${mistake.played.heap}. ` +
          `Taking ${mistake.better.take} from heap ${mistake.better.heap} would have kept the win.`,
      );
    });
    $('review-list').replaceChildren(...items);
    $('review').hidden = false;
  }

  // ------------------------------------------------------------------ stats

  async function loadStats() {
    let data;
    try {
      data = await api('GET', '/api/stats');
    } catch (e) {
      $('stats-body').replaceChildren(h('p', {}, e.message));
      return;
    }
    const rows = data.rows || [];
    if (rows.length === 0) {
      $('stats-body').replaceChildren(h('p', {}, 'No finished games yet.'));
      return;
    }
    const order = Object.keys(MODE_LABELS);
    const levels = ['random', 'beginner', 'easy', 'medium', 'hard', 'perfect'];
    rows.sort(
      (a, b) => order.indexOf(a.mode) - order.indexOf(b.mode) || levels.indexOf(a.level) - levels.indexOf(b.level),
    );
    $('stats-body').replaceChildren(
      h(
        'div',
        { class: 'table-scroll' },
        h(
          'table',
          { class: 'stats-table' },
          h('caption', { class: 'visually-hidden' }, 'Finished games per mode and level'),
          h(
            'thead',
            {},
            h('tr', {}, ['Mode', 'Level', 'Games', 'Wins', 'Losses'].map((t) => h('th', { scope: 'col' }, t))),
          ),
          h(
            'tbody',
            {},
            rows.map((r) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, MODE_LABELS[r.mode] || r.mode),
                h('td', {}, r.level || '—'),
                h('td', {}, String(r.games)),
                h('td', {}, String(r.wins)),
                h('td', {}, String(r.losses)),
              ),
            ),
          ),
        ),
      ),
    );
  }

  // ------------------------------------------------------------------ wiring

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
    const request = { heaps: view.start, misere: view.misere, mode: view.mode };
    if (view.level) request.level = view.level;
    try {
      await createGame(request);
    } catch (e) {
      showError('game-error', e.message);
    }
  }

  function init() {
    restoreSetup();
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
      if (sel && document.activeElement === $('confirm')) st.cursor[sel.heap - 1] = st.shown.heaps[sel.heap - 1] - sel.take + 1;
      confirmSelection();
    });
    $('cancel').addEventListener('click', cancelSelection);
    document.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || !st.selection) return;
      const sel = st.selection;
      const inBoard = board.contains(document.activeElement);
      cancelSelection();
      if (!inBoard && ($('selection-bar').contains(document.activeElement))) {
        focusToken(sel.heap, st.shown.heaps[sel.heap - 1] - sel.take + 1);
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
    if ($('setup').hidden) loadStats();
  }

  init();
})();

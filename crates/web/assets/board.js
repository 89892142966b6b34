// The board on the game screen, of any kind: draws it with the kind's
// renderer (boards/), turns clicks and keys on its buttons into choices
// reported to the controller, and keeps the keyboard's place in each line.

import { rendererFor } from './boards/index.js';

/** Whether two choices are the same (a renderer may say otherwise). */
const samePick = (renderer, a, b) => !!a && !!b && (renderer.same ? renderer.same(a, b) : JSON.stringify(a) === JSON.stringify(b));

/**
 * The board view in `element`. `on.choose(pick, again)`: a button was
 * chosen (the choice `pick` after it, from the renderer; `again` when it is
 * the choice already made, which confirms it); `on.refused(button)`: an
 * unavailable button was chosen; `on.focusLost()`: the focused button went
 * away with nothing near to take the focus.
 */
export function createBoardView(element, on) {
  /** Per line, the key of the button Tab reaches. */
  let remembered = {};
  /** What is drawn: the game's state, its renderer and the choice. */
  let drawn = null;

  function focusButton(button) {
    const line = button.closest('.line');
    if (line) {
      for (const b of line.querySelectorAll('button[data-key]')) b.tabIndex = -1;
      remembered[line.dataset.line] = button.dataset.key;
    }
    button.tabIndex = 0;
    button.focus();
  }

  element.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-key]');
    if (!button || button.disabled || !drawn) return;
    if (button.getAttribute('aria-disabled') === 'true') {
      on.refused(button);
      return;
    }
    focusButton(button);
    const pick = drawn.renderer.pickAfter(drawn.view, drawn.pick, button.dataset);
    on.choose(pick, samePick(drawn.renderer, drawn.pick, pick));
  });

  element.addEventListener('keydown', (event) => {
    const button = event.target.closest('button[data-key]');
    if (!button) return;
    const lines = [...element.querySelectorAll('.line')].filter((l) => l.querySelector('button[data-key]'));
    const line = button.closest('.line');
    const list = [...line.querySelectorAll('button[data-key]')];
    const i = list.indexOf(button);
    let target = null;
    switch (event.key) {
      case 'ArrowLeft':
        target = list[Math.max(0, i - 1)];
        break;
      case 'ArrowRight':
        target = list[Math.min(list.length - 1, i + 1)];
        break;
      case 'Home':
        target = list[0];
        break;
      case 'End':
        target = list[list.length - 1];
        break;
      case 'ArrowUp':
      case 'ArrowDown': {
        const next = lines[lines.indexOf(line) + (event.key === 'ArrowUp' ? -1 : 1)];
        if (next) {
          const there = [...next.querySelectorAll('button[data-key]')];
          target = there[Math.min(i, there.length - 1)];
        } else {
          target = button;
        }
        break;
      }
      default:
        return;
    }
    event.preventDefault();
    focusButton(target);
  });

  return {
    /**
     * Draws `view`. `how`: `interactive` (the viewer may move now),
     * `readOnly` (the viewer holds no seat), `animate` (show what the last
     * move took), `before` (the board before the last move), `names`.
     */
    render(view, how) {
      const renderer = rendererFor(view.board.kind);
      const active = document.activeElement;
      const focusKey = active && element.contains(active) && active.dataset ? active.dataset.key : null;
      const focusLine = focusKey ? active.closest('.line')?.dataset.line : null;
      const ctx = { view, ...how };
      element.replaceChildren(...renderer.render(ctx));
      element.dataset.kind = renderer.kind;
      element.setAttribute('aria-label', renderer.label);
      element.classList.toggle('inactive', !how.interactive);
      drawn = { view, renderer, pick: null };
      for (const line of element.querySelectorAll('.line')) {
        const buttons = [...line.querySelectorAll('button[data-key]')];
        if (!buttons.length) continue;
        const kept = buttons.find((b) => b.dataset.key === remembered[line.dataset.line]);
        const usable = buttons.filter((b) => b.getAttribute('aria-disabled') !== 'true' || !how.interactive);
        (kept || usable[usable.length - 1] || buttons[buttons.length - 1]).tabIndex = 0;
      }
      if (focusKey) {
        const again = element.querySelector(`button[data-key="${CSS.escape(focusKey)}"]`);
        const line = focusLine && element.querySelector(`.line[data-line="${CSS.escape(focusLine)}"]`);
        const fallback = (line && [...line.querySelectorAll('button[data-key]')].pop()) || element.querySelector('button[data-key]');
        if (again || fallback) focusButton(again || fallback);
        else on.focusLost();
      }
    },

    /** Marks the buttons of the choice `pick` (or none). */
    select(pick) {
      if (!drawn) return;
      drawn.pick = pick || null;
      const { view, renderer } = drawn;
      for (const b of element.querySelectorAll('button[data-key]')) {
        const chosen = !!pick && renderer.chosen(view, pick, b.dataset);
        b.classList.toggle('selected', chosen);
        b.setAttribute('aria-pressed', chosen ? 'true' : 'false');
      }
      if (renderer.mark) renderer.mark(view, pick, element);
    },

    /** Focuses the first button of the choice, or the one Tab reaches. */
    focusChoice() {
      const button = element.querySelector('button[data-key][aria-pressed="true"]') || element.querySelector('button[data-key][tabindex="0"]');
      if (button) focusButton(button);
    },

    /** Whether the focus is on the board. */
    hasFocus: () => element.contains(document.activeElement),

    /** Forgets the game drawn. */
    clear() {
      remembered = {};
      drawn = null;
      element.replaceChildren();
    },
  };
}

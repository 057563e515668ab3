// The search box's suggestions: an ARIA combobox (WAI-ARIA APG "list autocomplete") that
// keeps suggesting while a Korean input method is still composing a syllable.
//
// During composition the input's value is not final (서우 on the way to 서울), and many
// widgets wait for compositionend, so nothing is suggested until the user moves on. We listen
// to compositionupdate and ask with the text before the composition plus the KEYSTROKES of the
// syllable being composed (서 + ㅇㅜ); the API matches keystroke prefixes (ADR 0035), so 서ㅇㅜ
// finds 서울... while the syllable is still open. Keys the IME owns (Enter, arrows while
// composing: isComposing / keyCode 229) are left to it.

import { api, qs } from './api.js';
import { h } from './dom.js';
import { keystrokes } from './hangul.js';

const DELAY_MS = 80;

export function attachAutocomplete(input, listbox, { onPick }) {
  let composing = false;
  let before = '';   // text left of the composition when it started
  let timer = 0;
  let seq = 0;       // answers that arrive after a newer request are dropped
  let controller = null;
  let items = [];
  let active = -1;
  let lastPrefix = '';

  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('aria-controls', listbox.id);
  listbox.setAttribute('role', 'listbox');

  const close = () => {
    // also drop what is in flight: an answer must not reopen the list after Escape or a search
    clearTimeout(timer);
    seq++;
    controller?.abort();
    items = [];
    active = -1;
    listbox.replaceChildren();
    listbox.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  };

  const render = () => {
    listbox.replaceChildren(...items.map((item, i) => h('li', {
      id: `${listbox.id}-${i}`,
      role: 'option',
      class: item.kind === 'query' ? 'query' : 'title',
      'aria-selected': i === active ? 'true' : 'false',
      // mousedown, not click: a click would blur the input first and close the list
      onmousedown: (e) => { e.preventDefault(); pick(i); },
    }, item.title, item.kind === 'query' ? h('span', { class: 'kind' }, ' · 인기 검색어') : null)));
    listbox.hidden = items.length === 0;
    input.setAttribute('aria-expanded', items.length ? 'true' : 'false');
    if (active >= 0) input.setAttribute('aria-activedescendant', `${listbox.id}-${active}`);
    else input.removeAttribute('aria-activedescendant');
  };

  const pick = (i) => {
    const item = items[i];
    close();
    if (item) onPick(item);
  };

  const ask = (prefix) => {
    clearTimeout(timer);
    if (!prefix.trim()) {
      lastPrefix = '';
      close();
      return;
    }
    if (prefix === lastPrefix && items.length) return;
    timer = setTimeout(async () => {
      lastPrefix = prefix;
      const mine = ++seq;
      controller?.abort();
      controller = new AbortController();
      try {
        const data = await api(`/posts/autocomplete${qs({ prefix: prefix.slice(0, 100), ids: true })}`, { signal: controller.signal });
        if (mine !== seq) return;
        // `ids=true` answers [{id, title, kind}]; a server without it answers strings.
        items = (data || []).map((d) => (typeof d === 'string' ? { id: null, title: d, kind: 'query' } : d));
        active = -1;
        render();
        input.dataset.suggestedFor = prefix; // lets tests (and curious readers) see what was asked
      } catch (e) {
        if (e.name !== 'AbortError' && mine === seq) close();
      }
    }, DELAY_MS);
  };

  input.addEventListener('compositionstart', () => {
    composing = true;
    before = input.value.slice(0, input.selectionStart ?? input.value.length);
  });
  input.addEventListener('compositionupdate', (e) => {
    // The value is not updated yet when this fires: build the prefix from the event. Text
    // right of the caret is not part of what is being typed.
    ask(before + keystrokes(e.data));
  });
  input.addEventListener('compositionend', () => {
    composing = false;
    ask(input.value);
  });
  input.addEventListener('input', (e) => {
    if (e.isComposing || composing) return; // compositionupdate has asked already
    ask(input.value);
  });
  input.addEventListener('keydown', (e) => {
    if (e.isComposing || e.keyCode === 229) return; // the input method's key
    const open = items.length > 0;
    if (e.key === 'ArrowDown' && open) {
      active = (active + 1) % items.length;
      render();
      e.preventDefault();
    } else if (e.key === 'ArrowUp' && open) {
      active = active <= 0 ? items.length - 1 : active - 1;
      render();
      e.preventDefault();
    } else if (e.key === 'Enter' && open && active >= 0) {
      e.preventDefault();
      pick(active);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  });
  input.addEventListener('blur', () => setTimeout(close, 100));
  return { close };
}

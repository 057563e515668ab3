// DOM building without innerHTML: every server string becomes a text node. The one piece of
// server markup we accept, the search snippet's <b> highlights, goes through highlighted(),
// which builds <mark> elements itself and keeps everything else as text.

/** h('a', {href: '#/x', class: 'c'}, 'text', child...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

const ENTITIES = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };

/** The text of an escaped snippet fragment: the five entities the server writes, nothing else. */
export function unescapeSnippet(s) {
  return s.replace(/&(?:lt|gt|amp|quot|#39);/g, (m) => ENTITIES[m]);
}

/**
 * A search snippet as DOM: the server HTML-escapes the page text and wraps matches in <b>...</b>
 * (search/Snippets.java). We split on exactly those two tags; anything else, even if it looks
 * like markup, stays text. An unbalanced tag is shown as text.
 */
export function highlighted(snippet) {
  const frag = document.createDocumentFragment();
  const parts = String(snippet ?? '').split(/(<b>|<\/b>)/);
  let mark = null;
  for (const part of parts) {
    if (part === '<b>' && !mark) {
      mark = document.createElement('mark');
    } else if (part === '</b>' && mark) {
      frag.append(mark);
      mark = null;
    } else if (part) {
      const text = document.createTextNode(unescapeSnippet(part));
      (mark || frag).append(text);
    }
  }
  if (mark) frag.append(...mark.childNodes);
  return frag;
}

/** Plain page text as paragraphs (blank line = new paragraph, newline = line break). */
export function paragraphs(text) {
  const frag = document.createDocumentFragment();
  for (const block of String(text ?? '').split(/\n{2,}/)) {
    if (!block.trim()) continue;
    const p = document.createElement('p');
    block.split('\n').forEach((line, i) => {
      if (i) p.append(document.createElement('br'));
      p.append(document.createTextNode(line));
    });
    frag.append(p);
  }
  return frag;
}

const dateFormat = new Intl.DateTimeFormat('ko-KR', { dateStyle: 'medium', timeStyle: 'short' });
export function time(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return h('time', { datetime: d.toISOString() }, dateFormat.format(d));
}

const numberFormat = new Intl.NumberFormat('ko-KR');
export const num = (n) => numberFormat.format(n ?? 0);

/** Announces a message to screen readers (and shows it in the status bar). */
export function announce(message) {
  const live = document.getElementById('live');
  live.textContent = '';
  // a fresh text node so that the same message twice is announced twice
  setTimeout(() => { live.textContent = message; }, 30);
}

/** An error box (role=alert) for a failed call. */
export function errorBox(error) {
  return h('p', { class: 'error', role: 'alert' }, error?.message || String(error));
}

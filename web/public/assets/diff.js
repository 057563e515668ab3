// Diffs as DOM. Saved revisions are diffed by the server (GET /posts/{id}/diff: a unified
// diff); only the editor's own unsaved text is diffed here (lineDiff), against the version the
// edit started from, to show "your change" beside "their change" on a conflict.

import { h } from './dom.js';

/**
 * Line diff of a and b as [{op: ' '|'-'|'+', text}], by longest common subsequence over the
 * lines left once the common head and tail are trimmed. Past MAX_CELLS (a huge rewrite) it
 * falls back to "all removed, all added", which is still correct, only less precise.
 */
const MAX_CELLS = 4_000_000;
export function lineDiff(a, b) {
  const x = String(a ?? '').split('\n');
  const y = String(b ?? '').split('\n');
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xs = x.slice(head, x.length - tail);
  const ys = y.slice(head, y.length - tail);
  const out = x.slice(0, head).map((text) => ({ op: ' ', text }));
  if (xs.length * ys.length > MAX_CELLS) {
    out.push(...xs.map((text) => ({ op: '-', text })), ...ys.map((text) => ({ op: '+', text })));
  } else {
    const n = xs.length;
    const m = ys.length;
    // lcs[i][j] = LCS length of xs[i..] and ys[j..], one flat array
    const lcs = new Uint32Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * (m + 1) + j] = xs[i] === ys[j] ? lcs[(i + 1) * (m + 1) + j + 1] + 1
          : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (xs[i] === ys[j]) { out.push({ op: ' ', text: xs[i] }); i++; j++; }
      else if (lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]) out.push({ op: '-', text: xs[i++] });
      else out.push({ op: '+', text: ys[j++] });
    }
    while (i < n) out.push({ op: '-', text: xs[i++] });
    while (j < m) out.push({ op: '+', text: ys[j++] });
  }
  out.push(...x.slice(x.length - tail).map((text) => ({ op: ' ', text })));
  return out;
}

/** The lines of a unified diff as [{op, text}] plus hunk headers ({op: '@', text}). */
export function parseUnified(unified) {
  const lines = [];
  for (const line of String(unified ?? '').split('\n')) {
    if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('\\')) continue;
    if (line.startsWith('@@')) lines.push({ op: '@', text: line });
    else if (line.startsWith('+') || line.startsWith('-') || line.startsWith(' ')) lines.push({ op: line[0], text: line.slice(1) });
    else if (line === '') continue;
    else lines.push({ op: ' ', text: line });
  }
  return lines;
}

/**
 * A diff as a table-like list: one row per line, with a sign column that screen readers hear
 * as "추가" / "삭제" (the colour alone is not the information). `context` keeps that many
 * unchanged lines around changes and folds the rest.
 */
export function diffView(lines, { label, context = Infinity } = {}) {
  const keep = new Array(lines.length).fill(context === Infinity);
  if (context !== Infinity) {
    lines.forEach((l, i) => {
      if (l.op !== ' ') for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = true;
    });
  }
  const rows = [];
  let folded = 0;
  const flush = () => {
    if (folded) rows.push(h('li', { class: 'fold' }, `… 바뀌지 않은 ${folded}줄 …`));
    folded = 0;
  };
  lines.forEach((l, i) => {
    if (!keep[i]) { folded++; return; }
    flush();
    const cls = l.op === '+' ? 'add' : l.op === '-' ? 'del' : l.op === '@' ? 'hunk' : 'same';
    const sign = l.op === '+' ? h('span', { class: 'sign' }, '+', h('span', { class: 'sr-only' }, ' 추가: '))
      : l.op === '-' ? h('span', { class: 'sign' }, '−', h('span', { class: 'sr-only' }, ' 삭제: '))
        : h('span', { class: 'sign', 'aria-hidden': 'true' }, l.op === '@' ? '' : ' ');
    rows.push(h('li', { class: cls }, sign, h('span', { class: 'text' }, l.text || '\u00a0')));
  });
  flush();
  const changed = lines.some((l) => l.op === '+' || l.op === '-');
  return h('ol', { class: 'diff', 'aria-label': label },
    changed ? rows : h('li', { class: 'fold' }, '본문은 바뀌지 않았습니다.'));
}

// #/post/{id}/history (revisions newest first, pick any two to compare),
// #/post/{id}/diff?from=&to= and #/post/{id}/rev/{version}.

import { api, qs, categories } from '../api.js';
import { h, paragraphs, time, errorBox } from '../dom.js';
import { parseUnified, diffView as renderDiff } from '../diff.js';
import { pager } from './search.js';

const SIZE = 20;

export async function historyView(id, params) {
  const page = Math.max(0, Number.parseInt(params.page || '0', 10) || 0);
  let post;
  let slice;
  try {
    [post, slice] = await Promise.all([api(`/posts/${id}`), api(`/posts/${id}/revisions${qs({ page, size: SIZE })}`)]);
  } catch (e) {
    return h('section', {}, h('h1', {}, '역사'), errorBox(e));
  }
  const revs = slice.content;
  const form = h('form', { class: 'history' });
  const rows = revs.map((r, i) => h('tr', {},
    h('td', {}, h('input', { type: 'radio', name: 'from', value: r.version, id: `from-${r.version}`, 'aria-label': `판 ${r.version}부터`, checked: i === 1 || (revs.length === 1 && i === 0) })),
    h('td', {}, h('input', { type: 'radio', name: 'to', value: r.version, id: `to-${r.version}`, 'aria-label': `판 ${r.version}까지`, checked: i === 0 })),
    h('th', { scope: 'row' }, h('a', { href: `#/post/${id}/rev/${r.version}` }, `판 ${r.version}`)),
    h('td', {}, time(r.createdAt)),
    h('td', {}, r.authorNickname),
    h('td', {}, r.title),
    h('td', {}, i + 1 < revs.length
      ? h('a', { href: `#/post/${id}/diff?from=${revs[i + 1].version}&to=${r.version}` }, '앞 판과 비교') : '')));
  form.append(
    h('div', { class: 'table-wrap' }, h('table', {},
      h('caption', { class: 'sr-only' }, '판 목록, 최신 판부터'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '부터'), h('th', { scope: 'col' }, '까지'),
        h('th', { scope: 'col' }, '판'), h('th', { scope: 'col' }, '저장 시각'), h('th', { scope: 'col' }, '저장한 사람'),
        h('th', { scope: 'col' }, '제목'), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, '비교')))),
      h('tbody', {}, rows))),
    h('div', { class: 'actions' }, h('button', { type: 'submit', disabled: revs.length < 2 }, '고른 두 판 비교')));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const data = new FormData(form);
    let from = Number(data.get('from'));
    let to = Number(data.get('to'));
    if (from > to) [from, to] = [to, from];
    location.hash = `#/post/${id}/diff?from=${from}&to=${to}`;
  });
  return h('section', {},
    h('p', { class: 'crumb' }, h('a', { href: `#/post/${id}` }, `← ${post.title}`)),
    h('h1', {}, `역사: ${post.title}`),
    form,
    pager(page, slice, (p) => `#/post/${id}/history${qs({ page: p || null })}`));
}

export async function diffView(id, params) {
  const from = Number.parseInt(params.from, 10);
  const to = Number.parseInt(params.to, 10);
  let d;
  let a;
  let b;
  try {
    [d, a, b] = await Promise.all([api(`/posts/${id}/diff${qs({ from, to })}`),
      api(`/posts/${id}/revisions/${from}`), api(`/posts/${id}/revisions/${to}`)]);
  } catch (e) {
    return h('section', {}, h('h1', {}, '비교'), errorBox(e));
  }
  const cats = await categories().catch(() => []);
  const catName = (cid) => cats.find((c) => c.id === cid)?.name ?? '(분류 없음)';
  return h('section', { class: 'diff-page' },
    h('p', { class: 'crumb' }, h('a', { href: `#/post/${id}/history` }, '← 역사')),
    h('h1', {}, `판 ${from} → 판 ${to} 비교`),
    h('p', { class: 'meta' },
      `판 ${from}: ${a.authorNickname}, `, time(a.createdAt), ` · 판 ${to}: ${b.authorNickname}, `, time(b.createdAt)),
    h('p', { class: 'summary' },
      h('span', { class: 'added' }, `+${d.added}줄`), ' ', h('span', { class: 'removed' }, `−${d.removed}줄`)),
    d.titleChanged ? h('p', {}, `제목: “${a.title}” → “${b.title}”`) : null,
    d.categoryChanged ? h('p', {}, `분류: ${catName(a.categoryId)} → ${catName(b.categoryId)}`) : null,
    renderDiff(parseUnified(d.unified), { label: `판 ${from}과 판 ${to}의 본문 차이` }));
}

export async function revisionView(id, version) {
  let r;
  try {
    r = await api(`/posts/${id}/revisions/${version}`);
  } catch (e) {
    return h('section', {}, h('h1', {}, `판 ${version}`), errorBox(e));
  }
  return h('article', { class: 'post' },
    h('p', { class: 'crumb' }, h('a', { href: `#/post/${id}/history` }, '← 역사')),
    h('h1', {}, r.title, h('span', { class: 'muted' }, ` (판 ${r.version})`)),
    h('p', { class: 'meta' }, r.authorNickname, ' · ', time(r.createdAt)),
    h('div', { class: 'content' }, paragraphs(r.content)));
}

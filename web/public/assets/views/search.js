// #/search?q=&categoryId=&page= : results with highlighted snippets, category facets with
// counts, "did you mean", the keyboard-layout rescue notice, pagination.

import { api, qs, categories, hasNext } from '../api.js';
import { h, highlighted, time, num, errorBox } from '../dom.js';

const SIZE = 10;

export const searchHref = (q, extra = {}) => `#/search${qs({ q, ...extra })}`;

export async function searchView(params) {
  const q = (params.q || '').trim();
  const page = Math.max(0, Number.parseInt(params.page || '0', 10) || 0);
  const categoryId = params.categoryId || null;
  // A literal search ("search instead for Y") stays literal on its other pages and facets.
  const exact = params.exact === 'true' ? 'true' : null;
  if (!q) {
    return h('section', {}, h('h1', {}, '검색'), h('p', {}, '위의 검색창에 찾을 낱말을 입력하세요.'));
  }
  let data;
  let cats = [];
  try {
    [data, cats] = await Promise.all([
      api(`/posts/search${qs({ q, categoryId, page, size: SIZE, exact })}`),
      categories().catch(() => []),
    ]);
  } catch (e) {
    return h('section', {}, h('h1', {}, `‘${q}’ 검색`), errorBox(e));
  }
  const byName = new Map(cats.map((c) => [c.name, c]));
  const byId = new Map(cats.map((c) => [String(c.id), c]));
  const results = data.results?.content || [];
  const chosen = categoryId ? byId.get(String(categoryId)) : null;

  return h('section', { class: 'search-page' },
    h('h1', {}, `‘${q}’ 검색 결과`, chosen ? h('span', { class: 'muted' }, ` · ${chosen.name}`) : null),
    notice(q, data, categoryId),
    h('div', { class: 'with-aside' },
      facets(q, data.categoryFacets || {}, byName, categoryId, exact),
      h('div', { class: 'results' },
        results.length
          ? h('ol', { class: 'hits', start: page * SIZE + 1 }, results.map(hit))
          : h('p', { class: 'empty' }, page > 0 ? '더 이상 결과가 없습니다.' : '찾는 문서가 없습니다. 낱말을 줄이거나 다르게 써 보세요.'),
        pager(page, data.results, (p) => searchHref(q, { categoryId, exact, page: p || null })),
      ),
    ),
  );
}

/**
 * "Did you mean" (data.suggestion), or, when the server already searched the rewritten text
 * (keyboard-layout rescue), "showing results for X — search instead for Y". Servers that do not
 * say whether they rewrote (no rewrittenFrom/originalQuery/rewritten field) get the plain
 * "did you mean", which is never wrong, only less precise.
 */
function notice(q, data, categoryId) {
  const suggestion = data.suggestion;
  const from = data.rewrittenFrom ?? data.originalQuery ?? (data.rewritten === true ? q : null);
  if (from && suggestion) {
    return h('p', { class: 'notice', role: 'status' },
      h('strong', {}, `‘${suggestion}’`), ' 검색 결과를 보여 드립니다. ',
      h('a', { href: searchHref(from, { categoryId, exact: 'true' }) }, `‘${from}’(으)로 검색`),
      '하시겠어요?');
  }
  if (suggestion) {
    return h('p', { class: 'notice', role: 'status' }, '혹시 이것을 찾으셨나요? ',
      h('a', { href: searchHref(suggestion, { categoryId }), class: 'did-you-mean' }, suggestion));
  }
  return null;
}

function facets(q, counts, byName, categoryId, exact) {
  const entries = Object.entries(counts);
  if (!entries.length) return h('aside', { class: 'facets', 'aria-label': '분류별 결과' });
  return h('aside', { class: 'facets', 'aria-label': '분류별 결과' },
    h('h2', {}, '분류'),
    h('ul', {},
      h('li', {}, h('a', { href: searchHref(q, { exact }), 'aria-current': categoryId ? null : 'true' }, '전체')),
      entries.map(([name, count]) => {
        const cat = byName.get(name);
        const label = [name, h('span', { class: 'count' }, num(count), h('span', { class: 'sr-only' }, '건'))];
        if (!cat) return h('li', {}, label);
        const current = String(cat.id) === String(categoryId);
        return h('li', {}, h('a', { href: searchHref(q, { categoryId: cat.id, exact }), 'aria-current': current ? 'true' : null }, label));
      })));
}

function hit(r) {
  return h('li', { class: 'hit' },
    h('h2', {}, h('a', { href: `#/post/${r.id}` }, r.title)),
    r.snippet ? h('p', { class: 'snippet' }, highlighted(r.snippet)) : null,
    h('p', { class: 'meta' }, r.authorNickname, ' · ', time(r.createdAt),
      ' · 조회 ', num(r.viewCount), ' · 좋아요 ', num(r.likeCount)));
}

/** Previous / next links for a slice (no totals: the API does not count every match). */
export function pager(page, slice, href) {
  if (!slice) return null;
  const prev = page > 0;
  const next = hasNext(slice);
  if (!prev && !next) return null;
  return h('nav', { class: 'pager', 'aria-label': '쪽 이동' },
    prev ? h('a', { href: href(page - 1), rel: 'prev' }, '← 이전') : h('span'),
    h('span', { class: 'muted' }, `${page + 1}쪽`),
    next ? h('a', { href: href(page + 1), rel: 'next' }, '다음 →') : h('span'));
}

// The wiki mix: editors working on their own pages (only an author may edit, so each VU
// writes pages it created). One request per call, drawn with these weights:
//   detail 25%     read one of its pages (signed in, with its write position: read-your-writes)
//   edit 25%       PUT with the version it read; 15% of edits use a stale version on purpose
//                  (409 VERSION_CONFLICT is the correct answer), then re-read and edit again
//   history 15%    the page's revision list
//   revision 10%   one old revision
//   diff 15%       the diff between two revisions
//   create 5%      a new page (also the first calls of every VU, until it has 3)
//   search 5%      one query word
// Logins are a scenario of their own (loginFlow), paced under nginx's login limit.
import { accounts, anyWord, between, body, pick, queryWord } from './data.js';
import { currentSession, json, login, request, tokenFrom } from './api.js';

export const WIKI_WEIGHTS = { detail: 25, edit: 25, history: 15, revision: 10, diff: 15, create: 5, search: 5 };
export const WIKI_ENDPOINTS = ['detail', 'edit', 'edit-conflict', 'history', 'revision', 'diff', 'create', 'search', 'login', 'me'];
const STALE_SHARE = 0.15;
const MY_PAGES = 3;

const pages = []; // this VU's pages: {id, version, title, lines}

function create(s) {
  const lines = body(between(8, 20)).split('\n');
  const title = `${anyWord()} 문서 ${__VU}-${__ITER}-${Math.floor(Math.random() * 1e6)}`;
  const res = request('POST', 'create', '/posts', { title, content: lines.join('\n'), categoryId: between(1, 30) },
    { token: s.token, expect: [201] });
  if (res.status === 201) pages.push({ id: json(res, 'data.id'), version: json(res, 'data.version'), title, lines });
  return res;
}

function edit(s, page) {
  // Change one line: the diff views then show a real one-line change.
  const lines = page.lines.slice();
  lines[between(0, lines.length - 1)] = `${anyWord()} ${anyWord()} 고쳐 쓴 문장 ${__ITER}.`;
  const stale = page.version > 1 && Math.random() < STALE_SHARE;
  const send = (version, endpoint, expect) => request('PUT', endpoint, `/posts/${page.id}`,
    { title: page.title, content: lines.join('\n'), categoryId: 1 + (page.id % 30), version }, { token: s.token, expect });
  let res = stale ? send(page.version - 1, 'edit-conflict', [409]) : send(page.version, 'edit', [200]);
  if (res.status === 409) {
    // What an editor does after a conflict: read the current version, then save again.
    const fresh = request('GET', 'detail', `/posts/${page.id}`, null, { token: s.token });
    if (fresh.status === 200) page.version = json(fresh, 'data.version');
    res = send(page.version, 'edit', [200]);
  }
  if (res.status === 200) {
    page.version = json(res, 'data.version');
    page.lines = lines;
  }
  return res;
}

export function wikiRequest() {
  const s = currentSession();
  if (pages.length < MY_PAGES) return create(s);
  let r = Math.random() * 100;
  let call = 'search';
  for (const [name, w] of Object.entries(WIKI_WEIGHTS)) {
    if (r < w) { call = name; break; }
    r -= w;
  }
  const page = pick(pages);
  switch (call) {
    case 'detail': return request('GET', 'detail', `/posts/${page.id}`, null, { token: s.token });
    case 'edit': return edit(s, page);
    case 'history': return request('GET', 'history', `/posts/${page.id}/revisions?size=20`, null, { token: s.token });
    case 'revision': return request('GET', 'revision', `/posts/${page.id}/revisions/${between(1, page.version)}`, null, { token: s.token });
    case 'diff': {
      if (page.version < 2) return edit(s, page);
      const to = between(2, page.version);
      return request('GET', 'diff', `/posts/${page.id}/diff?from=${between(1, to - 1)}&to=${to}`, null, { token: s.token });
    }
    case 'create': return create(s);
    default: {
      const { word } = queryWord();
      return request('GET', 'search', `/posts/search?q=${encodeURIComponent(word)}`, null, { token: s.token });
    }
  }
}

// A user signing in through nginx (the real path, limited to 1/s per address with a burst of
// 10), then asking who it is with the new token.
export function loginFlow() {
  const a = pick(accounts);
  const res = login(a.username, a.password, 'login', [200]);
  const token = tokenFrom(res);
  if (token) request('GET', 'me', '/auth/me', null, { token });
}

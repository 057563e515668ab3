// The community mix (issue 14): one request per call, drawn with these weights.
//   search 35%  one word, class rare/medium/high in equal thirds (queries.json), 30% with a category
//   autocomplete 20%  the first 1-3 characters of a query word
//   list 15%    page 0-15, 30% with a category
//   detail 15%  a live post (30% from 100 hot ones)
//   create 8%   a signed-in write
//   like 7%     a signed-in like of a live post (409 ALREADY_LIKED is a correct answer)
// Readers are anonymous; writers are the VU's provisioned account.
import { between, body, postId, queryWord, anyWord, pick, corpusPages } from './data.js';
import { str } from './config.js';
import { currentSession, forgetCookies, request } from './api.js';

export const COMMUNITY_WEIGHTS = { search: 35, autocomplete: 20, list: 15, detail: 15, create: 8, like: 7 };
export const COMMUNITY_ENDPOINTS = Object.keys(COMMUNITY_WEIGHTS);

function category() {
  return Math.random() < 0.3 ? `&categoryId=${between(1, 30)}` : '';
}

export const communityCalls = {
  search() {
    const { word } = queryWord();
    return request('GET', 'search', `/posts/search?q=${encodeURIComponent(word)}${category()}`);
  },
  autocomplete() {
    const word = anyWord();
    const prefix = word.slice(0, between(1, Math.min(3, word.length)));
    return request('GET', 'autocomplete', `/posts/autocomplete?prefix=${encodeURIComponent(prefix)}`);
  },
  list() {
    return request('GET', 'list', `/posts?page=${between(0, 15)}${category()}`);
  },
  detail() {
    return request('GET', 'detail', `/posts/${postId()}`);
  },
  create() {
    const s = currentSession();
    // PAGES=corpus: a page as the seed makes them; default: sentences of query words (findable by them).
    const page = str('PAGES', 'queries') === 'corpus' ? pick(corpusPages) : null;
    const title = page ? `${page.title} ${__VU}-${__ITER}` : `${anyWord()} ${anyWord()} 이야기 ${__VU}-${__ITER}`;
    const res = request('POST', 'create', '/posts',
      page ? { title, content: page.content, categoryId: page.categoryId }
        : { title, content: body(between(3, 12)), categoryId: between(1, 30) }, { token: s.token, expect: [201] });
    forgetCookies();
    return res;
  },
  like() {
    const s = currentSession();
    const res = request('POST', 'like', `/posts/${postId()}/like`, null, { token: s.token, expect: [200, 409] });
    forgetCookies();
    return res;
  },
};

const TABLE = [];
for (const [name, w] of Object.entries(COMMUNITY_WEIGHTS)) for (let i = 0; i < w; i++) TABLE.push(name);

export function communityRequest() {
  const name = TABLE[Math.floor(Math.random() * TABLE.length)];
  return communityCalls[name]();
}

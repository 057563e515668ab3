// Smoke profile: a few virtual users write, read and search for 30 s; every check must
// pass and p95 stays under 500 ms. Run: make k6-smoke
import http from 'k6/http';
import { check, sleep } from 'k6';
import { API, JSON_HEADERS } from './lib/config.js';

export const options = {
  vus: 5,
  duration: '30s',
  thresholds: {
    checks: ['rate==1.0'],
    http_req_failed: ['rate==0'],
    http_req_duration: ['p(95)<500'],
  },
};

const WORDS = ['서울', '부산', '한강', '경복궁', '김치', '도서관', 'wiki', 'search'];

// Writes need a signed-in user: one sign-up for the whole run (nginx limits sign-ups per address).
export function setup() {
  const suffix = `${Date.now()}`.slice(-8);
  const r = http.post(`${API}/auth/signup`,
    JSON.stringify({ username: `k6smoke${suffix}`, nickname: `k6${suffix}`, password: `K6-smoke-${suffix}` }), JSON_HEADERS);
  check(r, { 'sign-up is 201': (res) => res.status === 201 });
  return { token: r.cookies.token[0].value };
}

export default function (session) {
  const auth = { headers: { ...JSON_HEADERS.headers, Authorization: `Bearer ${session.token}` } };
  const word = WORDS[Math.floor(Math.random() * WORDS.length)];
  const created = http.post(`${API}/posts`,
    JSON.stringify({ title: `${word} 이야기 ${__VU}-${__ITER}`, content: `${word}에 관한 글입니다. k6 smoke.` }),
    auth);
  check(created, { 'create is 201': (r) => r.status === 201 });

  const found = http.get(`${API}/posts/search?q=${encodeURIComponent(word)}`);
  check(found, {
    'search is 200': (r) => r.status === 200,
    'search has the envelope': (r) => r.json('data.results.content') !== undefined,
  });

  if (created.status === 201) {
    const id = created.json('data.id');
    // The create's X-Hanwiki-Sync position makes this read see the new post on either node.
    const detail = http.get(`${API}/posts/${id}`, { headers: { 'X-Hanwiki-Sync': created.headers['X-Hanwiki-Sync'] } });
    check(detail, { 'detail is 200': (r) => r.status === 200 });
  }
  sleep(0.2);
}

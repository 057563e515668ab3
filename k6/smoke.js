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

export default function () {
  const word = WORDS[Math.floor(Math.random() * WORDS.length)];
  const created = http.post(`${API}/posts`,
    JSON.stringify({ title: `${word} 이야기 ${__VU}-${__ITER}`, content: `${word}에 관한 글입니다. k6 smoke.` }),
    JSON_HEADERS);
  check(created, { 'create is 201': (r) => r.status === 201 });

  const found = http.get(`${API}/posts/search?q=${encodeURIComponent(word)}`);
  check(found, {
    'search is 200': (r) => r.status === 200,
    'search has the envelope': (r) => r.json('data.results.content') !== undefined,
  });

  if (created.status === 201) {
    const id = created.json('data.id');
    const detail = http.get(`${API}/posts/${id}`);
    // The replica may be a few ms behind the write: 404 right after create is allowed here.
    check(detail, { 'detail is 200 or not yet replicated': (r) => r.status === 200 || r.status === 404 });
  }
  sleep(0.2);
}

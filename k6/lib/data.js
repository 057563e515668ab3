// The run's inputs, loaded once and shared by all VUs (SharedArray): accounts, query words by
// document-frequency class, live post ids. infra/bench/load_prepare.py writes them before the run.
import { SharedArray } from 'k6/data';
import { DATA_DIR } from './config.js';

export const accounts = new SharedArray('accounts', () => JSON.parse(open(`${DATA_DIR}/accounts.json`)));

const queryFile = new SharedArray('queries', () => [JSON.parse(open(`${DATA_DIR}/queries.json`))]);
export const CLASSES = ['rare', 'medium', 'high'];
export const queries = {};
for (const c of CLASSES) {
  queries[c] = new SharedArray(`queries-${c}`, () => JSON.parse(open(`${DATA_DIR}/queries.json`)).classes[c]);
}
export const pagesMeasured = queryFile[0].pages;

// Pages made by the seed's generator (PAGES=corpus): what a create sends instead of query words.
export const corpusPages = new SharedArray('pages', () => JSON.parse(open(`${DATA_DIR}/pages.json`)));

export const postIds = new SharedArray('post-ids', () => JSON.parse(open(`${DATA_DIR}/targets.json`)).ids);

export function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

export function between(lo, hi) {
  return lo + Math.floor(Math.random() * (hi - lo + 1));
}

// A query word: the class first (equal thirds), then a word of that class.
export function queryWord() {
  const cls = CLASSES[Math.floor(Math.random() * CLASSES.length)];
  return { cls, word: pick(queries[cls]) };
}

// Detail / like targets: 30% of reads go to the 100 "hot" pages of the sample, the rest spread
// over all of it (a cacheable head and a long tail, like real traffic).
export function postId() {
  if (Math.random() < 0.3) return postIds[Math.floor(Math.random() * Math.min(100, postIds.length))];
  return pick(postIds);
}

const ALL_WORDS = [];
export function anyWord() {
  if (ALL_WORDS.length === 0) for (const c of CLASSES) for (let i = 0; i < queries[c].length; i++) ALL_WORDS.push(queries[c][i]);
  return pick(ALL_WORDS);
}

// A page body of n sentences made of query words (so new pages are findable by the same words).
export function body(sentences) {
  const lines = [];
  for (let i = 0; i < sentences; i++) {
    lines.push(`${anyWord()} ${anyWord()} ${anyWord()}에 관한 ${i + 1}번째 문장입니다.`);
  }
  return lines.join('\n');
}

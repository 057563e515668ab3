// The load suite's one entry point: PROFILE (smoke|load|stress|soak|spike|breakpoint|overload) and
// MIX (community|wiki) choose what runs. Run it with `make load PROFILE=... [MIX=] [RATE=]
// [DURATION=] [VUS=]`, which provisions accounts and the query list first and writes the
// report (docs/bench/load/README.md).
import { sleep } from 'k6';
import { MIX, PROFILE } from './lib/config.js';
import { COMMUNITY_ENDPOINTS, communityRequest } from './lib/community.js';
import { WIKI_ENDPOINTS, loginFlow, wikiRequest } from './lib/wiki.js';
import { scenariosFor, thinkRange, thresholdsFor } from './lib/profiles.js';

if (!['community', 'wiki'].includes(MIX)) throw new Error(`unknown MIX=${MIX}: community or wiki`);
const endpoints = MIX === 'wiki' ? WIKI_ENDPOINTS : COMMUNITY_ENDPOINTS;
const requestOf = MIX === 'wiki' ? wikiRequest : communityRequest;
const [thinkMin, thinkMax] = thinkRange(PROFILE);

export const options = {
  scenarios: scenariosFor(PROFILE, MIX),
  thresholds: thresholdsFor(PROFILE, endpoints.concat(['login-refresh'])),
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'],
  // Only the tags the report reads: smaller samples, smaller CSV.
  systemTags: ['status', 'method', 'name', 'scenario', 'expected_response', 'error_code'],
  tags: { profile: PROFILE, mix: MIX },
  setupTimeout: '60s',
};

// Closed model: a user makes one request, then thinks.
export function closedIteration() {
  requestOf();
  sleep(thinkMin + Math.random() * (thinkMax - thinkMin));
}

// Open model: one request per arrival, no think time (the arrival rate is the load).
export function openIteration() {
  requestOf();
}

export function loginIteration() {
  loginFlow();
}

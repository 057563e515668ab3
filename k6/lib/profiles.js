// The profiles: how many users, in which model, for how long, and what must hold.
//   smoke       5 VUs for 30 s, short think time; every check passes, no error, p95 < 500 ms
//   load        closed model: 0 -> VUS (100) in 30 s, DURATION (10m) there, 1-3 s think time;
//               with RATE: open model at RATE requests/s for DURATION
//   stress      closed model in four steps up to VUS (400), DURATION (8m) in all
//   soak        VUS (50) for DURATION (4h), 1-3 s think time
//   spike       10 VUs, then 0 -> VUS (400) in 10 s, DURATION (1m) there, back in 10 s, 1 min of recovery
//   breakpoint  open model: arrival rate ramping from START (10) to RATE (1500) requests/s over
//               DURATION (10m); aborts once p95 > 100 ms or errors > 0.1% (the report finds the
//               last good rate in the time series)
//   overload    open model: RATE (default 600) requests/s for DURATION (2m), meant at twice the
//               breakpoint (make bench-overload): a shed request (503 OVERLOADED with Retry-After)
//               is a correct answer; admitted requests keep p95 < 100 ms, no request takes 1 s
import { num, str } from './config.js';

const READ_P95 = 100; // ms: the product's target for reads (issue 14)
const WRITE_P95 = 300;

export function thinkRange(profile) {
  if (str('THINK', '') !== '') {
    const [lo, hi] = str('THINK', '').split('-').map(Number);
    return [lo, hi === undefined ? lo : hi];
  }
  return profile === 'smoke' ? [0.1, 0.3] : [1, 3];
}

function closed(stages, exec) {
  return { executor: 'ramping-vus', startVUs: 0, stages, gracefulRampDown: '10s', exec };
}

function open(rate, duration, exec) {
  return {
    executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration, exec,
    preAllocatedVUs: Math.min(num('MAX_VUS', 1000), Math.max(20, Math.ceil(rate / 5))), maxVUs: num('MAX_VUS', 1000),
  };
}

export function isOpenModel(profile) {
  return profile === 'breakpoint' || profile === 'overload' || (['load', 'stress', 'soak'].includes(profile) && num('RATE', 0) > 0);
}

export function scenariosFor(profile, mix) {
  const exec = isOpenModel(profile) ? 'openIteration' : 'closedIteration';
  const rate = num('RATE', 0);
  let main;
  switch (profile) {
    case 'smoke':
      main = { executor: 'constant-vus', vus: num('VUS', 5), duration: str('DURATION', '30s'), exec };
      break;
    case 'load':
      main = rate > 0 ? open(rate, str('DURATION', '10m'), exec)
        : closed([{ duration: '30s', target: num('VUS', 100) }, { duration: str('DURATION', '10m'), target: num('VUS', 100) },
          { duration: '30s', target: 0 }], exec);
      break;
    case 'stress': {
      const top = num('VUS', 400);
      const total = seconds(str('DURATION', '8m'));
      const step = `${Math.max(4, Math.round(total / 8))}s`;
      main = closed([1, 2, 3, 4].flatMap((k) => [{ duration: step, target: Math.round((top * k) / 4) }, { duration: step, target: Math.round((top * k) / 4) }]), exec);
      if (rate > 0) {
        main = { executor: 'ramping-arrival-rate', startRate: Math.round(rate / 4), timeUnit: '1s', exec,
          preAllocatedVUs: 50, maxVUs: num('MAX_VUS', 1000),
          stages: [1, 2, 3, 4].flatMap((k) => [{ duration: step, target: Math.round((rate * k) / 4) }, { duration: step, target: Math.round((rate * k) / 4) }]) };
      }
      break;
    }
    case 'soak':
      main = rate > 0 ? open(rate, str('DURATION', '4h'), exec)
        : { executor: 'constant-vus', vus: num('VUS', 50), duration: str('DURATION', '4h'), exec };
      break;
    case 'spike': {
      const top = num('VUS', 400);
      main = closed([{ duration: '30s', target: 10 }, { duration: '10s', target: top }, { duration: str('DURATION', '1m'), target: top },
        { duration: '10s', target: 10 }, { duration: '1m', target: 10 }, { duration: '5s', target: 0 }], exec);
      break;
    }
    case 'breakpoint':
      main = {
        executor: 'ramping-arrival-rate', startRate: num('START', 10), timeUnit: '1s', exec,
        preAllocatedVUs: 50, maxVUs: num('MAX_VUS', 1000),
        stages: [{ duration: str('DURATION', '10m'), target: rate > 0 ? rate : 1500 }],
      };
      break;
    case 'overload':
      main = open(rate > 0 ? rate : 600, str('DURATION', '2m'), exec);
      break;
    default:
      throw new Error(`unknown PROFILE=${profile}: smoke, load, stress, soak, spike, breakpoint or overload`);
  }
  const scenarios = { [mix]: main };
  if (mix === 'wiki' && num('LOGIN_RATE', 0.5) > 0) {
    // Logins through nginx, under its limit of 1/s per address (the whole load comes from one).
    scenarios.logins = {
      executor: 'constant-arrival-rate', rate: Math.round(num('LOGIN_RATE', 0.5) * 60), timeUnit: '1m',
      duration: durationOf(main), preAllocatedVUs: 2, maxVUs: 5, exec: 'loginIteration',
    };
  }
  return scenarios;
}

export function seconds(d) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(d);
  if (!m) throw new Error(`bad duration ${d} (e.g. 30s, 10m, 4h)`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[m[2]];
}

function durationOf(s) {
  if (s.duration) return s.duration;
  return `${Math.round(s.stages.reduce((t, st) => t + seconds(st.duration), 0))}s`;
}

// Per-endpoint thresholds. Every endpoint gets a p95 and an error-rate threshold (which also
// puts its own p50/p95/p99 and counts into the summary JSON).
export function thresholdsFor(profile, endpoints) {
  const t = {};
  if (profile === 'breakpoint') {
    // Cumulative over the run; the report reads the windowed series for the breaking point.
    t.http_req_duration = [{ threshold: `p(95)<${READ_P95}`, abortOnFail: true, delayAbortEval: '30s' }];
    t.http_req_failed = [{ threshold: 'rate<0.001', abortOnFail: true, delayAbortEval: '30s' }];
  } else if (profile === 'overload') {
    // Shed requests are correct answers here (k6/lib/api.js counts them apart): what must hold
    // is the latency of the admitted ones, that nobody waits a second, and that nothing else fails.
    t.overload_admitted_duration = [`p(95)<${READ_P95}`];
    t.http_req_duration = ['max<1000'];
    t.overload_unexpected = ['rate<0.001'];
    t.checks = ['rate>0.999'];
    for (const e of endpoints) {
      t[`overload_admitted_duration{endpoint:${e}}`] = ['p(95)>=0'];
      t[`overload_shed{endpoint:${e}}`] = ['rate>=0'];
      t[`http_reqs{endpoint:${e}}`] = ['count>=0'];
    }
    return t;
  } else if (profile === 'smoke') {
    t.checks = ['rate==1.0'];
    t.http_req_failed = ['rate==0'];
    t.http_req_duration = ['p(95)<500'];
  } else {
    t.http_req_failed = ['rate<0.001'];
    t.http_req_duration = [`p(95)<${READ_P95}`];
  }
  for (const e of endpoints) {
    const write = ['create', 'like', 'edit', 'edit-conflict', 'login', 'login-refresh'].includes(e);
    const limit = profile === 'smoke' ? 500 : write ? WRITE_P95 : READ_P95;
    t[`http_req_duration{endpoint:${e}}`] = [`p(95)<${limit}`];
    t[`http_req_failed{endpoint:${e}}`] = [profile === 'smoke' ? 'rate==0' : 'rate<0.001'];
    t[`http_reqs{endpoint:${e}}`] = ['count>=0'];
  }
  return t;
}

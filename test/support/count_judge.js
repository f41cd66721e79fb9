'use strict';
// Preloaded (node -r) into a process under test: counts the calls of the judge's two entry points
// (perf/lib/judge/judged.js judgeResults, perf/lib/judge/verdicts.js analyzeRuns) and writes them
// to JUDGE_CALLS_FILE at exit. Loaded first, and verdicts.js before judged.js, so that every
// module taking them from their module (judged.js included) takes the counting ones.

const fs = require('node:fs');

const calls = { judgeResults: 0, analyzeRuns: 0 };
function counted(mod, name) {
  const original = mod[name];
  mod[name] = (...args) => {
    calls[name] += 1;
    return original(...args);
  };
}
counted(require('../../perf/lib/judge/verdicts'), 'analyzeRuns');
counted(require('../../perf/lib/judge/judged'), 'judgeResults');
process.on('exit', () => fs.writeFileSync(process.env.JUDGE_CALLS_FILE, JSON.stringify(calls)));

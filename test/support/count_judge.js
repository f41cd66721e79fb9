'use strict';
// Preloaded (node -r) into a process under test: counts the calls of the judge's two entry points
// (perf/lib/judge/judged.js judgeResults, perf/lib/judge/verdicts.js analyzeRuns) and of the
// verdict rule's (perf/lib/rule/compare.js compareServers: the judge's analyzeRuns and the paired
// rounds' looks), and writes them to JUDGE_CALLS_FILE at exit. Loaded first, each module before
// those that take from it, so that every module taking them (judged.js included) takes the
// counting ones.

const fs = require('node:fs');

const calls = { judgeResults: 0, analyzeRuns: 0, compareServers: 0 };
function counted(mod, name) {
  const original = mod[name];
  mod[name] = (...args) => {
    calls[name] += 1;
    return original(...args);
  };
}
counted(require('../../perf/lib/rule/compare'), 'compareServers');
counted(require('../../perf/lib/judge/verdicts'), 'analyzeRuns');
counted(require('../../perf/lib/judge/judged'), 'judgeResults');
process.on('exit', () => fs.writeFileSync(process.env.JUDGE_CALLS_FILE, JSON.stringify(calls)));

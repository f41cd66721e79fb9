'use strict';
// The headline questions (perf/questions.json), read here once: the few comparisons the
// README's findings are about, each mapped to the scenario (perf/scenarios/) or ramp
// (perf/ramps/) and the metric that answers it. A quick run measures exactly their subjects, in
// the order that decides the most per second its budget buys (quickSelection); its terminal
// answers them a line each (perf/lib/text/questions.js); the archive pools them into README.md
// (perf/lib/studies/archive.js).

const QUESTIONS_FILE = require('../../questions.json');

// The chance that one run decides a question, before any archived run says otherwise.
const PRIOR_DECIDES = 0.5;

/** { questions, pairs } of perf/questions.json. */
function headline() {
  return { questions: QUESTIONS_FILE.questions, pairs: QUESTIONS_FILE.pairs };
}

/**
 * The subjects the questions name, each once, in the order they first appear: [{ name, kind
 * ('scenario' | 'ramp'), questions }]. rampNames: the names of perf/ramps/ (a subject not
 * among them is a scenario).
 */
function subjectsOf(questions, rampNames) {
  const subjects = [];
  for (const q of questions) {
    let s = subjects.find((x) => x.name === q.subject);
    if (!s) subjects.push((s = { name: q.subject, kind: rampNames.includes(q.subject) ? 'ramp' : 'scenario', questions: [] }));
    s.questions.push(q);
  }
  return subjects;
}

/**
 * What a quick run measures within budgetS seconds: the subjects ranked by the questions they
 * likely decide per second (decides(question): the chance one run decides it, PRIOR_DECIDES
 * where nothing says; costS(subject): its estimated seconds), then taken greedily while they
 * fit, the first always (nothing measured is no answer). { chosen, left, spentS }, each subject
 * with its costS and decides.
 */
function quickSelection(subjects, { budgetS, costS, decides = () => PRIOR_DECIDES }) {
  const ranked = subjects
    .map((s) => ({ ...s, costS: costS(s), decides: s.questions.reduce((t, q) => t + decides(q), 0) }))
    .sort((x, y) => y.decides / y.costS - x.decides / x.costS);
  const chosen = [];
  const left = [];
  let spentS = 0;
  for (const s of ranked) {
    if (!chosen.length || spentS + s.costS <= budgetS) {
      chosen.push(s);
      spentS += s.costS;
    } else {
      left.push(s);
    }
  }
  return { chosen, left, spentS };
}

module.exports = { headline, subjectsOf, quickSelection, PRIOR_DECIDES };

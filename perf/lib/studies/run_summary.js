'use strict';
// What a finished run leaves beside its results.json for a person: the summaries (summary.txt,
// .md, .csv) and the terminal's answers, from the written document judged once
// (perf/lib/judge/judged.js). The run CLI's reader: the report and the archive take the same
// judged results from it, rather than judging the run again.

const path = require('node:path');
const { judgeResults } = require('../judge/judged');
const { toMarkdown, toCsv, toText } = require('../text/summary');
const { terminalText } = require('../text/answers');
const { writeFileAtomic, WriteError } = require('../store/results_store');

/**
 * Judges a finished run's written document (runScenarios' `decoded`) once and writes its
 * summaries into its folder. spreadOf: (judged results) => the archive's between-run spread of
 * their answers (perf/lib/studies/archive.js betweenRunSpread), or null. Returns { results (the
 * judged results), summaryText (the terminal's answers), unwritten: [{ name, message }] }.
 */
function summarizeRun(decoded, { spreadOf = null } = {}) {
  const results = judgeResults(decoded);
  const unwritten = [];
  const files = { 'summary.txt': toText(results), 'summary.md': toMarkdown(results), 'summary.csv': toCsv(results) };
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(decoded.dir, name);
    try {
      writeFileAtomic(file, text);
    } catch (err) {
      unwritten.push({ name, message: new WriteError(`write ${file}`, err).message });
    }
  }
  return { results, summaryText: terminalText(results, { spreadOf: spreadOf ? spreadOf(results) : null }), unwritten };
}

module.exports = { summarizeRun };

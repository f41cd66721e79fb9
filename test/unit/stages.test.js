'use strict';
// The rules between perf/lib's stages (one document between stages, the judge decides once,
// words live in text/), read from the source:
//   plan/ requires nothing from judge/: what plan, run and judge share is the method's
//     (perf/lib/method.js);
//   run/ calls back to plan/ only where a moment of the run asks (at most MAX_RUN_TO_PLAN_CALLS
//     call sites): what the plan knows beforehand, it gives as data;
//   run/ requires nothing from judge/: a sequential design stops where its verdict rule decides,
//     so the paired rounds' looks (run/rounds.js) read the rule the judge reads (rule/), and
//     write nothing judged (results.json holds what was measured);
//   rule/ (the verdict rule) requires nothing from the stages that read it (plan, run, judge,
//     text, report, studies);
//   text/ imports no wording from judge/ or rule/: no name it takes from there is a phrase,
//     holds one or is a function that builds one;
//   judge/ and rule/ build no sentence: none of their string or template literals holds a
//     phrase, outside comments and the messages of errors they throw for a caller's mistake.
// A phrase: three or more words (letters, digits, ' and -, starting with a letter) in a row,
// one space apart, in the literal's text; a template's placeholders end a phrase. "p99 latency"
// is a label; "requests per second" already says something. A finding fails with where it is.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
// The parser eslint reads the project with (eslint is a devDependency).
const espree = require('espree');

const LIB = path.join(__dirname, '..', '..', 'perf', 'lib');
const PHRASE = /[A-Za-z][\w'’-]*(?: [A-Za-z0-9][\w'’-]*){2,}/;

const stageFiles = (stage) =>
  fs
    .readdirSync(path.join(LIB, stage))
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.join(stage, f));

const parse = (source) => espree.parse(source, { ecmaVersion: 'latest', sourceType: 'script', loc: true });
const sourceOf = (file) => fs.readFileSync(path.join(LIB, file), 'utf8');

/** Calls visit(node, ancestors) on every node of the tree, the nearest ancestor last. */
function walk(node, visit, ancestors = []) {
  visit(node, ancestors);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc') continue;
    for (const child of [].concat(value)) if (child && typeof child.type === 'string') walk(child, visit, [...ancestors, node]);
  }
}

/** The modules of perf/lib a file requires (relative to perf/lib), with the names it takes from each ({ names: null } for the whole module). */
function requiresOf(file) {
  const found = [];
  walk(parse(sourceOf(file)), (node, ancestors) => {
    if (node.type !== 'CallExpression' || node.callee.name !== 'require' || !node.arguments[0] || typeof node.arguments[0].value !== 'string') return;
    const spec = node.arguments[0].value;
    if (!spec.startsWith('.')) return;
    const target = path.relative(LIB, path.resolve(LIB, path.dirname(file), spec));
    const parent = ancestors[ancestors.length - 1];
    const names = parent && parent.type === 'VariableDeclarator' && parent.id.type === 'ObjectPattern' ? parent.id.properties.map((p) => p.key.name) : null;
    found.push({ target, names });
  });
  return found;
}

/** The text of a string or template literal, placeholders as a lone "·" (a phrase ends there). */
const literalText = (node) => (node.type === 'TemplateLiteral' ? node.quasis.map((q) => q.value.cooked).join(' · ') : node.value);

/** Whether a node is (inside) the message of an error the code throws: new Error(...), new TypeError(...). */
const inErrorMessage = (ancestors) => ancestors.some((a) => a.type === 'NewExpression' && /Error$/.test(a.callee.name || ''));

/** The phrases in a piece of code's string and template literals, outside error messages: [{ line, text }]. */
function phrasesIn(source) {
  const found = [];
  walk(parse(source), (node, ancestors) => {
    if (!((node.type === 'Literal' && typeof node.value === 'string') || node.type === 'TemplateLiteral') || inErrorMessage(ancestors)) return;
    const m = PHRASE.exec(literalText(node));
    if (m) found.push({ line: node.loc.start.line, text: m[0] });
  });
  return found;
}

/** Whether a value is wording: a phrase, an object or array holding one, or a function whose source builds one. */
function isWording(value, seen = new Set()) {
  if (typeof value === 'string') return PHRASE.test(value);
  if (typeof value === 'function') return phrasesIn(`(${value.toString()})`).length > 0;
  if (value && typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    return Object.values(value).some((v) => isWording(v, seen));
  }
  return false;
}

/**
 * The calls a stage's files make to functions they take from another stage (require with named
 * names, then called by that name): ['run/ramp.js → plan/ramps stepScenario', …], one a call site.
 */
function callsInto(stage, into) {
  const found = [];
  for (const file of stageFiles(stage)) {
    const taken = new Map();
    for (const { target, names } of requiresOf(file)) if (target.startsWith(`${into}/`)) for (const name of names || []) taken.set(name, target);
    walk(parse(sourceOf(file)), (node) => {
      if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && taken.has(node.callee.name)) found.push(`${file} → ${taken.get(node.callee.name).replace(/\.js$/, '')} ${node.callee.name}`);
    });
  }
  return found;
}

// The runner calls back to the plan where it needs what only a moment of the run knows (a ramp's
// step at the rate it reached, the held count a search asks for, the plan again once runtimes
// or backends changed what can run); what the plan knows beforehand it gives as data (its
// scenarios, estimates, calibration), so that a run's options flow one way, plan to run.
const MAX_RUN_TO_PLAN_CALLS = 16;
const runToPlan = callsInto('run', 'plan');

describe('stages: the rules between perf/lib\'s stages', () => {
  it(`run/ calls back to plan/ at ${runToPlan.length} call sites, at most ${MAX_RUN_TO_PLAN_CALLS}`, () => {
    assert.ok(runToPlan.length <= MAX_RUN_TO_PLAN_CALLS, `${runToPlan.length} calls:\n${runToPlan.join('\n')}`);
  });

  it('plan/ requires nothing from judge/', () => {
    const found = stageFiles('plan').flatMap((file) => requiresOf(file).filter((r) => r.target.startsWith('judge/')).map((r) => `${file} → ${r.target}`));
    assert.deepEqual(found, []);
  });

  it('run/ requires nothing from judge/', () => {
    const found = stageFiles('run').flatMap((file) => requiresOf(file).filter((r) => r.target.startsWith('judge/')).map((r) => `${file} → ${r.target}`));
    assert.deepEqual(found, []);
  });

  it('rule/ requires nothing from the stages that read it', () => {
    const readers = ['plan/', 'run/', 'judge/', 'text/', 'report/', 'studies/'];
    const found = stageFiles('rule').flatMap((file) => requiresOf(file).filter((r) => readers.some((stage) => r.target.startsWith(stage))).map((r) => `${file} → ${r.target}`));
    assert.deepEqual(found, []);
  });

  it('text/ imports no wording from judge/ or rule/: no name it takes from there is a phrase, holds one or builds one', () => {
    const found = [];
    for (const file of stageFiles('text')) {
      for (const { target, names } of requiresOf(file).filter((r) => r.target.startsWith('judge/') || r.target.startsWith('rule/'))) {
        const exported = require(path.join(LIB, target));
        for (const name of names || Object.keys(exported)) if (isWording(exported[name])) found.push(`${file} ← ${target} ${name}`);
      }
    }
    assert.deepEqual(found.sort(), []);
  });

  it('judge/ and rule/ build no sentence: no phrase in their string and template literals, outside comments and error messages', () => {
    const found = ['judge', 'rule'].flatMap(stageFiles).flatMap((file) => phrasesIn(sourceOf(file)).map((p) => `${file}:${p.line} "${p.text}"`));
    assert.deepEqual(found, []);
  });

  it('the phrase rule: three words in a row make a phrase, a label or a placeholder between them does not', () => {
    const phrases = (code) => phrasesIn(code).map((p) => p.text);
    assert.deepEqual(phrases("const a = 'requests per second';"), ['requests per second']);
    assert.deepEqual(phrases("const a = 'p99 latency'; const b = 'not_run';"), []);
    assert.deepEqual(phrases('const a = `${n} of ${m} runs`;'), []);
    assert.deepEqual(phrases("throw new Error('a caller passed no runs');"), []);
    assert.deepEqual(phrases('// a comment of many words\nconst a = 1;'), []);
    assert.equal(isWording({ label: 'CPU', advice: 'run it again later' }), true);
    assert.equal(isWording((n) => `${n} runs`), false);
  });
});

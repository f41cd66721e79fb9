'use strict';
// The rules between perf/lib's stages (one document between stages, the judge decides once,
// words live in text/), read from the source:
//   plan/ requires nothing from judge/: what plan, run and judge share is the method's
//     (perf/lib/method.js);
//   run/ requires nothing from judge/ but the paired rounds' looks (run/rounds.js): a sequential
//     design stops where its verdict rule decides, so its looks judge the rounds so far with the
//     judge's own rule (their answers are not written: results.json holds what was measured);
//   text/ imports no wording from judge/: no name it takes from judge/ is a phrase, holds one
//     or is a function that builds one;
//   judge/ builds no sentence: none of its string or template literals holds a phrase, outside
//     comments and the messages of errors it throws for a caller's mistake.
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

describe('stages: the rules between perf/lib\'s stages', () => {
  it('plan/ requires nothing from judge/', () => {
    const found = stageFiles('plan').flatMap((file) => requiresOf(file).filter((r) => r.target.startsWith('judge/')).map((r) => `${file} → ${r.target}`));
    assert.deepEqual(found, []);
  });

  it('run/ requires nothing from judge/ but the paired rounds\' looks', () => {
    const found = stageFiles('run').flatMap((file) => requiresOf(file).filter((r) => r.target.startsWith('judge/')).map((r) => `${file} → ${r.target}`));
    assert.deepEqual(found.filter((f) => !f.startsWith('run/rounds.js → ')), []);
  });

  it('text/ imports no wording from judge/: no name it takes from there is a phrase, holds one or builds one', () => {
    const found = [];
    for (const file of stageFiles('text')) {
      for (const { target, names } of requiresOf(file).filter((r) => r.target.startsWith('judge/'))) {
        const exported = require(path.join(LIB, target));
        for (const name of names || Object.keys(exported)) if (isWording(exported[name])) found.push(`${file} ← ${target} ${name}`);
      }
    }
    assert.deepEqual(found.sort(), []);
  });

  it('judge/ builds no sentence: no phrase in its string and template literals, outside comments and error messages', () => {
    const found = stageFiles('judge').flatMap((file) => phrasesIn(sourceOf(file)).map((p) => `${file}:${p.line} "${p.text}"`));
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

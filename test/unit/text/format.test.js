'use strict';
// How every output writes a number, a factor, an interval, a change, a list of trials and a
// table (perf/lib/text/format.js), so that one figure reads the same wherever it is shown.

const assert = require('node:assert/strict');
const { calibrationWords, fmtNumber, fmtDuration, fmtFactor, fmtInterval, marginText, fmtChange, trialsLabel, alignedTable, markdownTable, csvField, csvLines, objectsToCsv } = require('../../../perf/lib/text/format');

describe('format: numbers', () => {
  it('a quantity in about three significant digits, whole ones with thousands separators', () => {
    assert.deepEqual([0.0052, 0.052, 0.5, 0.25, 3.414, 16.04, 99.94, 313.4, 18781.2, -2.5, 0].map((v) => fmtNumber(v, 'ms')),
      ['0.0052', '0.052', '0.5', '0.25', '3.41', '16.0', '99.9', '313', '18,781', '-2.50', '0']);
  });

  it('counts and rates whole, with thousands separators, whatever their size', () => {
    assert.deepEqual([fmtNumber(18780.6, 'req/s'), fmtNumber(3.4, 'req/s'), fmtNumber(1234567, 'count'), fmtNumber(0.4, 'count')], ['18,781', '3', '1,234,567', '0']);
  });

  it('a dash where there is no number', () => {
    for (const v of [null, undefined, Number.NaN, Infinity, -Infinity]) assert.equal(fmtNumber(v, 'ms'), '–', String(v));
  });
});

describe('format: durations', () => {
  it('seconds under a minute, minutes and seconds under an hour, then hours and minutes; at least 1 s', () => {
    assert.deepEqual([0.2, 75, 60, 3720, 7200].map(fmtDuration), ['1 s', '1 min 15 s', '1 min', '1 h 2 min', '2 h']);
  });
});

describe('format: factors, intervals and changes', () => {
  it('a factor: two decimals below 10 (a trailing 0 dropped), one below 100, whole above', () => {
    assert.deepEqual([2.414, 2.5, 1, 1.004, 47.83, 130.4].map(fmtFactor), ['2.41×', '2.5×', '1.0×', '1.0×', '47.8×', '130×']);
    assert.equal(fmtFactor(null), '–');
    assert.equal(fmtFactor(Number.NaN), '–');
  });

  it('an interval of factors, to the same precision, or nothing', () => {
    assert.equal(fmtInterval([2.1, 2.774]), '[2.10–2.77]');
    assert.equal(marginText(0.1), '±10 %');
    assert.equal(marginText(0.125), '±12.5 %');
    assert.equal(fmtInterval([9.5, 47.83]), '[9.50–47.8]');
    assert.equal(fmtInterval([88, 130.4]), '[88.0–130]');
    assert.equal(fmtInterval(null), '');
  });

  it('a ratio as a change in percent: one decimal under 10 %, signed, never "-0.0%"', () => {
    assert.deepEqual([1.034, 0.5, 1, 1.25, 0.9999, 0.96, 2].map(fmtChange), ['+3.4%', '-50%', '+0.0%', '+25%', '0.0%', '-4.0%', '+100%']);
    assert.equal(fmtChange(null), '–');
    assert.equal(fmtChange(Infinity), '–');
  });
});

describe('format: trials', () => {
  it('" (trial 2)", a run of trials as a range, others listed; nothing for none or a one-trial run', () => {
    assert.equal(trialsLabel([2], 3), ' (trial 2)');
    assert.equal(trialsLabel([1, 2, 3], 3), ' (trials 1–3)');
    assert.equal(trialsLabel([1, 3], 3), ' (trials 1, 3)');
    assert.equal(trialsLabel([], 3), '');
    assert.equal(trialsLabel([1], 1), '');
  });
});

describe('format: tables', () => {
  const head = ['name', 'n'];
  const body = [['a', 1], ['longer', 1234]];

  it('aligned: each column as wide as its widest cell, left or right, two spaces apart, no trailing blanks', () => {
    assert.deepEqual(alignedTable(head, body, ['l', 'r']), ['name       n', 'a          1', 'longer  1234']);
    assert.deepEqual(alignedTable(['n', 'name'], [[1, 'a']], ['r', 'l']), ['n  name', '1  a']);
  });

  it('Markdown: a row per line, the alignment in the rule', () => {
    assert.deepEqual(markdownTable(head, body, ['l', 'r']), ['| name | n |', '| --- | ---: |', '| a | 1 |', '| longer | 1234 |']);
  });
});

describe('format: CSV', () => {
  it('a field is quoted only when it holds a quote, a comma or a line break; quotes doubled', () => {
    assert.deepEqual(['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', 3, true].map(csvField), ['plain', '"a,b"', '"say ""hi"""', '"two\nlines"', '"cr\r"', '3', 'true']);
  });

  it('nothing for null and undefined; an object as its JSON, quoted', () => {
    assert.deepEqual([null, undefined, 0, ''].map(csvField), ['', '', '0', '']);
    assert.equal(csvField({ a: 1, b: [2] }), '"{""a"":1,""b"":[2]}"');
  });

  it('lines of a header and rows, ending in a line break', () => {
    assert.equal(csvLines(['a', 'b'], [[1, 'x,y'], [null, 2]]), 'a,b\n1,"x,y"\n,2\n');
  });

  it('objects as rows: columns the union of their keys, in the order first seen', () => {
    assert.equal(objectsToCsv([{ a: 1, b: 2 }, { c: 3, a: 4 }]), 'a,b,c\n1,2,\n4,,3\n');
    assert.equal(objectsToCsv([]), '\n');
  });
});

describe('format: the host\'s calibration', () => {
  it('one value, or the range of several, in ms of CPU per request to four decimals', () => {
    assert.equal(calibrationWords([0.01234]), 'calibration 0.0123 ms CPU/req');
    assert.equal(calibrationWords([0.0131, 0.01234, 0.0125]), 'calibration 0.0123–0.0131 ms CPU/req');
    assert.equal(calibrationWords([0.0125, 0.0125]), 'calibration 0.0125 ms CPU/req');
  });
});

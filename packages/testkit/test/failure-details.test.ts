import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureDetails } from '../src/runner/failure-details.ts';

describe('the failure details printed again at the end of a run', () => {
  it("are the reporter's failing-tests section, with the error", () => {
    const output = [
      '▶ suite',
      '  ✔ passes',
      '  ✖ fails',
      'ℹ fail 1',
      '✖ failing tests:',
      '',
      'test at x.ts:3',
      'AssertionError: 1 !== 2',
    ].join('\n');
    const details = failureDetails(output);
    assert.ok(details.startsWith('✖ failing tests:'), details);
    assert.match(details, /AssertionError: 1 !== 2/);
    assert.doesNotMatch(details, /passes/);
  });

  it('are the last lines of a file that crashed before reporting, and stay short', () => {
    const output = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const details = failureDetails(output).split('\n');
    assert.equal(details.at(-1), 'line 499');
    assert.ok(details.length <= 60, String(details.length));
  });

  it('are cut at a length a log tail can hold', () => {
    const output = ['✖ failing tests:', ...Array.from({ length: 400 }, (_, i) => `detail ${i}`)].join('\n');
    const details = failureDetails(output).split('\n');
    assert.ok(details.length <= 151, String(details.length));
    assert.match(details.at(-1)!, /251 more lines/);
  });
});

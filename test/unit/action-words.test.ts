/** Action-name words (engine/blueprint/verbs.ts): the one-pass split gives what the regular-expression definition gives. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { actionWords } from '../../src/engine/blueprint/verbs.js';

/** The definition: a space before a capital after a lower-case letter or digit, `_` and `-` as spaces, lower-cased, split on white space. */
const reference = (action: string): string[] =>
  action
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]/g, ' ')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);

it('splits Make action names into lower-case words', () => {
  assert.deepEqual(actionWords('ActionCreateRecord'), ['action', 'create', 'record']);
  assert.deepEqual(actionWords('createACompletionGeminiPro'), ['create', 'acompletion', 'gemini', 'pro']);
  assert.deepEqual(actionWords('get_list-tasks2Now'), ['get', 'list', 'tasks2', 'now']);
});

it('equals the regular-expression definition on any name, ASCII or not', () => {
  const chars = fc.constantFrom(...'aZbY09_- \t\nxQ.é\u00a0İ');
  fc.assert(
    fc.property(
      fc.array(chars, { maxLength: 12 }).map((cs) => cs.join('')),
      (s) => assert.deepEqual(actionWords(s), reference(s)),
    ),
    { numRuns: 5000 },
  );
  fc.assert(fc.property(fc.string(), (s) => assert.deepEqual(actionWords(s), reference(s))));
});

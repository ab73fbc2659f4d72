// A failed point's reason quotes its load generator's log in one line: the tail, and a crash's own error
// line when the tail is only the end of a stack.
import { describe, expect, it } from 'vitest';
import { logExcerpt } from '../../orchestrator/agents/loadgen-agent.ts';

describe('logExcerpt', () => {
  it('puts a crash line and the line after it before the tail', () => {
    const crash = [
      'node:internal/assert/utils:281',
      '    throw err;',
      '    ^',
      '',
      'AssertionError [ERR_ASSERTION]: The expression evaluated to a falsy value:',
      '',
      '  assert(client[kSize] === 0)',
      '',
      '    at onError (file:///x/loadgen.mjs:9051:9)',
      "  operator: '=='",
      '}',
      '',
      'Node.js v20.20.2',
    ].join('\n');
    expect(logExcerpt(crash)).toBe(
      "AssertionError [ERR_ASSERTION]: The expression evaluated to a falsy value: | assert(client[kSize] === 0) | operator: '==' | } | Node.js v20.20.2",
    );
  });

  it('is the last lines alone without a crash, or says the log is empty', () => {
    expect(logExcerpt('a\nb\nc\nd\n')).toBe('b | c | d');
    expect(logExcerpt('  \n')).toBe('(empty log)');
    // An error line already in the tail is not repeated.
    expect(logExcerpt('x\nTypeError: bad\n')).toBe('x | TypeError: bad');
  });
});

// The /work reply (contract/work-reply.ts): the exact bytes the target sends, read back, and a malformed
// reply named; the transport's lenient reading of a foreign service's body.
import { describe, expect, it } from 'vitest';
import { formatWorkReply, parseWorkReply, serverMsOfReply, WorkReplyError } from '../../contract/index.ts';

describe('the /work reply', () => {
  const reply = { queueMs: 1.25, serviceMs: 10.5, worker: 3, intendedMs: 10.4 };

  it('is written byte for byte as the server has always sent it, and reads back', () => {
    const text = formatWorkReply(reply);
    expect(text).toBe('{"queueMs":1.25,"serviceMs":10.5,"worker":3,"intendedMs":10.4}');
    expect(JSON.parse(text)).toEqual(reply);
    expect(parseWorkReply(text)).toEqual(reply);
    expect(serverMsOfReply(text)).toBe(11.75);
  });

  it('a malformed reply gets a WorkReplyError naming the problem', () => {
    expect(() => parseWorkReply('<html>')).toThrow(WorkReplyError);
    expect(() => parseWorkReply('<html>')).toThrow(/not JSON/);
    expect(() => parseWorkReply('[1]')).toThrow(/must be a JSON object/);
    expect(() => parseWorkReply('{"queueMs":1,"serviceMs":"2","worker":0,"intendedMs":1}')).toThrow(
      /serviceMs must be a number, got "2"/,
    );
    expect(() => parseWorkReply('{"queueMs":1,"serviceMs":2,"worker":0}')).toThrow(
      /intendedMs must be a number, got nothing/,
    );
    expect(thrown(() => parseWorkReply('nope'))).toMatchObject({ code: 'HB_WORK_REPLY_INVALID' });
  });

  it('the server time of a foreign body: missing fields count 0, a body that is not JSON is NaN', () => {
    expect(serverMsOfReply('{}')).toBe(0);
    expect(serverMsOfReply('{"queueMs":2}')).toBe(2);
    expect(serverMsOfReply('ok')).toBeNaN();
  });
});

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

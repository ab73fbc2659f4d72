// The test-ordering switches: HEDGEBENCH_TEST_HOLD_AT=STEP[@N] gives exactly the N-th agent start of STEP
// the hold variable, and a held process waits until released (runtime/test-hold.ts); unset, nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { holdEnv } from '../../orchestrator/agents/fault-point.ts';
import { TEST_HOLD_ENV, testHold } from '../../runtime/index.ts';

afterEach(() => {
  delete process.env.HEDGEBENCH_TEST_HOLD_AT;
  delete process.env[TEST_HOLD_ENV];
});

describe('HEDGEBENCH_TEST_HOLD_AT', () => {
  it('holds only the N-th start of the named step', () => {
    process.env.HEDGEBENCH_TEST_HOLD_AT = 'agent-start:loadgen-t@2';
    expect(holdEnv('agent-start:target-t')).toBeNull();
    expect(holdEnv('agent-start:loadgen-t')).toBeNull();
    expect(holdEnv('agent-start:loadgen-t')).toEqual({ [TEST_HOLD_ENV]: '1' });
    expect(holdEnv('agent-start:loadgen-t')).toBeNull();
  });

  it('unset, holds nothing', () => {
    expect(holdEnv('agent-start:loadgen-u')).toBeNull();
  });
});

describe('testHold', () => {
  it('returns at once in a process not started held', async () => {
    await testHold(() => false);
  });

  it('in a held process, waits until released', async () => {
    process.env[TEST_HOLD_ENV] = '1';
    let released = false;
    let done = false;
    const held = testHold(() => released, 5).then(() => {
      done = true;
    });
    // Ordering, not time: a few polls go by without a release, and it is still waiting.
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 5));
    expect(done).toBe(false);
    released = true;
    await held;
    expect(done).toBe(true);
  });
});

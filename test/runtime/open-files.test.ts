// The open-file limit as /proc/self/limits gives it: the soft limit, "unlimited" as unknown.

import { describe, expect, it } from 'vitest';
import { openFilesLimit } from '../../runtime/index.ts';

const LIMITS = (soft: string, hard: string) =>
  `Limit                     Soft Limit           Hard Limit           Units     \n` +
  `Max processes             95457                95457                processes \n` +
  `Max open files            ${soft.padEnd(20)} ${hard.padEnd(20)} files     \n`;

describe('openFilesLimit', () => {
  it('reads the soft limit, not the hard one', () => {
    expect(openFilesLimit(LIMITS('1024', '524288'))).toBe(1024);
  });
  it('gives null for unlimited or a text without the line', () => {
    expect(openFilesLimit(LIMITS('unlimited', 'unlimited'))).toBeNull();
    expect(openFilesLimit('Limit Soft Hard\n')).toBeNull();
  });
  it("reads this process's own limit on Linux", () => {
    if (process.platform !== 'linux') return;
    expect(openFilesLimit()).toBeGreaterThan(0);
  });
});

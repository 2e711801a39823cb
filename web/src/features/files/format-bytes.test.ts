import { describe, expect, it } from 'vitest';
import { FILE_SIZE_UNITS, formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it('shows zero, bad input and small counts in Bytes', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(-5)).toBe('0 Bytes');
    expect(formatBytes(Number.NaN)).toBe('0 Bytes');
    expect(formatBytes(1)).toBe('1 Bytes');
    expect(formatBytes(1023)).toBe('1023 Bytes');
  });

  it('steps by 1024 through every unit up to YB', () => {
    expect(FILE_SIZE_UNITS).toEqual(['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB']);
    FILE_SIZE_UNITS.forEach((unit, i) => {
      expect(formatBytes(1024 ** i)).toBe(`1 ${unit}`);
    });
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1000)).toBe('1000 Bytes');
  });

  it('keeps up to two decimals, trailing zeros dropped', () => {
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1234567)).toBe('1.18 MB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB');
    expect(formatBytes(1234567, 0)).toBe('1 MB');
    expect(formatBytes(1234567, 3)).toBe('1.177 MB');
  });

  it('moves up a unit when rounding reaches 1024', () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe('1 MB');
    expect(formatBytes(1024 ** 3 - 1)).toBe('1 GB');
  });

  it('stays in YB beyond it', () => {
    expect(formatBytes(2 * 1024 ** 8)).toBe('2 YB');
    expect(formatBytes(2048 * 1024 ** 8)).toBe('2048 YB');
  });
});

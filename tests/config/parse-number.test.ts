import { describe, expect, it } from 'vitest';
import { parsePositiveDecimal, parsePositiveInt, parseTokenCount } from '../../config/parse-number.js';

const NOT_WHOLE = ['0', '-1', '1.5', '1e3', '+3', '0x10', '10abc', '010', ' 5', '', '1_000', 'Infinity', 'NaN'];

describe('parsePositiveInt', () => {
  it('reads plain whole numbers', () => {
    expect(parsePositiveInt('50')).toEqual({ ok: true, value: 50 });
  });
  it.each(NOT_WHOLE)('rejects %j', (text) => {
    expect(parsePositiveInt(text).ok).toBe(false);
  });
  it('rejects numbers beyond the safe range', () => {
    expect(parsePositiveInt('9007199254740993').ok).toBe(false);
  });
});

describe('parseTokenCount', () => {
  it.each([['500000', 500_000], ['500k', 500_000], ['2M', 2_000_000], ['1.5M', 1_500_000], ['3K', 3_000]])('%s = %i', (text, value) => {
    expect(parseTokenCount(text)).toEqual({ ok: true, value });
  });
  it.each([...NOT_WHOLE, '5m', '0k', '0.0001k', '1.5', 'M', '2MB'])('rejects %j', (text) => {
    expect(parseTokenCount(text).ok).toBe(false);
  });
});

describe('parsePositiveDecimal', () => {
  it.each([['2.50', 2.5], ['90', 90], ['0.5', 0.5]])('%s = %d', (text, value) => {
    expect(parsePositiveDecimal(text, 'minutes', '90')).toEqual({ ok: true, value });
  });
  it.each(['0', '0.00', '-3', '.5', '5.', '1e2', '$5', '+1', '5min'])('rejects %j', (text) => {
    expect(parsePositiveDecimal(text, 'minutes', '90').ok).toBe(false);
  });
});

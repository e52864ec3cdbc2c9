// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { formatBytes, formatDateTime, formatDuration, formatSpeed, sizeOf } from './format'

describe('drive formats', () => {
  // Regression (issue 10): sizes counted by 1024 were labelled kB/MB/GB, the symbols of 1000.
  it('sizes step by 1024 with the binary symbols, one decimal below 100 units, the number in the locale', () => {
    const nbsp = (text: string) => text.replace(/ /g, '\u00a0')
    expect(formatBytes(0, 'en-US')).toBe(nbsp('0 B'))
    expect(formatBytes(9, 'en-US')).toBe(nbsp('9 B'))
    expect(formatBytes(1023, 'en-US')).toBe(nbsp('1,023 B'))
    expect(formatBytes(1536, 'en-US')).toBe(nbsp('1.5 KiB'))
    expect(formatBytes(150 * 1024 ** 2, 'en-US')).toBe(nbsp('150 MiB'))
    expect(formatBytes(38.1 * 1024 ** 2, 'en-US')).toBe(nbsp('38.1 MiB'))
    expect(formatBytes(10 * 1024 ** 3, 'en-US')).toBe(nbsp('10 GiB'))
    expect(formatBytes(10 * 1024 ** 4, 'en-US')).toBe(nbsp('10 TiB'))
    // Just under a unit rounds up into it, never "1,024 KiB".
    expect(formatBytes(1024 ** 2 - 100, 'en-US')).toBe(nbsp('1 MiB'))
    expect(formatBytes(-5, 'en-US')).toBe(nbsp('0 B'))
    // The number follows the locale; the symbol is the same in every language.
    expect(formatBytes(1536, 'id')).toBe(nbsp('1,5 KiB'))
    expect(formatBytes(1536, 'ms')).toBe(nbsp('1.5 KiB'))
    expect(formatBytes(1536, 'ko')).toBe(nbsp('1.5 KiB'))
    expect(formatBytes(1234 * 1024 ** 3, 'id')).toBe(nbsp('1,2 TiB'))
  })

  it('speeds and remaining time', () => {
    expect(formatSpeed(2 * 1024 ** 2, 'en-US')).toBe('2\u00a0MiB/s')
    expect(formatSpeed(1536, 'id')).toBe('1,5\u00a0KiB/s')
    expect(formatDuration(65, 'en-US')).toBe('1 min 5 sec')
    expect(formatDuration(3 * 3600 + 120, 'en-US')).toBe('3 hr 2 min')
    expect(formatDuration(0.2, 'en-US')).toBe('1 sec')
    expect(formatDuration(Number.NaN, 'en-US')).toBe('')
  })

  it('times: empty or unreadable ones are blank', () => {
    expect(formatDateTime('', 'en-US')).toBe('')
    expect(formatDateTime('not a time', 'en-US')).toBe('')
    expect(formatDateTime('2026-01-02T03:04:05Z', 'en-US')).toMatch(/2026/)
  })

  it('wire sizes are strings; anything unreadable is 0', () => {
    expect(sizeOf({ size: '1048576' })).toBe(1048576)
    expect(sizeOf({ size: '' })).toBe(0)
    expect(sizeOf({ size: 'x' })).toBe(0)
  })
})

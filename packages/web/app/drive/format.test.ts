// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { formatBytes, formatDateTime, formatDuration, formatSpeed, sizeOf } from './format'

describe('drive formats', () => {
  it('sizes step by 1024 with one decimal below 100 units, bytes written out', () => {
    expect(formatBytes(0, 'en-US')).toBe('0 bytes')
    expect(formatBytes(512, 'en-US')).toBe('512 bytes')
    expect(formatBytes(1536, 'en-US')).toBe('1.5 kB')
    expect(formatBytes(150 * 1024 ** 2, 'en-US')).toBe('150 MB')
    expect(formatBytes(10 * 1024 ** 3, 'en-US')).toBe('10 GB')
    expect(formatBytes(1536, 'id')).toBe('1,5 kB')
    expect(formatBytes(-5, 'en-US')).toBe('0 bytes')
  })

  it('speeds and remaining time', () => {
    expect(formatSpeed(2 * 1024 ** 2, 'en-US')).toBe('2 MB/s')
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

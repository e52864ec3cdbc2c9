/**
 * Sizes, speeds and times as the drive shows them, in the page's locale (Intl does the units and
 * digits, so no unit text needs translating). Sizes step by 1024, the way file managers and the
 * commercial client count.
 */
const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const

const numberFormats = new Map<string, Intl.NumberFormat>()

function unitFormat(locale: string, unit: string, fractionDigits: number, display: 'short' | 'long' = 'short'): Intl.NumberFormat {
  const key = `${locale}|${unit}|${fractionDigits}|${display}`
  let format = numberFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: display, maximumFractionDigits: fractionDigits })
    numberFormats.set(key, format)
  }
  return format
}

/**
 * `1536` -> `1.5 kB` (en-US). Whole bytes below 1 KiB, written out (`512 bytes`: the short form
 * of the byte unit reads oddly in several locales); one decimal below 100 of a unit.
 */
export function formatBytes(bytes: number, locale: string): string {
  const value = Number.isFinite(bytes) && bytes > 0 ? bytes : 0
  let step = 0
  let scaled = value
  while (scaled >= 1024 && step < UNITS.length - 1) {
    scaled /= 1024
    step += 1
  }
  if (step === 0) return unitFormat(locale, 'byte', 0, 'long').format(scaled)
  return unitFormat(locale, UNITS[step]!, scaled >= 100 ? 0 : 1).format(scaled)
}

/** `2_097_152` -> `2 MB/s` (en-US). */
export function formatSpeed(bytesPerSecond: number, locale: string): string {
  const value = Number.isFinite(bytesPerSecond) && bytesPerSecond > 0 ? bytesPerSecond : 0
  let step = 0
  let scaled = value
  while (scaled >= 1024 && step < UNITS.length - 1) {
    scaled /= 1024
    step += 1
  }
  return unitFormat(locale, `${UNITS[step]!}-per-second`, step === 0 || scaled >= 100 ? 0 : 1).format(scaled)
}

/** Seconds left, rounded up, as `1 min, 5 sec`-like short text; '' when unknown. */
export function formatDuration(seconds: number, locale: string): string {
  if (!Number.isFinite(seconds) || seconds < 0) return ''
  const whole = Math.ceil(seconds)
  const hours = Math.floor(whole / 3600)
  const minutes = Math.floor((whole % 3600) / 60)
  const secs = whole % 60
  const parts: string[] = []
  if (hours > 0) parts.push(unitFormat(locale, 'hour', 0).format(hours))
  if (minutes > 0) parts.push(unitFormat(locale, 'minute', 0).format(minutes))
  if (hours === 0 && (secs > 0 || parts.length === 0)) parts.push(unitFormat(locale, 'second', 0).format(secs))
  return parts.join(' ')
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()

/** An RFC 3339 time as a medium date and short time; '' for an empty or unreadable one. */
export function formatDateTime(rfc3339: string, locale: string): string {
  if (!rfc3339) return ''
  const time = Date.parse(rfc3339)
  if (Number.isNaN(time)) return ''
  let format = dateFormats.get(locale)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
    dateFormats.set(locale, format)
  }
  return format.format(time)
}

/** A wire size (a decimal string, drive.md) as a number of bytes; 0 for anything unreadable. */
export function sizeOf(file: { size: string }): number {
  const value = Number(file.size)
  return Number.isFinite(value) && value > 0 ? value : 0
}

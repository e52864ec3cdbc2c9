/**
 * Sizes, speeds and times as the drive shows them, in the page's locale.
 *
 * Sizes: one rule everywhere (list, quota, upload panel, preview, toasts, archive listings).
 * They step by 1024, as the commercial drives count (a 10 GiB plan shows as 10, not 10.7), and
 * so they carry the binary symbols KiB, MiB, GiB, which mean exactly that (`kB` is 1000 bytes).
 * The symbols are the same in every language, as file managers show them; the number is the
 * locale's (`1,5 KiB` in Indonesian), joined to its symbol by a no-break space so it never wraps.
 */
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const

/** Between a number and its unit symbol: a space that never breaks the line. */
const NBSP = '\u00a0'

const numberFormats = new Map<string, Intl.NumberFormat>()

function numberFormat(locale: string, fractionDigits: number): Intl.NumberFormat {
  const key = `${locale}|${fractionDigits}`
  let format = numberFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: fractionDigits })
    numberFormats.set(key, format)
  }
  return format
}

function unitFormat(locale: string, unit: string, fractionDigits: number): Intl.NumberFormat {
  const key = `${locale}|${unit}|${fractionDigits}`
  let format = numberFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: fractionDigits })
    numberFormats.set(key, format)
  }
  return format
}

/**
 * `1536` -> `1.5 KiB` (en-US): whole bytes below 1 KiB (`512 B`), one decimal below 100 of a
 * unit, none above (`150 MiB`).
 */
export function formatBytes(bytes: number, locale: string): string {
  const value = Number.isFinite(bytes) && bytes > 0 ? bytes : 0
  let step = 0
  let scaled = value
  while (scaled >= 1024 && step < UNITS.length - 1) {
    scaled /= 1024
    step += 1
  }
  // 1023.7 KiB would round to "1,024 KiB": show the next unit instead.
  if (step > 0 && step < UNITS.length - 1 && Math.round(scaled) >= 1024) {
    scaled /= 1024
    step += 1
  }
  return `${numberFormat(locale, step === 0 || scaled >= 100 ? 0 : 1).format(scaled)}${NBSP}${UNITS[step]!}`
}

/** `2_097_152` -> `2 MiB/s` (en-US): the size rule, per second. */
export function formatSpeed(bytesPerSecond: number, locale: string): string {
  return `${formatBytes(bytesPerSecond, locale)}/s`
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

/** A piece of a name, marked when the query matched it. */
export interface HighlightSegment {
  text: string
  marked: boolean
}

/**
 * `text` cut into marked and plain pieces by `ranges` ([start, end) in UTF-16 code units, as
 * the associate reply gives them). Ranges out of bounds are clipped, empty ones dropped, and
 * overlapping or touching ones merged, so a reply the page cannot fully trust still renders
 * the whole name exactly once.
 */
export function highlightSegments(text: string, ranges: readonly (readonly [number, number])[]): HighlightSegment[] {
  const clipped = ranges
    .map(([start, end]) => [Math.max(0, Math.min(start, text.length)), Math.max(0, Math.min(end, text.length))] as const)
    .filter(([start, end]) => Number.isInteger(start) && Number.isInteger(end) && end > start)
    .sort((a, b) => a[0] - b[0])
  const merged: [number, number][] = []
  for (const [start, end] of clipped) {
    const last = merged[merged.length - 1]
    if (last && start <= last[1]) last[1] = Math.max(last[1], end)
    else merged.push([start, end])
  }
  const segments: HighlightSegment[] = []
  let at = 0
  for (const [start, end] of merged) {
    if (start > at) segments.push({ text: text.slice(at, start), marked: false })
    segments.push({ text: text.slice(start, end), marked: true })
    at = end
  }
  if (at < text.length) segments.push({ text: text.slice(at), marked: false })
  return segments
}

/** A name with the matched pieces in `<mark>`. */
export function Highlighted({ text, ranges, className = '' }: { text: string; ranges: readonly (readonly [number, number])[]; className?: string }) {
  return (
    <span className={className}>
      {highlightSegments(text, ranges).map((segment, index) =>
        segment.marked ? (
          <mark key={index} className="rounded-sm bg-amber-200/80 px-px text-inherit dark:bg-amber-400/30 dark:text-amber-50">
            {segment.text}
          </mark>
        ) : (
          segment.text
        ),
      )}
    </span>
  )
}

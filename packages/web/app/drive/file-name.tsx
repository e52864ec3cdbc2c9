/** Longest extension kept whole at the end of a truncated name (`.tar.gz` is two, `.jpeg` one). */
const MAX_EXTENSION_CHARS = 10
/** Characters of the base name kept visible before the extension, so `…part-2.mp4` tells parts apart. */
const TAIL_BASE_CHARS = 4
/** A name without an extension keeps this many of its last characters. */
const TAIL_CHARS_WITHOUT_EXTENSION = 6

/**
 * Where a long name is cut when it does not fit: the head shrinks with an ellipsis, the tail
 * (the extension and a few characters before it) always stays, as Finder and Google Drive show
 * `Very long na…me.mp4`. Short names come back whole in `head` with an empty `tail`.
 */
export function splitName(name: string): { head: string; tail: string } {
  const chars = Array.from(name) // code points: never split a surrogate pair
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 ? Array.from(name.slice(dot)).length : 0
  const tailLength = extension > 0 && extension <= MAX_EXTENSION_CHARS + 1 ? extension + TAIL_BASE_CHARS : TAIL_CHARS_WITHOUT_EXTENSION
  if (chars.length <= tailLength + 1) return { head: name, tail: '' }
  return { head: chars.slice(0, chars.length - tailLength).join(''), tail: chars.slice(chars.length - tailLength).join('') }
}

/**
 * A file or folder name on one line that, when too long, is cut in the middle so its end (the
 * extension) stays visible. The full name is the title (on hover) and what assistive tech reads.
 */
export function FileName({ name, className = '' }: { name: string; className?: string }) {
  const { head, tail } = splitName(name)
  return (
    <span className={`flex min-w-0 ${className}`} title={name} data-testid="file-name">
      <span className="flex min-w-0" aria-hidden="true">
        {/* Spaces kept as typed (pre): in a no-wrap box a space ending the head collapsed, so "Tax Report" showed "TaxReport". */}
        <span className="overflow-hidden text-ellipsis whitespace-pre">{head}</span>
        {tail ? <span className="shrink-0 whitespace-pre">{tail}</span> : null}
      </span>
      <span className="sr-only">{name}</span>
    </span>
  )
}

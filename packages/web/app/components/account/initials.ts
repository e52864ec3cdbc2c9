/**
 * White text passes WCAG AA (4.5:1) on every one of these, in light and dark themes alike.
 * The colour is picked from the user id so an account keeps its colour across renames.
 */
export const AVATAR_COLORS = ['bg-sky-700', 'bg-emerald-700', 'bg-violet-600', 'bg-rose-700', 'bg-amber-700', 'bg-teal-700', 'bg-indigo-600', 'bg-fuchsia-700'] as const

/** Up to two initials of a name: first letters of the first two words; one character for a single word or CJK. */
export function initialsOf(name: string, fallback = '?'): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return fallback
  const first = (word: string) => Array.from(word)[0] ?? ''
  const letters = words.length === 1 ? first(words[0]!) : first(words[0]!) + first(words[1]!)
  return letters.toLocaleUpperCase()
}

/** A stable colour class for an account id (FNV-1a over its UTF-16 code units). */
export function avatarColorOf(seed: string): (typeof AVATAR_COLORS)[number] {
  let hash = 0x811c9dc5
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return AVATAR_COLORS[(hash >>> 0) % AVATAR_COLORS.length]!
}

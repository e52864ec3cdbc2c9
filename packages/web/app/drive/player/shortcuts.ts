/** What a key press asks the player to do. */
export type PlayerAction =
  | { type: 'togglePlay' }
  | { type: 'seekBy'; seconds: number }
  | { type: 'seekToFraction'; fraction: number }
  | { type: 'volumeBy'; delta: number }
  | { type: 'toggleMute' }
  | { type: 'toggleFullscreen' }
  | { type: 'togglePictureInPicture' }
  | { type: 'toggleSubtitles' }
  | { type: 'speedBy'; steps: 1 | -1 }
  | { type: 'toggleHelp' }

/** Where the key was pressed: on a button (Space and Enter press it), a slider (arrows move it), or elsewhere in the player. */
export type KeyTarget = 'button' | 'slider' | 'surface'

export const SEEK_SHORT_SECONDS = 5
export const SEEK_LONG_SECONDS = 10
export const VOLUME_STEP = 0.05
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2] as const

/** Keys a slider handles itself (its value moves); the player leaves them to it. */
const SLIDER_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'])

/**
 * The player's keyboard shortcuts (those of YouTube): Space or K play and pause, ←/→ seek 5 s,
 * J/L seek 10 s, ↑/↓ volume, M mute, F fullscreen, P picture-in-picture, C subtitles, > and <
 * speed, 0–9 jump to 0%–90%, ? the list of shortcuts. A key with Ctrl, Alt or Meta belongs to
 * the browser; Space and Enter on a button press it, and a slider keeps its own keys.
 */
export function shortcutAction(event: { key: string; ctrlKey?: boolean; altKey?: boolean; metaKey?: boolean }, target: KeyTarget): PlayerAction | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null
  const { key } = event
  if (target === 'button' && (key === ' ' || key === 'Enter')) return null
  if (target === 'slider' && SLIDER_KEYS.has(key)) return null
  if (/^[0-9]$/.test(key)) return { type: 'seekToFraction', fraction: Number(key) / 10 }
  switch (key) {
    case ' ':
      return { type: 'togglePlay' }
    case 'ArrowLeft':
      return { type: 'seekBy', seconds: -SEEK_SHORT_SECONDS }
    case 'ArrowRight':
      return { type: 'seekBy', seconds: SEEK_SHORT_SECONDS }
    case 'ArrowUp':
      return { type: 'volumeBy', delta: VOLUME_STEP }
    case 'ArrowDown':
      return { type: 'volumeBy', delta: -VOLUME_STEP }
    case '>':
      return { type: 'speedBy', steps: 1 }
    case '<':
      return { type: 'speedBy', steps: -1 }
    case '?':
      return { type: 'toggleHelp' }
  }
  switch (key.toLowerCase()) {
    case 'k':
      return { type: 'togglePlay' }
    case 'j':
      return { type: 'seekBy', seconds: -SEEK_LONG_SECONDS }
    case 'l':
      return { type: 'seekBy', seconds: SEEK_LONG_SECONDS }
    case 'm':
      return { type: 'toggleMute' }
    case 'f':
      return { type: 'toggleFullscreen' }
    case 'p':
      return { type: 'togglePictureInPicture' }
    case 'c':
      return { type: 'toggleSubtitles' }
  }
  return null
}

/** The next speed up or down the list, staying at its ends; an unlisted speed moves to its neighbour. */
export function nextPlaybackRate(current: number, steps: 1 | -1): number {
  if (steps > 0) return PLAYBACK_RATES.find((rate) => rate > current + 1e-9) ?? PLAYBACK_RATES[PLAYBACK_RATES.length - 1]!
  return [...PLAYBACK_RATES].reverse().find((rate) => rate < current - 1e-9) ?? PLAYBACK_RATES[0]
}

/** The keys of each shortcut as the help lists them, with the message key of what it does. */
export const SHORTCUT_HELP = [
  { keys: ['Space', 'K'], action: 'playPause' },
  { keys: ['←', '→'], action: 'seekShort' },
  { keys: ['J', 'L'], action: 'seekLong' },
  { keys: ['↑', '↓'], action: 'volume' },
  { keys: ['M'], action: 'mute' },
  { keys: ['F'], action: 'fullscreen' },
  { keys: ['P'], action: 'pictureInPicture' },
  { keys: ['C'], action: 'subtitles' },
  { keys: ['<', '>'], action: 'speed' },
  { keys: ['0–9'], action: 'jump' },
  { keys: ['?'], action: 'help' },
] as const

export type ShortcutHelpAction = (typeof SHORTCUT_HELP)[number]['action']

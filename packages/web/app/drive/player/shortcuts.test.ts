// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { nextPlaybackRate, shortcutAction } from './shortcuts'

const press = (key: string, target: 'button' | 'slider' | 'surface' = 'surface', modifiers = {}) => shortcutAction({ key, ...modifiers }, target)

describe('shortcutAction', () => {
  it('maps the YouTube keys to player actions', () => {
    expect(press(' ')).toEqual({ type: 'togglePlay' })
    expect(press('k')).toEqual({ type: 'togglePlay' })
    expect(press('K')).toEqual({ type: 'togglePlay' })
    expect(press('ArrowLeft')).toEqual({ type: 'seekBy', seconds: -5 })
    expect(press('ArrowRight')).toEqual({ type: 'seekBy', seconds: 5 })
    expect(press('j')).toEqual({ type: 'seekBy', seconds: -10 })
    expect(press('l')).toEqual({ type: 'seekBy', seconds: 10 })
    expect(press('ArrowUp')).toEqual({ type: 'volumeBy', delta: 0.05 })
    expect(press('ArrowDown')).toEqual({ type: 'volumeBy', delta: -0.05 })
    expect(press('m')).toEqual({ type: 'toggleMute' })
    expect(press('f')).toEqual({ type: 'toggleFullscreen' })
    expect(press('p')).toEqual({ type: 'togglePictureInPicture' })
    expect(press('c')).toEqual({ type: 'toggleSubtitles' })
    expect(press('>')).toEqual({ type: 'speedBy', steps: 1 })
    expect(press('<')).toEqual({ type: 'speedBy', steps: -1 })
    expect(press('?')).toEqual({ type: 'toggleHelp' })
    expect(press('0')).toEqual({ type: 'seekToFraction', fraction: 0 })
    expect(press('7')).toEqual({ type: 'seekToFraction', fraction: 0.7 })
    expect(press('x')).toBeNull()
    expect(press('Escape')).toBeNull()
  })

  it('leaves browser shortcuts alone', () => {
    expect(press('f', 'surface', { ctrlKey: true })).toBeNull()
    expect(press('l', 'surface', { metaKey: true })).toBeNull()
    expect(press('ArrowLeft', 'surface', { altKey: true })).toBeNull()
  })

  it('lets a button take Space and Enter, and a slider its arrows, and still acts on the other keys', () => {
    expect(press(' ', 'button')).toBeNull()
    expect(press('Enter', 'button')).toBeNull()
    expect(press('ArrowRight', 'button')).toEqual({ type: 'seekBy', seconds: 5 })
    for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp']) expect(press(key, 'slider')).toBeNull()
    expect(press(' ', 'slider')).toEqual({ type: 'togglePlay' })
    expect(press('m', 'slider')).toEqual({ type: 'toggleMute' })
  })
})

describe('nextPlaybackRate', () => {
  it('steps through 0.5 to 2 and stops at the ends', () => {
    expect(nextPlaybackRate(1, 1)).toBe(1.25)
    expect(nextPlaybackRate(1.5, 1)).toBe(2)
    expect(nextPlaybackRate(2, 1)).toBe(2)
    expect(nextPlaybackRate(1, -1)).toBe(0.75)
    expect(nextPlaybackRate(0.5, -1)).toBe(0.5)
    // A speed set elsewhere moves to its neighbour in the list.
    expect(nextPlaybackRate(1.1, 1)).toBe(1.25)
    expect(nextPlaybackRate(1.1, -1)).toBe(1)
  })
})

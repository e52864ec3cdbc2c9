import { describe, expect, it } from 'vitest'
import { checkState, levelState, parentOf, toggled, toggledLevel, unpackFiles, withoutPath, withPath } from './archive-selection'

// The archive of the e2e test: photos/2024/a.jpg, photos/2024/c.jpg, photos/b.png, readme.txt.
const LEVELS = new Map<string, string[]>([
  ['', ['photos', 'readme.txt']],
  ['photos', ['photos/2024', 'photos/b.png']],
  ['photos/2024', ['photos/2024/a.jpg', 'photos/2024/c.jpg']],
])

const sorted = (set: ReadonlySet<string>) => [...set].sort()

describe('parentOf', () => {
  it('names the folder holding a path, the top being ""', () => {
    expect(parentOf('photos/2024/a.jpg')).toBe('photos/2024')
    expect(parentOf('readme.txt')).toBe('')
  })
})

describe('checkState', () => {
  it('shows a path chosen itself or through a folder holding it, and a folder with only some of its contents as partly chosen', () => {
    const selection = new Set(['photos/2024'])
    expect(checkState(selection, 'photos/2024')).toBe('all')
    expect(checkState(selection, 'photos/2024/a.jpg')).toBe('all')
    expect(checkState(selection, 'photos')).toBe('some')
    expect(checkState(selection, 'photos/b.png')).toBe('none')
    expect(checkState(selection, 'readme.txt')).toBe('none')
  })

  it('does not take a name that merely starts like a chosen folder for something inside it', () => {
    const selection = new Set(['photos'])
    expect(checkState(selection, 'photos-old')).toBe('none')
    expect(checkState(new Set(['photos-old/x']), 'photos')).toBe('none')
  })
})

describe('withPath', () => {
  it('chooses a folder in place of anything already chosen inside it', () => {
    expect(sorted(withPath(new Set(['photos/2024/a.jpg', 'photos/b.png', 'readme.txt']), 'photos', LEVELS))).toEqual(['photos', 'readme.txt'])
  })

  it('makes a folder whose every listed entry is chosen one path, up through every level where that holds', () => {
    const one = withPath(new Set(['photos/b.png']), 'photos/2024/a.jpg', LEVELS)
    expect(sorted(one)).toEqual(['photos/2024/a.jpg', 'photos/b.png'])
    expect(sorted(withPath(one, 'photos/2024/c.jpg', LEVELS))).toEqual(['photos'])
  })

  it('keeps the top level as entries: choosing all of them is not an empty (everything) selection', () => {
    expect(sorted(withPath(new Set(['photos']), 'readme.txt', LEVELS))).toEqual(['photos', 'readme.txt'])
  })

  it('does not merge into a folder it never listed', () => {
    const levels = new Map([['', ['photos', 'readme.txt']], ['photos', ['photos/2024', 'photos/b.png']]])
    // photos/2024 has not been listed: choosing one file in it cannot mean the whole folder.
    expect(sorted(withPath(new Set(), 'photos/2024/a.jpg', levels))).toEqual(['photos/2024/a.jpg'])
  })

  it('leaves a path already chosen through its folder as it is', () => {
    expect(sorted(withPath(new Set(['photos']), 'photos/b.png', LEVELS))).toEqual(['photos'])
  })
})

describe('withoutPath', () => {
  it('removes a chosen path and everything chosen inside it', () => {
    expect(sorted(withoutPath(new Set(['photos/2024/a.jpg', 'photos/b.png', 'readme.txt']), 'photos', LEVELS))).toEqual(['readme.txt'])
  })

  it('replaces a chosen folder by its entries down to the one left out', () => {
    expect(sorted(withoutPath(new Set(['photos', 'readme.txt']), 'photos/2024/a.jpg', LEVELS))).toEqual(['photos/2024/c.jpg', 'photos/b.png', 'readme.txt'])
  })

  it('changes nothing when a folder on the way down was never listed', () => {
    const levels = new Map([['photos', ['photos/2024', 'photos/b.png']]])
    expect(sorted(withoutPath(new Set(['photos']), 'photos/2024/a.jpg', levels))).toEqual(['photos'])
  })
})

describe('toggled', () => {
  it('leaves out a chosen row and chooses a partly chosen folder whole', () => {
    expect(sorted(toggled(new Set(['photos']), 'photos', LEVELS))).toEqual([])
    expect(sorted(toggled(new Set(['photos/b.png']), 'photos', LEVELS))).toEqual(['photos'])
    expect(sorted(toggled(new Set(), 'readme.txt', LEVELS))).toEqual(['readme.txt'])
  })

  it('comes back to the same selection after choosing and leaving out a file inside a chosen folder', () => {
    const start = new Set(['photos'])
    const without = toggled(start, 'photos/2024/a.jpg', LEVELS)
    expect(checkState(without, 'photos')).toBe('some')
    expect(sorted(toggled(without, 'photos/2024/a.jpg', LEVELS))).toEqual(['photos'])
  })
})

describe('levelState and toggledLevel', () => {
  const photos = LEVELS.get('photos')!

  it('reads a level as all, some or none chosen', () => {
    expect(levelState(new Set(['photos']), photos)).toBe('all')
    expect(levelState(new Set(['photos/2024/a.jpg']), photos)).toBe('some')
    expect(levelState(new Set(['readme.txt']), photos)).toBe('none')
    expect(levelState(new Set(['readme.txt']), [])).toBe('none')
  })

  it('chooses every entry of a level, which makes its folder the one path', () => {
    expect(sorted(toggledLevel(new Set(['photos/2024/a.jpg', 'readme.txt']), photos, LEVELS))).toEqual(['photos', 'readme.txt'])
  })

  it('clears a fully chosen level, keeping what is chosen elsewhere', () => {
    expect(sorted(toggledLevel(new Set(['photos', 'readme.txt']), photos, LEVELS))).toEqual(['readme.txt'])
    // Chosen through the folder above: the level's folder is split, its other entries stay.
    expect(sorted(toggledLevel(new Set(['photos']), LEVELS.get('photos/2024')!, LEVELS))).toEqual(['photos/b.png'])
  })
})

describe('unpackFiles', () => {
  it('sends the chosen paths in order, and nothing (everything) when none is chosen', () => {
    expect(unpackFiles(new Set(['readme.txt', 'photos']))).toEqual([{ path: 'photos' }, { path: 'readme.txt' }])
    expect(unpackFiles(new Set())).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { dragHasFiles, pickedFromDrop, pickedFromInput } from './collect-files'

function aFile(name: string, relativePath = ''): File {
  const file = new File(['x'], name)
  if (relativePath) Object.defineProperty(file, 'webkitRelativePath', { value: relativePath })
  return file
}

/** A file-system entry as `webkitGetAsEntry` gives it; directories read in batches of two, as browsers batch. */
function fileEntry(name: string) {
  return { isFile: true, isDirectory: false, name, file: (ok: (file: File) => void) => ok(aFile(name)) }
}
function dirEntry(name: string, children: unknown[]) {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader() {
      let next = 0
      return {
        readEntries(ok: (entries: unknown[]) => void) {
          const batch = children.slice(next, next + 2)
          next += 2
          ok(batch)
        },
      }
    },
  }
}

function transferOf(entries: unknown[], files: File[] = []): DataTransfer {
  return {
    types: ['Files'],
    files,
    items: entries.map((entry) => ({ kind: 'file', webkitGetAsEntry: () => entry })),
  } as unknown as DataTransfer
}

describe('collecting files', () => {
  it('a folder input gives each file its path and every folder on the way', () => {
    const picked = pickedFromInput([aFile('a.jpg', 'trip/day1/a.jpg'), aFile('notes.txt', 'trip/notes.txt')])
    expect(picked.files.map((f) => f.path)).toEqual(['trip/day1/a.jpg', 'trip/notes.txt'])
    expect(picked.folders.sort()).toEqual(['trip', 'trip/day1'])
  })

  it('loose files have their name as path and no folders', () => {
    expect(pickedFromInput([aFile('a.txt')])).toMatchObject({ files: [{ path: 'a.txt' }], folders: [] })
  })

  it('a dropped folder is walked to the bottom, reading every batch, empty folders included', async () => {
    const drop = transferOf([dirEntry('trip', [fileEntry('1.jpg'), fileEntry('2.jpg'), fileEntry('3.jpg'), dirEntry('empty', []), dirEntry('day2', [fileEntry('4.jpg')])]), fileEntry('loose.txt')])
    const picked = await pickedFromDrop(drop)
    expect(picked.files.map((f) => f.path)).toEqual(['trip/1.jpg', 'trip/2.jpg', 'trip/3.jpg', 'trip/day2/4.jpg', 'loose.txt'])
    expect(picked.folders).toEqual(['trip', 'trip/empty', 'trip/day2'])
  })

  it('without entries (an older browser) takes the loose files', async () => {
    const drop = { types: ['Files'], files: [aFile('a.txt')], items: [{ kind: 'file', webkitGetAsEntry: () => null }] } as unknown as DataTransfer
    expect((await pickedFromDrop(drop)).files.map((f) => f.path)).toEqual(['a.txt'])
  })

  it('only a drag that carries files counts', () => {
    expect(dragHasFiles({ types: ['Files'] } as unknown as DataTransfer)).toBe(true)
    expect(dragHasFiles({ types: ['text/plain'] } as unknown as DataTransfer)).toBe(false)
    expect(dragHasFiles(null)).toBe(false)
  })
})

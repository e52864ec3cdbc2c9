import { describe, expect, it } from 'vitest'
import { parseArchiveEntries, parseArchiveLevel, UnexpectedReplyError } from './drive-replies'

describe('parseArchiveEntries', () => {
  it('reads entries with their sizes (strings, as the drive sends large numbers) and folders', () => {
    const body = {
      files: [
        { kind: 'drive#folder', filename: 'photos', filesize: '0' },
        { kind: 'drive#file', filename: 'photos/a.jpg', filesize: '1048576' },
        { name: 'readme.txt', size: 12 },
        { filename: 'unknown-size.bin' },
        { filesize: '10' },
        'junk',
      ],
    }
    expect(parseArchiveEntries(body)).toEqual([
      { name: 'photos', sizeBytes: 0, isFolder: true },
      { name: 'photos/a.jpg', sizeBytes: 1048576, isFolder: false },
      { name: 'readme.txt', sizeBytes: 12, isFolder: false },
      { name: 'unknown-size.bin', sizeBytes: null, isFolder: false },
    ])
  })

  it('refuses a reply without a file list', () => {
    expect(() => parseArchiveEntries({ status: 'OK' })).toThrow(UnexpectedReplyError)
  })
})

describe('parseArchiveLevel', () => {
  it('reads the status, where in the archive, and each entry with its path', () => {
    const body = {
      status: 'OK',
      current_path: 'photos',
      title: 'holiday.zip',
      files: [
        { kind: 'drive#folder', filename: '2024', filesize: '1000', path: 'photos/2024' },
        { kind: 'drive#file', filename: 'b.png', filesize: '300', path: 'photos/b.png' },
      ],
    }
    expect(parseArchiveLevel(body)).toEqual({
      status: 'OK',
      currentPath: 'photos',
      title: 'holiday.zip',
      entries: [
        { name: '2024', sizeBytes: 1000, isFolder: true, path: 'photos/2024' },
        { name: 'b.png', sizeBytes: 300, isFolder: false, path: 'photos/b.png' },
      ],
    })
  })

  it('keeps a password status with no entries, and refuses what is no listing', () => {
    expect(parseArchiveLevel({ status: 'PASS_WORD_EMPTY', files: [] })).toMatchObject({ status: 'PASS_WORD_EMPTY', entries: [] })
    expect(() => parseArchiveLevel('nope')).toThrow(UnexpectedReplyError)
  })
})

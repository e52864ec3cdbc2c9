import { describe, expect, it } from 'vitest'
import { parseArchiveEntries, parseAssociateSuggestions, UnexpectedReplyError } from './drive-replies'

describe('parseAssociateSuggestions', () => {
  it('reads a list of words or of objects with a text field, dropping duplicates and blanks', () => {
    expect(parseAssociateSuggestions(['a.mp4', 'b.mp4', 'a.mp4', ''])).toEqual(['a.mp4', 'b.mp4'])
    expect(parseAssociateSuggestions({ data: [{ keyword: 'report' }, { name: 'report 2024' }, { id: 3 }, 42] })).toEqual(['report', 'report 2024'])
  })

  it('refuses a reply without a list', () => {
    expect(() => parseAssociateSuggestions({ message: 'ok' })).toThrow(UnexpectedReplyError)
    expect(() => parseAssociateSuggestions(null)).toThrow(UnexpectedReplyError)
  })
})

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

import { describe, expect, it } from 'vitest'
import { actionsFor } from './file-actions'
import { aFile, aFolder } from './fake-drive-api'

describe('actionsFor', () => {
  it('offers an archive its page, after open, for one archive only', () => {
    const archive = aFile({ name: 'photos.zip', file_category: 'ARCHIVE' })
    expect(actionsFor([archive], 'folder').slice(0, 3)).toEqual(['open', 'archive', 'download'])
    expect(actionsFor([archive, aFile({ name: 'b.zip', file_category: 'ARCHIVE' })], 'folder')).not.toContain('archive')
    expect(actionsFor([aFile({ name: 'notes.txt' })], 'folder')).not.toContain('archive')
    expect(actionsFor([aFolder({ name: 'zips' })], 'folder')).not.toContain('archive')
    expect(actionsFor([archive], 'trash')).toEqual(['restore', 'delete'])
  })
})

describe('actionsFor a search result', () => {
  it('offers Show in folder after open, for one result only', () => {
    const file = aFile({ name: 'report.pdf' })
    expect(actionsFor([file], 'search').slice(0, 3)).toEqual(['open', 'reveal', 'download'])
    expect(actionsFor([file, aFile({ name: 'b.pdf' })], 'search')).not.toContain('reveal')
    expect(actionsFor([file], 'folder')).not.toContain('reveal')
  })
})

describe('actionsFor sharing', () => {
  it('offers Share for files and folders, one or many, but never in the trash', () => {
    const file = aFile({ name: 'report.pdf' })
    const folder = aFolder({ name: 'Photos' })
    expect(actionsFor([file], 'folder')).toContain('share')
    expect(actionsFor([folder], 'folder')).toContain('share')
    expect(actionsFor([file, folder], 'folder')).toContain('share')
    expect(actionsFor([file], 'starred')).toContain('share')
    expect(actionsFor([file], 'search')).toContain('share')
    expect(actionsFor([file, folder], 'trash')).not.toContain('share')
  })
})

import type { DriveFile, DriveSearchParams } from '@cumulus/protocol'

/**
 * How a folder of a search result or a suggestion reads: `rootName` for the root ("/"), else
 * its folders from the top ("Movies / 2024"). Names cannot hold "/", so splitting is safe.
 */
export function folderLabel(path: string, rootName: string): string {
  const names = path.split('/').filter((name) => name !== '')
  return names.length === 0 ? rootName : names.join(' / ')
}

/** A result's search params (drive.md "Search"), or null for a file that came from elsewhere. */
export function searchParamsOf(file: Pick<DriveFile, 'params'>): DriveSearchParams | null {
  const { path, parent_name: parentName, match } = file.params
  if (typeof path !== 'string' || path === '') return null
  return { path, parent_name: typeof parentName === 'string' ? parentName : '', match: match as DriveSearchParams['match'] }
}

import { useEffect, useState } from 'react'

export type DriveLayout = 'list' | 'grid'

/** Where the chosen layout is remembered between visits. */
const LAYOUT_KEY = 'cumulus-drive-layout'

/** The drive's layout (list or grid of thumbnails), remembered like the sort order: default first, the stored one after hydration. */
export function useRememberedLayout(): [DriveLayout, (layout: DriveLayout) => void] {
  const [layout, setLayout] = useState<DriveLayout>('list')
  useEffect(() => {
    try {
      const stored = localStorage.getItem(LAYOUT_KEY)
      if (stored === 'grid' || stored === 'list') setLayout(stored)
    } catch {
      // Unreadable or blocked storage: the list.
    }
  }, [])
  return [
    layout,
    (next) => {
      setLayout(next)
      try {
        localStorage.setItem(LAYOUT_KEY, next)
      } catch {
        // Not remembered; the layout still applies now.
      }
    },
  ]
}

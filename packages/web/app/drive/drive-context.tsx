import type { DriveFile } from '@cumulus/protocol'
import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react'
import type { DriveApi } from './drive-api'
import { UploadManager } from './upload-manager'

/** Something changed in the drive outside the list that shows it (an upload, a folder it made). */
export type DriveChange = { type: 'uploaded'; file: DriveFile } | { type: 'folder-created'; folder: DriveFile }

export interface DriveServices {
  api: DriveApi
  uploads: UploadManager
  /** Hears uploads finishing and folders being made, while subscribed. */
  subscribe(listener: (change: DriveChange) => void): () => void
}

/**
 * The API, the tab's uploads and their change feed. One set per API (per tab in the app), kept
 * across drive pages so an upload goes on while the user browses other folders.
 */
export function createDriveServices(api: DriveApi): DriveServices {
  const listeners = new Set<(change: DriveChange) => void>()
  const emit = (change: DriveChange) => {
    for (const listener of listeners) listener(change)
  }
  const uploads = new UploadManager(
    api,
    {
      onUploaded: (file) => emit({ type: 'uploaded', file }),
      onFolderCreated: (folder) => emit({ type: 'folder-created', folder }),
    },
    // Batches are remembered in the browser, to go on after a reload.
    { storage: typeof window === 'undefined' ? null : window.localStorage },
  )
  return {
    api,
    uploads,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

const byApi = new WeakMap<DriveApi, DriveServices>()

/** The services of an API, made once. */
export function driveServicesFor(api: DriveApi): DriveServices {
  let services = byApi.get(api)
  if (!services) byApi.set(api, (services = createDriveServices(api)))
  return services
}

const DriveContext = createContext<DriveServices | null>(null)

export function DriveProvider({ api, children }: { api: DriveApi; children: ReactNode }) {
  return <DriveContext.Provider value={driveServicesFor(api)}>{children}</DriveContext.Provider>
}

export function useDrive(): DriveServices {
  const services = useContext(DriveContext)
  if (!services) throw new Error('useDrive must be used inside <DriveProvider>')
  return services
}

/** Calls `listener` for every drive change while mounted (the latest `listener`, without resubscribing). */
export function useDriveChanges(listener: (change: DriveChange) => void): void {
  const { subscribe } = useDrive()
  const latest = useRef(listener)
  latest.current = listener
  useEffect(() => subscribe((change) => latest.current(change)), [subscribe])
}

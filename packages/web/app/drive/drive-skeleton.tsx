import { GRID_COLUMNS, ROW_HEIGHT } from './file-grid'

/** Placeholder rows: enough to fill a first screen without promising a count. */
const SKELETON_ROWS = 6
/** Name widths that vary from row to row, as names do. */
const NAME_WIDTHS = ['w-3/5', 'w-2/5', 'w-1/2', 'w-3/4', 'w-1/3', 'w-2/3']

const bone = 'rounded-md bg-slate-200 motion-safe:animate-pulse dark:bg-slate-800'

/**
 * Rows of the file list while it loads: the grid's columns and row height in grey, so the list
 * that follows takes their place without a jump. Decorative; `label` is said once, for screen
 * readers.
 */
export function SkeletonRows({ label }: { label: string }) {
  return (
    <div aria-busy="true" data-testid="drive-skeleton-rows">
      <p role="status" className="sr-only">
        {label}
      </p>
      <div aria-hidden="true">
        <div className={`${GRID_COLUMNS} h-10 border-b border-slate-200 dark:border-slate-800`}>
          <span className={`mx-auto size-5 ${bone}`} />
          <span className={`h-3 w-16 ${bone}`} />
        </div>
        {NAME_WIDTHS.slice(0, SKELETON_ROWS).map((width, index) => (
          <div key={index} className={`${GRID_COLUMNS} border-b border-slate-100 dark:border-slate-800/80`} style={{ height: ROW_HEIGHT }}>
            <span className={`mx-auto size-8 rounded-lg ${bone}`} />
            <span className={`h-3.5 ${width} ${bone}`} />
            <span className={`hidden h-3 w-12 sm:block ${bone}`} />
            <span className={`hidden h-3 w-28 md:block ${bone}`} />
            <span />
          </div>
        ))}
      </div>
    </div>
  )
}

/**
 * What a drive page looks like before it can show anything (the server has no session; the
 * browser reads it, then loads the drive client): the page's layout (the side column, the
 * toolbar, the list) in grey, busy, so the first paint already has the shape of the drive.
 */
export function DriveSkeleton({ label }: { label: string }) {
  return (
    <div className="mx-auto flex w-full max-w-[90rem] gap-6 sm:px-4 lg:px-6" aria-busy="true" data-testid="drive-skeleton">
      <div className="hidden w-60 shrink-0 space-y-2 pt-4 lg:block" aria-hidden="true">
        {['w-32', 'w-24', 'w-20'].map((width, index) => (
          <div key={index} className="flex h-10 items-center gap-3 px-4">
            <span className={`size-5 ${bone}`} />
            <span className={`h-3.5 ${width} ${bone}`} />
          </div>
        ))}
        <div className="space-y-2 px-4 pt-6">
          <span className={`block h-2 w-full rounded-full ${bone}`} />
          <span className={`block h-3 w-36 ${bone}`} />
        </div>
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex h-11 items-center gap-4 border-b border-slate-200 px-3 lg:hidden dark:border-slate-800" aria-hidden="true">
          {['w-20', 'w-16', 'w-14'].map((width, index) => (
            <span key={index} className={`h-3.5 ${width} ${bone}`} />
          ))}
        </div>
        <div className="px-2 pt-1 sm:px-0" aria-hidden="true">
          <div className="flex h-14 items-center gap-2">
            <span className={`ml-2 h-5 w-36 ${bone}`} />
            <span className="flex-1" />
            <span className={`h-10 w-10 rounded-xl sm:w-28 ${bone}`} />
          </div>
          <div className="flex h-12 items-center gap-2 px-2">
            <span className={`h-3 w-24 ${bone}`} />
            <span className="flex-1" />
            <span className={`h-3 w-16 ${bone}`} />
          </div>
        </div>
        <SkeletonRows label={label} />
      </div>
    </div>
  )
}

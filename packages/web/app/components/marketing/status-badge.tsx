import { useT } from '../../i18n/use-locale'

/** Whether a feature works on this server today or arrives in a later release. */
export type FeatureStatus = 'available' | 'later'

/** A small pill stating a feature's status honestly, in words (colour is never the only cue). */
export function StatusBadge({ status }: { status: FeatureStatus }) {
  const { t } = useT()
  return status === 'available' ? (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-semibold text-emerald-800 ring-1 ring-inset ring-emerald-200 dark:bg-emerald-950/60 dark:text-emerald-200 dark:ring-emerald-800">
      <span className="size-1.5 rounded-full bg-emerald-600 dark:bg-emerald-400" aria-hidden="true" />
      {t('pages.status.available')}
    </span>
  ) : (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-inset ring-amber-200 dark:bg-amber-950/60 dark:text-amber-100 dark:ring-amber-800">
      <span className="size-1.5 rounded-full bg-amber-600 dark:bg-amber-400" aria-hidden="true" />
      {t('pages.status.later')}
    </span>
  )
}

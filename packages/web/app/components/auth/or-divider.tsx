import { useT } from '../../i18n/use-locale'

/** The "or" between two ways to sign in (decorative: each way is labelled on its own). */
export function OrDivider() {
  const { t } = useT()
  return (
    <div className="flex items-center gap-3 text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400" aria-hidden="true">
      <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      {t('auth.login.or')}
      <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
    </div>
  )
}

import { useT } from '../../i18n/use-locale'
import { LocaleLink } from '../../navigation/locale-link'
import { Section } from './section'

/** The way to delete the account; the unregister page asks for the password and explains the review period. */
export function DangerZone() {
  const { t } = useT()
  return (
    <Section title={t('accountHome.danger.title')} tone="danger" testId="danger-zone">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="max-w-prose text-sm text-slate-700 dark:text-slate-300">{t('accountHome.danger.text')}</p>
        <LocaleLink
          page="account-unregister"
          className="inline-flex h-11 shrink-0 items-center justify-center rounded-xl px-4 text-sm font-semibold text-red-700 ring-1 ring-red-300 ring-inset hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 dark:text-red-300 dark:ring-red-800 dark:hover:bg-red-950/60"
        >
          {t('accountHome.danger.link')}
        </LocaleLink>
      </div>
    </Section>
  )
}

import { useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'

export function SiteFooter() {
  const { t } = useT()
  return (
    <footer className="border-t border-slate-200 py-8 text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>{t('common.footer.rights', { year: new Date().getFullYear() })}</p>
        <nav aria-label={t('common.footer.links')} className="flex flex-wrap gap-x-5 gap-y-2">
          <LocaleLink page="about" className="hover:text-slate-900 dark:hover:text-white">
            {t('common.nav.about')}
          </LocaleLink>
          <LocaleLink page="newbie-guide" className="hover:text-slate-900 dark:hover:text-white">
            {t('common.nav.guide')}
          </LocaleLink>
          <LocaleLink page="thunder" className="hover:text-slate-900 dark:hover:text-white">
            {t('common.nav.thunder')}
          </LocaleLink>
        </nav>
      </div>
    </footer>
  )
}

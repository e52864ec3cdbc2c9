import { useT } from '../i18n/use-locale'
import { LocaleLink } from '../navigation/locale-link'

/**
 * The error page (spec 2): "Page Not Found" for 404, naming the path; "Internal Server Error"
 * for anything else. No stack or error text reaches the visitor.
 */
export function ErrorPage({ status, path }: { status: number; path: string }) {
  const { t } = useT()
  const notFound = status === 404
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-6 py-24 text-center" aria-labelledby="error-title">
      <p className="text-sm font-semibold text-brand-600 dark:text-brand-300">{t('common.errorPage.status', { status })}</p>
      <h1 id="error-title" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
        {notFound ? t('common.errorPage.notFoundTitle') : t('common.errorPage.internalTitle')}
      </h1>
      <p className="mt-4 break-all text-slate-600 dark:text-slate-300" data-testid="error-message">
        {notFound ? t('common.errorPage.notFoundMessage', { path }) : t('common.errorPage.internalMessage')}
      </p>
      <LocaleLink page="index" className="mt-8 rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700">
        {t('common.errorPage.backHome')}
      </LocaleLink>
    </section>
  )
}

import { useT } from '../i18n/use-locale'

/**
 * The document title and description of a page, localized. React 19 hoists these into <head>,
 * on the server render and on client navigations alike.
 */
export function PageTitle({ title, description }: { title: string; description?: string }) {
  const { t } = useT()
  return (
    <>
      <title>{`${title} · ${t('common.appName')}`}</title>
      {description ? <meta name="description" content={description} /> : null}
    </>
  )
}

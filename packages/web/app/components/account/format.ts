/** A date as the page's locale writes it (medium style); '' for a missing or unreadable value. */
export function formatDate(value: Date | string | null | undefined, locale: string): string {
  if (!value) return ''
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(date)
}

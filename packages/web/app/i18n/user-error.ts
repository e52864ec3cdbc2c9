import { GenericErrors, type Locale } from '@cumulus/protocol'
import { errorMessage, isIdentityError, loadMessages } from '@cumulus/sdk'
import type { TFunction } from 'i18next'

/**
 * The text a page shows for a failed identity call. The SDK picks it in the spec's order;
 * the one case it words for developers (a captcha the user closed: `cancelled`, code 1, below
 * the codes that have catalogue texts) gets the page's own sentence instead.
 */
export async function userErrorMessage(error: unknown, locale: Locale, t: TFunction): Promise<string> {
  if (isIdentityError(error) && error.status === 0 && error.is(GenericErrors.cancelled)) return t('common.errors.captchaClosed')
  // Errors the SDK raises itself read its own tables, loaded lazily per locale.
  await loadMessages(locale).catch(() => undefined)
  return errorMessage(error, locale)
}

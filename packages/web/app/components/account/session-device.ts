import type { SessionDevice } from '@cumulus/protocol'
import type { TFunction } from 'i18next'

/** Which picture stands for a session's device (the server's `device.type`). */
export type DeviceKind = 'phone' | 'monitor' | 'tv' | 'generic'

export function deviceKind(type: string): DeviceKind {
  switch (type.trim().toLowerCase()) {
    // A tablet is held like a phone, and people recognise it by its shape, not its size.
    case 'mobile':
    case 'tablet':
      return 'phone'
    case 'desktop':
      return 'monitor'
    case 'tv':
      return 'tv'
    default:
      return 'generic'
  }
}

/**
 * What people call the device: the name it gave itself ("Ann's iPhone"), else "Chrome on
 * Windows" from its User-Agent, else whichever half is known, else "Unknown device". The same
 * words name it in the Sign out button's label, the confirmation and the notice.
 */
export function deviceTitle(device: SessionDevice, t: TFunction<'translation'>): string {
  const name = device.name.trim()
  if (name) return name
  const browser = device.browser.trim()
  const os = device.os.trim()
  if (browser && os) return t('accountHome.devices.browserOnOs', { browser, os })
  return browser || os || t('accountHome.devices.unknownDevice')
}

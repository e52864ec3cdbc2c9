import { COLOR_MODES, type ColorPreference } from '../color-mode/color-mode'
import { useColorMode } from '../color-mode/color-mode-provider'
import { useT } from '../i18n/use-locale'
import { DeferredRadioMenu } from './lazy/deferred-radio-menu'
import { triggerClass } from './ui/menu-styles'

function ModeIcon({ mode }: { mode: ColorPreference }) {
  if (mode === 'dark')
    return (
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8">
        <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" />
      </svg>
    )
  if (mode === 'light')
    return (
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8">
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </svg>
    )
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8">
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </svg>
  )
}

/** Light, dark or system. On a page that forces a mode the switcher says so and is disabled. The menu (Radix) loads on the first interaction. */
export function ColorModeSwitcher() {
  const { t } = useT()
  const mode = useColorMode()
  const label = mode.forced ? t('common.colorMode.forced', { mode: t(`common.colorMode.${mode.value}`) }) : t('common.colorMode.change')
  return (
    <DeferredRadioMenu
      trigger={{ className: triggerClass, 'aria-label': label, title: label, disabled: mode.forced, 'data-testid': 'color-mode-switcher' }}
      label={t('common.colorMode.label')}
      value={mode.preference}
      options={COLOR_MODES.map((option) => ({ value: option, label: t(`common.colorMode.${option}`) }))}
      onValueChange={(value) => mode.setPreference(value as ColorPreference)}
    >
      <ModeIcon mode={mode.unknown ? 'system' : mode.preference} />
    </DeferredRadioMenu>
  )
}

import { useMemo, useState } from 'react'
import { useLocale, useT } from '../../i18n/use-locale'
import { TextField } from '../ui/text-field'
import { countryDisplayName, regionNamesFor } from './country-names'
import { DEFAULT_PHONE_COUNTRY, findPhoneCountry, PHONE_COUNTRIES, type PhoneCountry, splitE164, toE164 } from './phone-number'
import { useHydrated } from './use-hydrated'

export interface PhoneFieldProps {
  label: string
  /** The number in E.164 (`+6591234567`), '' when nothing is typed. */
  value: string
  onChange(e164: string): void
  error?: string | null
  /** Submitted (as E.164) by a hidden input, for forms read with FormData. */
  name?: string
  autoFocus?: boolean
  /** The country to start on; default from the page language. */
  defaultCountry?: string
}

/**
 * A phone number: a country picker (calling code) and the national number, producing E.164.
 * The picker is a native <select> under a styled face, so keyboards, screen readers and phones
 * get the platform's own list.
 */
export function PhoneField({ label, value, onChange, error, name, autoFocus, defaultCountry }: PhoneFieldProps) {
  const { t } = useT()
  const locale = useLocale()
  const hydrated = useHydrated()
  const [alpha2, setAlpha2] = useState(() => splitE164(value, defaultCountry ?? DEFAULT_PHONE_COUNTRY[locale])?.country.alpha2 ?? defaultCountry ?? DEFAULT_PHONE_COUNTRY[locale])
  const [typed, setTyped] = useState(() => splitE164(value, alpha2)?.national ?? '')
  const country = findPhoneCountry(alpha2) ?? PHONE_COUNTRIES[0]!

  // A value set from outside (a form reset) wins over what was typed.
  const [lastValue, setLastValue] = useState(value)
  if (value !== lastValue) {
    setLastValue(value)
    if (value !== toE164(country, typed)) {
      const split = splitE164(value, alpha2)
      setTyped(split?.national ?? '')
      if (split) setAlpha2(split.country.alpha2)
    }
  }

  // The browser's Intl names differ from the server's; use them only after hydration.
  const options = useMemo(() => {
    const regionNames = hydrated ? regionNamesFor(locale) : null
    const collator = new Intl.Collator(locale)
    return PHONE_COUNTRIES.map((c) => ({ alpha2: c.alpha2, label: t('auth.phone.option', { country: countryDisplayName(c, locale, regionNames), code: c.callingCode }) })).sort((a, b) =>
      collator.compare(a.label, b.label),
    )
  }, [hydrated, locale, t])

  function emit(nextCountry: PhoneCountry, nextTyped: string) {
    const e164 = toE164(nextCountry, nextTyped)
    setLastValue(e164)
    onChange(e164)
  }

  const picker = (
    <div className="relative flex h-11 shrink-0 items-center gap-1.5 rounded-xl border border-slate-300 bg-white pl-3 pr-2 text-sm font-medium text-slate-800 focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800">
      {/* The ISO code, not a flag emoji: Windows has no flag glyphs and shows letters anyway. */}
      <span aria-hidden="true" className="rounded bg-slate-100 px-1 py-0.5 text-[11px] font-semibold tracking-wide text-slate-600 dark:bg-slate-800 dark:text-slate-300">
        {country.alpha2}
      </span>
      <span aria-hidden="true" className="tabular-nums">
        +{country.callingCode}
      </span>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 text-slate-500 dark:text-slate-400" fill="currentColor">
        <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
      </svg>
      <select
        aria-label={t('auth.phone.country')}
        title={t('auth.phone.country')}
        value={country.alpha2}
        onChange={(event) => {
          const next = findPhoneCountry(event.target.value)
          if (!next) return
          setAlpha2(next.alpha2)
          emit(next, typed)
        }}
        className="absolute inset-0 size-full cursor-pointer appearance-none opacity-0"
        data-testid="phone-country"
      >
        {options.map((option) => (
          <option key={option.alpha2} value={option.alpha2}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )

  return (
    <>
      <TextField
        label={label}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        autoFocus={autoFocus}
        value={typed}
        error={error}
        placeholder={t('auth.phone.placeholder')}
        leading={picker}
        onChange={(event) => {
          const nextTyped = event.target.value
          // A pasted international number ("+65 9123 4567") moves the picker to its country.
          const split = nextTyped.trim().startsWith('+') ? splitE164(nextTyped, country.alpha2) : null
          if (split) {
            setAlpha2(split.country.alpha2)
            setTyped(split.national)
            emit(split.country, split.national)
            return
          }
          setTyped(nextTyped)
          emit(country, nextTyped)
        }}
      />
      {name ? <input type="hidden" name={name} value={value} /> : null}
    </>
  )
}

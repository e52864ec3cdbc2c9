import { useId } from 'react'
import { useT } from '../../i18n/use-locale'

export type ContactKind = 'email' | 'phone'

const KINDS: readonly ContactKind[] = ['email', 'phone']

/** Chooses e-mail or phone as the address a code goes to: a labelled radio group, styled as a segmented control. */
export function ContactSwitch({ legend, value, onChange }: { legend: string; value: ContactKind; onChange(kind: ContactKind): void }) {
  const { t } = useT()
  const name = useId()
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">{legend}</legend>
      <div className="grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1 dark:bg-slate-800">
        {KINDS.map((kind) => (
          <label
            key={kind}
            className="flex h-9 cursor-pointer items-center justify-center rounded-lg text-sm font-medium text-slate-600 transition-colors hover:text-slate-900 has-checked:bg-white has-checked:text-slate-900 has-checked:shadow-sm has-focus-visible:outline-2 has-focus-visible:outline-brand-500 dark:text-slate-300 dark:hover:text-white dark:has-checked:bg-slate-950 dark:has-checked:text-white"
          >
            <input type="radio" className="sr-only" name={name} value={kind} checked={value === kind} onChange={() => onChange(kind)} />
            {kind === 'email' ? t('auth.contact.email') : t('auth.contact.phone')}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

import { forwardRef, type InputHTMLAttributes, type ReactNode, useId } from 'react'

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: string
  /** Shown under the field and announced; marks the field invalid. */
  error?: string | null
  hint?: ReactNode
  /** Content inside the field's right edge (the show-password toggle). */
  trailing?: ReactNode
  /** Content at the field's left edge (the country picker). */
  leading?: ReactNode
}

export const inputClass =
  'block h-11 w-full rounded-xl border border-slate-300 bg-white px-3.5 text-base text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 sm:text-sm'

/** A labelled input with its error and hint wired to it for assistive technology. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField({ label, error, hint, trailing, leading, id, className = '', ...props }, ref) {
  const generated = useId()
  const inputId = id ?? generated
  const errorId = `${inputId}-error`
  const hintId = `${inputId}-hint`
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <div className="flex items-stretch gap-2">
        {leading}
        <div className="relative flex-1">
          <input ref={ref} id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className={`${inputClass} ${trailing ? 'pr-11' : ''}`} {...props} />
          {trailing ? <div className="absolute inset-y-0 right-1 flex items-center">{trailing}</div> : null}
        </div>
      </div>
      {hint && !error ? (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  )
})

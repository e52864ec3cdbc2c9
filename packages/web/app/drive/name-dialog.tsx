import { type Locale, loadMessages } from '@cumulus/protocol'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { useLocale, useT } from '../i18n/use-locale'
import { Button } from '../components/ui/button'
import { TextField } from '../components/ui/text-field'
import { DialogShell } from './dialog-shell'
import { baseNameLength, cleanName, findNameProblem, type NameProblem } from './names'
import { useDescribeError } from './use-error-text'

/** The catalogue's text for a name problem, in the page's language (the service words it the same way). */
export function useNameProblemText(problem: NameProblem | null): string | null {
  const locale = useLocale()
  const [table, setTable] = useState<{ locale: Locale; texts: Record<NameProblem, string> } | null>(null)
  useEffect(() => {
    if (!problem || table?.locale === locale) return
    let live = true
    void loadMessages(locale).then((texts) => {
      if (live) setTable({ locale, texts })
    })
    return () => {
      live = false
    }
  }, [problem, locale, table?.locale])
  if (!problem) return null
  return table?.locale === locale ? table.texts[problem] : null
}

export interface NameDialogProps {
  open: boolean
  onOpenChange(open: boolean): void
  mode: 'new-folder' | 'rename'
  /** The name the field starts with. */
  initialName: string
  /** Renaming a folder selects the whole name; a file's extension is left out of the selection. */
  isFolder: boolean
  /** Creates or renames; a rejection keeps the dialog open with the error's text. */
  onSubmit(name: string): Promise<void>
}

/**
 * "New folder" and "Rename": one field, checked as the user types against the rules the service
 * applies (empty, `/` and control characters, 255 bytes), with the server's own refusal (a
 * name already taken) shown under the field.
 */
export function NameDialog({ open, onOpenChange, mode, initialName, isFolder, onSubmit }: NameDialogProps) {
  const { t } = useT()
  const describe = useDescribeError()
  const [name, setName] = useState(initialName)
  const [touched, setTouched] = useState(false)
  const [serverError, setServerError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const texts = mode === 'new-folder' ? { title: t('drive.names.newFolder.title'), label: t('drive.names.newFolder.label'), submit: t('drive.names.newFolder.submit') } : { title: t('drive.names.rename.title'), label: t('drive.names.rename.label'), submit: t('drive.names.rename.submit') }

  // Each opening starts afresh from the given name. Reset while rendering (not in an effect), so
  // the field already holds the name when the dialog mounts and selects its base name.
  const [shownFor, setShownFor] = useState<string | null>(open ? initialName : null)
  const openedWith = open ? initialName : null
  if (shownFor !== openedWith) {
    setShownFor(openedWith)
    if (open) {
      setName(initialName)
      setTouched(false)
      setServerError(null)
      setPending(false)
    }
  }

  const problem = findNameProblem(name)
  const problemText = useNameProblemText(touched ? problem : null)
  const unchanged = mode === 'rename' && cleanName(name) === initialName

  async function submit(event: FormEvent) {
    event.preventDefault()
    setTouched(true)
    if (problem || pending) return
    if (unchanged) {
      onOpenChange(false)
      return
    }
    setPending(true)
    setServerError(null)
    try {
      await onSubmit(cleanName(name))
      onOpenChange(false)
    } catch (error) {
      setServerError(await describe(error))
      input.current?.focus()
    } finally {
      setPending(false)
    }
  }

  const formId = `drive-name-${mode}`
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      title={texts.title}
      testId="name-dialog"
      onOpenAutoFocus={(event) => {
        event.preventDefault()
        const field = input.current
        if (!field) return
        field.focus()
        field.setSelectionRange(0, baseNameLength(field.value, isFolder))
      }}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={pending}>
            {texts.submit}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="pt-1 pb-2">
        <TextField
          ref={input}
          label={texts.label}
          value={name}
          autoComplete="off"
          spellCheck={false}
          error={(touched && problem ? problemText : null) ?? serverError}
          onChange={(event) => {
            setName(event.target.value)
            setTouched(true)
            setServerError(null)
          }}
        />
      </form>
    </DialogShell>
  )
}

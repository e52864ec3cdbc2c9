import { type FormEvent, useState } from 'react'
import { useT } from '../../i18n/use-locale'
import { refreshSession } from '../../session/session-store'
import { Alert } from '../ui/alert'
import { Button } from '../ui/button'
import { TextField } from '../ui/text-field'
import { type AccountCheckKey, checkName, cleanDisplayName, NAME_MAX_LENGTH } from './account-checks'
import { useAccountAction } from './use-account-action'
import { escapeCancels } from './escape-cancels'

/** PATCH /v1/user/profile `{ name }`, then reloads the session so every view shows the new name. */
export function EditNameForm({ id, initial, onSaved, onCancel }: { id: string; initial: string; onSaved(name: string): void; onCancel(): void }) {
  const { t } = useT()
  const { run, pending, error } = useAccountAction()
  const [name, setName] = useState(initial)
  const [check, setCheck] = useState<AccountCheckKey | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const problem = checkName(name)
    setCheck(problem)
    if (problem) return
    const clean = cleanDisplayName(name)
    const result = await run(async (client) => {
      await client.request('PATCH', '/v1/user/profile', { body: { name: clean }, auth: true })
      await refreshSession(client)
    })
    if (result.ok) onSaved(clean)
  }

  return (
    <form id={id} onSubmit={submit} onKeyDown={escapeCancels(onCancel, pending)} noValidate className="mt-3 space-y-3 rounded-xl bg-slate-50 p-4 dark:bg-slate-800/50">
      <TextField
        label={t('accountHome.name.label')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        autoComplete="nickname"
        autoFocus
        error={check ? t(check, { max: NAME_MAX_LENGTH }) : null}
        hint={t('accountHome.name.hint')}
      />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onCancel} disabled={pending}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={pending}>
          {t('accountHome.name.save')}
        </Button>
      </div>
    </form>
  )
}

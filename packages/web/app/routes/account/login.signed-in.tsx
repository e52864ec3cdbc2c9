import { isAnonymousSub, type UserInfo } from '@cumulus/sdk'
import { primaryLinkClass } from '../../components/auth/auth-shell'
import { Button } from '../../components/ui/button'
import { useT } from '../../i18n/use-locale'
import { LocaleLink } from '../../navigation/locale-link'

/** For a visitor who is already signed in: who they are, the way to their account, or to add another. */
export function SignedInPanel({ user, onUseAnotherAccount }: { user: UserInfo; onUseAnotherAccount(): void }) {
  const { t } = useT()
  const guest = isAnonymousSub(user.userId)
  const name = guest ? t('auth.login.guestName') : user.nickname || user.username || user.userId
  const detail = guest ? null : [user.email, user.phoneNumber].filter((value) => value && value !== name).join(' · ')
  return (
    <div className="space-y-6" data-testid="signed-in-panel">
      <div className="flex items-center gap-4 rounded-xl bg-slate-50 p-4 dark:bg-slate-800/60">
        {user.avatar ? (
          <img src={user.avatar} alt="" className="size-12 shrink-0 rounded-full object-cover" />
        ) : (
          <span aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-600 text-lg font-semibold text-white">
            {[...name][0]?.toUpperCase()}
          </span>
        )}
        <div className="min-w-0">
          <p className="text-sm text-slate-600 dark:text-slate-300">{t('auth.login.signedInAs')}</p>
          <p className="truncate font-semibold text-slate-900 dark:text-white" data-testid="signed-in-name">
            {name}
          </p>
          {detail ? <p className="truncate text-sm text-slate-600 dark:text-slate-300">{detail}</p> : null}
        </div>
      </div>
      <div className="flex flex-col gap-3">
        <LocaleLink page="account-home" className={`${primaryLinkClass} w-full`}>
          {t('auth.login.goToAccount')}
        </LocaleLink>
        <Button variant="secondary" block onClick={onUseAnotherAccount}>
          {t('auth.login.useAnother')}
        </Button>
      </div>
      <p className="text-center text-xs text-slate-600 dark:text-slate-400">{t('auth.login.accountsKept')}</p>
    </div>
  )
}

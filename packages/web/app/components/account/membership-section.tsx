import type { UserInfo } from '@cumulus/sdk'
import { type ReactNode, useState } from 'react'
import { useLocale, useT } from '../../i18n/use-locale'
import { formatDate } from './format'
import { InvitePanel } from './invite-panel'
import { PlanUsage } from './plan-usage'
import { RedeemCodeForm } from './redeem-code-form'
import { Badge, Section } from './section'
import { vipViewOf } from './vip-view'

function CrownIcon({ className }: { className: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className}>
      <defs>
        <linearGradient id="account-crown" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#ffd86b" />
          <stop offset="1" stopColor="#e0a100" />
        </linearGradient>
      </defs>
      <path fill="url(#account-crown)" stroke="#a86f00" strokeWidth=".8" d="M3 8l4.5 3.5L12 4l4.5 7.5L21 8l-2 10H5z" />
      <rect x="5" y="19" width="14" height="2" rx="1" fill="#a86f00" />
    </svg>
  )
}

const BENEFIT_ICONS = {
  space: 'M4 7a3 3 0 0 1 3-3h10a3 3 0 0 1 3 3v10a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3zM4 12h16M8 16h.01',
  tasks: 'M12 4v11m0 0l-4-4m4 4l4-4M5 20h14',
  video: 'M5 5h10a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2zm12 5l4-2.5v9L17 14',
} as const

function Benefits({ tone }: { tone: 'member' | 'none' }) {
  const { t } = useT()
  const items = [
    { key: 'space', title: t('accountHome.vip.benefitSpace'), text: t('accountHome.vip.benefitSpaceText') },
    { key: 'tasks', title: t('accountHome.vip.benefitTasks'), text: t('accountHome.vip.benefitTasksText') },
    { key: 'video', title: t('accountHome.vip.benefitVideo'), text: t('accountHome.vip.benefitVideoText') },
  ] as const
  const iconTone = tone === 'member' ? 'bg-white/70 text-amber-800 dark:bg-amber-900/60 dark:text-amber-200' : 'bg-brand-50 text-brand-700 dark:bg-brand-900/60 dark:text-brand-200'
  return (
    <ul className="grid gap-3 sm:grid-cols-3">
      {items.map((item) => (
        <li key={item.key} className="flex gap-3 sm:flex-col sm:gap-2">
          <span className={`inline-flex size-10 shrink-0 items-center justify-center rounded-xl ${iconTone}`}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
              <path d={BENEFIT_ICONS[item.key]} />
            </svg>
          </span>
          <span>
            <span className="block text-sm font-semibold">{item.title}</span>
            <span className="block text-sm opacity-90">{item.text}</span>
          </span>
        </li>
      ))}
    </ul>
  )
}

const MEMBER_CARD =
  'overflow-hidden rounded-2xl bg-gradient-to-br from-amber-50 via-amber-100 to-yellow-50 p-5 text-amber-950 ring-1 ring-amber-200 ring-inset sm:p-6 dark:from-amber-950 dark:via-slate-900 dark:to-slate-900 dark:text-amber-50 dark:ring-amber-800/70'
const NONE_CARD =
  'rounded-2xl bg-gradient-to-br from-brand-50 to-white p-5 text-slate-800 ring-1 ring-brand-100 ring-inset sm:p-6 dark:from-slate-800/80 dark:to-slate-900 dark:text-slate-100 dark:ring-slate-700'

/** VIP status (spec 4: the user_vas 2 entry; is_vip != 0 is a member, is_year 1 a yearly plan). */
export function MembershipSection({ user }: { user: UserInfo }) {
  const { t } = useT()
  const locale = useLocale()
  const view = vipViewOf(user)
  const [iconBroken, setIconBroken] = useState(false)

  // The card's top differs by state; what follows it (usage, the code form, the invite link) is
  // one element tree in both, so redeeming a code keeps the form and its message as the card
  // turns from "not a member" to "member".
  let head: ReactNode
  if (view.kind === 'member') {
    const expires = formatDate(view.expiresAt, locale)
    head = (
      <>
        <div className="flex items-start gap-4">
          {view.iconUrl && !iconBroken ? (
            <img src={view.iconUrl} alt={t('accountHome.vip.iconAlt')} className="size-12 shrink-0" onError={() => setIconBroken(true)} data-testid="vip-icon" />
          ) : (
            <CrownIcon className="size-12 shrink-0" />
          )}
          <div className="min-w-0 flex-1">
            <p data-testid="vip-state" className="text-lg font-semibold">
              {t('accountHome.vip.member', { type: view.typeLabel })}
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              {view.level > 0 ? (
                <Badge tone="gold" testId="vip-level">
                  {t('accountHome.vip.level', { level: view.level })}
                </Badge>
              ) : null}
              {view.isYear ? (
                <Badge tone="gold" testId="vip-yearly">
                  {t('accountHome.vip.yearly')}
                </Badge>
              ) : null}
            </div>
            {expires ? (
              <p data-testid="vip-expiry" className="mt-3 text-sm font-medium">
                {t('accountHome.vip.expires', { date: expires })}
              </p>
            ) : null}
          </div>
        </div>
        <h3 className="mb-3 mt-6 text-sm font-semibold">{t('accountHome.vip.included')}</h3>
        <Benefits tone="member" />
      </>
    )
  } else {
    const ended = formatDate(view.endedAt, locale)
    head = (
      <>
        <div className="flex items-start gap-4">
          <CrownIcon className="size-12 shrink-0 opacity-80 grayscale-[40%]" />
          <div className="min-w-0 flex-1">
            <p data-testid="vip-state" className="text-lg font-semibold">
              {t('accountHome.vip.notMember')}
            </p>
            {ended ? (
              <p data-testid="vip-ended" className="mt-1 text-sm">
                {t('accountHome.vip.ended', { date: ended })}
              </p>
            ) : null}
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t('accountHome.vip.pitch')}</p>
          </div>
        </div>
        <div className="mt-5">
          <Benefits tone="none" />
        </div>
        <p className="mt-5 flex gap-2 rounded-xl bg-white/80 p-3 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset dark:bg-slate-950/40 dark:text-slate-300 dark:ring-slate-700">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="mt-0.5 size-4 shrink-0" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="12" cy="12" r="9" />
            <path d="M12 11v5M12 8h.01" />
          </svg>
          <span>{t('accountHome.vip.grantedByOperator')}</span>
        </p>
      </>
    )
  }

  const member = view.kind === 'member'
  return (
    <Section id="membership" title={t('accountHome.vip.title')} testId="membership-section">
      <div
        data-testid="vip-status"
        data-vip={member ? 'member' : 'none'}
        data-vip-type={member ? view.typeLabel : undefined}
        className={member ? MEMBER_CARD : NONE_CARD}
      >
        {head}
        <PlanUsage planKey={member ? `${view.typeLabel}:${view.expiresAt?.getTime() ?? ''}` : 'none'} />
        <RedeemCodeForm />
        <InvitePanel userId={user.userId} />
      </div>
    </Section>
  )
}

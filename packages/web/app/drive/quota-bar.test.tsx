import type { DriveAbout } from '@cumulus/protocol'
import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderPage } from '../../test/render'
import zhCN from '../locales/zh-CN/index'
import { QuotaBar } from './quota-bar'

const MiB = 1024 ** 2
const nbsp = (text: string) => text.replace(/ (?=[KMGT]?i?B\b)/g, '\u00a0')

function about(quota: { usage: number; inTrash?: number; inUploads?: number }): DriveAbout {
  return {
    kind: 'drive#about',
    quota: {
      kind: 'drive#quota',
      limit: String(10 * 1024 ** 3),
      usage: String(quota.usage),
      usage_in_trash: String(quota.inTrash ?? 0),
      ...(quota.inUploads === undefined ? {} : { usage_in_uploads: String(quota.inUploads) }),
      play_times_limit: '-1',
      play_times_usage: '0',
      is_unlimited: false,
    },
    expires_at: '',
    quotas: {},
  }
}

describe('QuotaBar', () => {
  // Regression (issue 10): the bar said 38.1 MB used while the drive held 9 bytes; the rest was
  // reserved by abandoned uploads, which the bar did not mention.
  it('says how much of the usage unfinished uploads hold, as a segment and a line', () => {
    renderPage(<QuotaBar about={about({ usage: 38.1 * MiB + 9, inUploads: 38.1 * MiB })} />)
    expect(screen.getByTestId('quota-text').textContent).toBe(nbsp('38.1 MiB of 10 GiB used'))
    expect(screen.getByTestId('quota-uploads').textContent).toBe(nbsp('38.1 MiB held by uploads in progress'))
    expect(screen.getByTestId('quota-uploads-segment').style.width).not.toBe('0%')
  })

  it('in every language', () => {
    renderPage(<QuotaBar about={about({ usage: 2 * MiB, inUploads: MiB })} />, { locale: 'zh-CN' })
    expect(screen.getByTestId('quota-uploads').textContent).toBe(zhCN.drive.quota.inUploads.replace('{{size}}', nbsp('1 MiB')))
  })

  it('shows nothing extra when the server does not send the field, or it is zero', () => {
    const { unmount } = renderPage(<QuotaBar about={about({ usage: 5 * MiB, inTrash: MiB })} />)
    expect(screen.queryByTestId('quota-uploads')).toBeNull()
    expect(screen.getByTestId('quota').textContent).toContain(nbsp('1 MiB in the trash'))
    unmount()
    renderPage(<QuotaBar about={about({ usage: 5 * MiB, inUploads: 0 })} />)
    expect(screen.queryByTestId('quota-uploads')).toBeNull()
  })

  it('says what still works when more is stored than the plan holds (a membership that ended), in the page language', () => {
    const over = about({ usage: 11 * 1024 ** 3 })
    const { unmount } = renderPage(<QuotaBar about={over} />)
    expect(screen.getByTestId('quota-over').textContent).toMatch(/^You are using more than your plan's storage\. Your files stay readable/)
    unmount()
    renderPage(<QuotaBar about={over} />, { locale: 'zh-CN' })
    expect(screen.getByTestId('quota-over').textContent).toBe(zhCN.drive.quota.over)
    expect(screen.queryByText(zhCN.drive.quota.almostFull)).toBeNull()
  })

  it('does not say it at the limit itself', () => {
    renderPage(<QuotaBar about={about({ usage: 10 * 1024 ** 3 })} />)
    expect(screen.queryByTestId('quota-over')).toBeNull()
  })
})

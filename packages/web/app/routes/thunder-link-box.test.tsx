import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderPage } from '../../test/render'
import { ThunderLinkBox } from './thunder-link-box'
import { PENDING_DOWNLOAD_LINK_KEY } from './thunder-pending-link'

const MAGNET = 'magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn=ubuntu.iso'

async function paste(link: string, labels = { field: 'Download link', submit: 'Download to my cloud' }) {
  const input = screen.getByLabelText(labels.field)
  await userEvent.clear(input)
  await userEvent.click(input)
  await userEvent.paste(link)
  await userEvent.click(screen.getByRole('button', { name: labels.submit }))
}

describe('ThunderLinkBox', () => {
  it('keeps a pasted link and asks a signed-out visitor to sign in, coming back to /thunder', async () => {
    renderPage(<ThunderLinkBox />, { path: '/thunder' })
    await paste(`  ${MAGNET} `)

    expect(localStorage.getItem(PENDING_DOWNLOAD_LINK_KEY)).toBe(MAGNET)
    expect(screen.getByText('Your magnet link is kept on this device.')).toBeDefined()
    const signIn = screen.getByRole('link', { name: 'Sign in to continue' })
    expect(signIn.getAttribute('href')).toBe('/account/login?redirect=%2Fthunder')
  })

  it('sends a signed-out visitor to sign-in in their locale and back to that locale’s /thunder', async () => {
    renderPage(<ThunderLinkBox />, { path: '/thunder', locale: 'ko' })
    await paste('https://example.org/movie.mp4', { field: '다운로드 링크', submit: '내 클라우드로 다운로드' })
    expect(screen.getByRole('link', { name: '로그인하고 계속하기' }).getAttribute('href')).toBe('/ko/account/login?redirect=%2Fko%2Fthunder')
  })

  it('puts a kept link back into the box when the visitor comes back', async () => {
    localStorage.setItem(PENDING_DOWNLOAD_LINK_KEY, MAGNET)
    renderPage(<ThunderLinkBox />, { path: '/thunder' })

    expect(await screen.findByDisplayValue(MAGNET)).toBe(screen.getByLabelText('Download link'))
    expect(screen.getByText('Welcome back: the link you pasted before is in the box.')).toBeDefined()
    expect(screen.getByRole('link', { name: 'Sign in to continue' })).toBeDefined()
  })

  it('ignores a kept value that is not a valid link', async () => {
    localStorage.setItem(PENDING_DOWNLOAD_LINK_KEY, 'javascript:alert(1)')
    renderPage(<ThunderLinkBox />, { path: '/thunder' })
    expect((screen.getByLabelText('Download link') as HTMLInputElement).value).toBe('')
    expect(screen.queryByText(/Welcome back/)).toBeNull()
  })

  it('explains an unsupported link on the field and keeps nothing', async () => {
    renderPage(<ThunderLinkBox />, { path: '/thunder' })
    await paste('mailto:anna@example.org')

    const input = screen.getByLabelText('Download link')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('This kind of link is not supported. Use a web, magnet or Thunder link.')).toBeDefined()
    expect(localStorage.getItem(PENDING_DOWNLOAD_LINK_KEY)).toBeNull()
    expect(screen.queryByRole('link', { name: 'Sign in to continue' })).toBeNull()
  })

  it('asks for a link when the box is empty', async () => {
    renderPage(<ThunderLinkBox />, { path: '/thunder' })
    await userEvent.click(screen.getByRole('button', { name: 'Download to my cloud' }))
    expect(screen.getByText('Paste a link first.')).toBeDefined()
  })

  it('forgets the kept link on request', async () => {
    renderPage(<ThunderLinkBox />, { path: '/thunder' })
    await paste('https://example.org/a.zip')
    await userEvent.click(screen.getByRole('button', { name: 'Forget this link' }))

    expect(localStorage.getItem(PENDING_DOWNLOAD_LINK_KEY)).toBeNull()
    expect((screen.getByLabelText('Download link') as HTMLInputElement).value).toBe('')
    expect(screen.getByRole('status').textContent).toBe('The link was removed from this device.')
  })
})

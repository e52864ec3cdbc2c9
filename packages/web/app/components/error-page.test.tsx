import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderPage } from '../../test/render'
import { ErrorPage } from './error-page'

describe('ErrorPage', () => {
  it('names the missing path under "Page Not Found" for 404', async () => {
    renderPage(<ErrorPage status={404} path="/no/such/page" />)
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Page Not Found')
    expect(screen.getByTestId('error-message').textContent).toBe('Page not found: /no/such/page')
  })

  it('says "Internal Server Error" for anything else, without details', async () => {
    renderPage(<ErrorPage status={500} path="/about" />)
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Internal Server Error')
    expect(screen.getByTestId('error-message').textContent).not.toContain('/about')
  })

  it('speaks the page language and links home in it', async () => {
    renderPage(<ErrorPage status={404} path="/ko/x" />, { locale: 'ko', path: '/x' })
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('페이지를 찾을 수 없음')
    expect(screen.getByRole('link', { name: '홈으로 돌아가기' }).getAttribute('href')).toBe('/ko')
  })
})

import { LOCALES, type Locale } from '@cumulus/protocol'
import { render, type RenderResult } from '@testing-library/react'
import type { ReactNode } from 'react'
import { I18nextProvider } from 'react-i18next'
import { createRoutesStub } from 'react-router'
import { ColorModeProvider } from '../app/color-mode/color-mode-provider'
import { createI18n } from '../app/i18n/i18n'
import { localizePath } from '../app/i18n/locale-routing'
import type { Messages } from '../app/locales/shape'
import enUS from '../app/locales/en-US/index'
import id from '../app/locales/id/index'
import ko from '../app/locales/ko/index'
import ms from '../app/locales/ms/index'
import zhCN from '../app/locales/zh-CN/index'
import zhTW from '../app/locales/zh-TW/index'

/** Every locale's tables, for tests (the app loads them lazily). */
export const ALL_MESSAGES: Record<Locale, Messages> = { 'en-US': enUS, id, ko, ms, 'zh-CN': zhCN, 'zh-TW': zhTW }

export interface RenderPageOptions {
  locale?: Locale
  /** The unprefixed path the component is rendered at; default '/'. */
  path?: string
  /** The query of the initial entry, e.g. '?add=1'. */
  search?: string
  /** Other routes the component may navigate to: unprefixed path -> element. */
  routes?: Record<string, ReactNode>
}

/**
 * Renders UI as a page of the app: inside a router at `path` in `locale`, with the i18n and
 * colour-mode providers. Use for components and route components alike.
 */
export function renderPage(ui: ReactNode, { locale = 'en-US', path = '/', search = '', routes = {} }: RenderPageOptions = {}): RenderResult {
  const i18n = createI18n(locale, ALL_MESSAGES)
  const at = localizePath(path, locale)
  const Stub = createRoutesStub([
    { path: at, Component: () => <>{ui}</> },
    ...Object.entries(routes).flatMap(([other, element]) => LOCALES.map((l) => ({ path: localizePath(other, l), Component: () => <>{element}</> }))),
  ])
  return render(
    <I18nextProvider i18n={i18n}>
      <ColorModeProvider forced={null}>
        <Stub initialEntries={[`${at}${search}`]} />
      </ColorModeProvider>
    </I18nextProvider>,
  )
}

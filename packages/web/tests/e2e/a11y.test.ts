// Accessibility: axe-core on every page of the product (spec 2) and the 404 page, in light and
// dark, on a desktop window and a 375 px wide phone. Fails on any violation of impact serious
// or critical (colour contrast, names of controls, landmarks, ...), listing each element.
// Console errors are pages.test.ts's concern; here only axe's findings fail a case.
import { describe, expect } from 'vitest'
import { DESKTOP, expectNoA11yViolations, htmlClasses, PHONE, test, waitForHydration } from './playwright-utils'

/** Every page path of the spec, plus an unknown path for the 404 page. */
const PATHS = ['/', '/thunder', '/about', '/newbie/guide', '/toapp', '/search/associate', '/decompress/abc', '/account/login', '/password/recover', '/auth/callback', '/s/no-such-share', '/no/such/page'] as const
/** Pages that force a colour mode whatever the preference (their `handle.colorMode`). */
const FORCED: Partial<Record<(typeof PATHS)[number], 'dark' | 'light'>> = { '/thunder': 'dark' }

const VIEWPORTS = { desktop: DESKTOP, phone: PHONE } as const
const THEMES = ['light', 'dark'] as const

const cases = PATHS.flatMap((path) => THEMES.flatMap((theme) => (Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]).map((viewport) => ({ path, theme, viewport }))))

describe('axe-core finds no serious or critical violation', () => {
  test.for(cases)('$path in $theme on $viewport', async ({ path, theme, viewport }, { openPage }) => {
    const { page } = await openPage({ ...VIEWPORTS[viewport], colorScheme: theme, checkErrors: false })
    await page.goto(path)
    await waitForHydration(page)
    // The theme under test is really the one shown (the system preference drives it here).
    const shown = FORCED[path] ?? theme
    expect(await htmlClasses(page)).toContain(shown)

    await expectNoA11yViolations(page)
  })
})

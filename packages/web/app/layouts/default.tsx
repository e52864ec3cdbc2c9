import { Outlet } from 'react-router'
import { CaptchaOverlay } from '../components/captcha-overlay'
import { SiteFooter } from '../components/site-footer'
import { SiteHeader } from '../components/site-header'

/** The one layout of the spec ("default"): header with language and theme switchers, footer. */
export default function DefaultLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
      <CaptchaOverlay />
    </div>
  )
}

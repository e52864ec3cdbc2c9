import { LOCALES, VERIFICATION_PURPOSES } from '@cumulus/protocol'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { verificationMessage } from './messages.js'

const CODE = '048213'
const base = { code: CODE, productName: 'Cumulus', minutes: 10 }

// Han (Chinese) for zh-*, Hangul for ko: a CJK locale that falls back to English would fail here.
const SCRIPT_OF = { ko: /\p{Script=Hangul}/u, 'zh-CN': /\p{Script=Han}/u, 'zh-TW': /\p{Script=Han}/u } as const

describe('verificationMessage', () => {
  for (const locale of LOCALES) {
    describe(locale, () => {
      it.each(VERIFICATION_PURPOSES)('renders every part with the code for %s', (usage) => {
        const message = verificationMessage(locale, { ...base, usage })
        for (const part of [message.subject, message.text, message.html, message.sms]) {
          expect(part.trim()).not.toBe('')
          expect(part).toContain(CODE)
        }
        expect(message.text).toContain('10')
        expect(message.sms).not.toMatch(/[\r\n]/)
        expect(message.subject).not.toMatch(/[\r\n]/)
        expect(message.html).toContain(`lang="${locale}"`)
        const script = SCRIPT_OF[locale as keyof typeof SCRIPT_OF]
        if (script) for (const part of [message.subject, message.text, message.html, message.sms]) expect(part).toMatch(script)
      })

      it('says what the code is for: each distinct purpose reads differently', () => {
        const intros = (['REGISTER', 'SIGN_IN', 'PASSWORD_RESET', 'EMAIL_ADDRESS_CHANGE', 'PHONE_NUMBER_CHANGE', 'DEFAULT'] as const).map(
          (usage) => verificationMessage(locale, { ...base, usage }).text,
        )
        expect(new Set(intros).size).toBe(intros.length)
      })

      it('reads the generic verification the same for DEFAULT and the *_VERIFICATION purposes', () => {
        const generic = verificationMessage(locale, { ...base, usage: 'DEFAULT' })
        expect(verificationMessage(locale, { ...base, usage: 'EMAIL_ADDRESS_VERIFICATION' })).toEqual(generic)
        expect(verificationMessage(locale, { ...base, usage: 'PHONE_NUMBER_VERIFICATION' })).toEqual(generic)
      })
    })
  }

  it('writes the English texts in full', () => {
    const message = verificationMessage('en-US', { ...base, usage: 'PASSWORD_RESET' })
    expect(message.subject).toBe('048213 is your Cumulus password reset code')
    expect(message.text).toContain('Use this code to reset your Cumulus password:')
    expect(message.text).toContain('This code expires in 10 minutes.')
    expect(message.text).toContain("If you didn't ask for this code, you can safely ignore this message.")
    expect(message.html).toMatch(/<h1[^>]*>Your Cumulus password reset code<\/h1>/)
    expect(message.html).toMatch(/font-family:[^"]*monospace[^"]*">048213<\/p>/)
  })

  it('uses the singular for one minute and never shows zero minutes', () => {
    expect(verificationMessage('en-US', { ...base, minutes: 1, usage: 'SIGN_IN' }).text).toContain('expires in 1 minute.')
    expect(verificationMessage('en-US', { ...base, minutes: 0, usage: 'SIGN_IN' }).text).toContain('expires in 1 minute.')
  })

  it('HTML-escapes the product name in the HTML part only', () => {
    const message = verificationMessage('en-US', { ...base, productName: 'A<b>&"Co\'', usage: 'REGISTER' })
    expect(message.html).toContain('A&lt;b&gt;&amp;&quot;Co&#39;')
    expect(message.html).not.toContain('<b>')
    expect(message.subject).toContain('A<b>&"Co\'')
    expect(message.text).toContain('A<b>&"Co\'')
  })

  it('keeps subject and SMS on one line and never lets an interpolated value inject markup', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOCALES), fc.constantFrom(...VERIFICATION_PURPOSES), fc.string({ minLength: 1 }), (locale, usage, productName) => {
        const message = verificationMessage(locale, { ...base, productName, usage })
        expect(message.subject).not.toMatch(/[\r\n]/)
        expect(message.sms).not.toMatch(/[\r\n]/)
        // Every tag in the HTML is one of the template's own.
        const tags = message.html.match(/<\/?([a-zA-Z0-9!]+)/g) ?? []
        for (const tag of tags) expect(['<!DOCTYPE', '<html', '<head', '<meta', '<title', '<body', '<table', '<tr', '<td', '<h1', '<p']).toContain(tag.replace('/', ''))
      }),
    )
  })
})

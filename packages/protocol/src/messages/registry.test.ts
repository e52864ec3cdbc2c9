import { describe, expect, it } from 'vitest'
import { AccountErrors } from '../errors/catalogue.js'
import { chooseErrorMessage } from '../errors/message-choice.js'
import { enUS } from './en-US.js'
import { ko } from './ko.js'
import { loadMessages, loadedMessages } from './registry.js'

// Vitest isolates modules per file, so here no table but en-US has been loaded yet.
describe('lazily loaded message tables', () => {
  const error = { error: 'invalid_account_or_password', error_code: AccountErrors.invalid_account_or_password.code }

  it('reads en-US for a locale not loaded yet, and the locale once it is', async () => {
    expect(loadedMessages('ko')).toBeUndefined()
    expect(chooseErrorMessage(error, 'ko')).toBe(enUS.invalid_account_or_password)
    await loadMessages('ko')
    expect(chooseErrorMessage(error, 'ko')).toBe(ko.invalid_account_or_password)
  })
})
